// The key form's name: control characters are refused with a message for the form (PostgreSQL text
// cannot hold U+0000; nothing else of that range belongs in a name), and the length cap holds.
import { describe, expect, it } from 'vitest';
import { KEY_NAME_MAX, parseKeyForm } from '@/lib/settings/key-form';

const CONTROL_MESSAGE = 'The name must not contain control characters, such as line breaks or tabs.';

function withName(name: string): FormData {
  const form = new FormData();
  form.append('name', name);
  form.append('scopes', 'ads:read');
  form.append('clientAccess', 'all');
  return form;
}

describe('parseKeyForm: the name', () => {
  it.each([
    ['NUL', 'Reporting\u0000bot'],
    ['U+0001', 'Reporting\u0001bot'],
    ['a tab', 'Reporting\tbot'],
    ['DEL', 'Reporting\u007fbot'],
    ['a C1 control', 'Reporting\u0085bot'],
    ['a line break at the end, which trimming would otherwise drop', 'Reporting bot\n'],
  ])('refuses %s', (_label, name) => {
    expect(parseKeyForm(withName(name))).toEqual({ errors: { name: CONTROL_MESSAGE } });
  });

  it(`takes up to ${KEY_NAME_MAX} characters after trimming, not one more`, () => {
    expect(KEY_NAME_MAX).toBe(100);
    const longest = 'k'.repeat(100);
    expect(parseKeyForm(withName(`  ${longest}  `))).toEqual({ request: { name: longest, scopes: ['ads:read'], clientIds: null, expiresAt: null } });
    expect(parseKeyForm(withName('k'.repeat(101)))).toEqual({ errors: { name: 'At most 100 characters.' } });
  });

  it('keeps letters of any script, emoji and punctuation', () => {
    const name = 'Looker Studio — Zürich 東京 📊 (v2)';
    expect(parseKeyForm(withName(name))).toEqual({ request: { name, scopes: ['ads:read'], clientIds: null, expiresAt: null } });
  });
});
