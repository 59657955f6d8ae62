// The key form's name: control characters are refused with a message for the form (PostgreSQL text
// cannot hold U+0000; nothing else of that range belongs in a name), and so are text-direction
// controls (a name would display in another order than it is stored); the length cap holds.
import { describe, expect, it } from 'vitest';
import { KEY_NAME_MAX, KEY_NOTE_MAX, parseKeyDetailsForm, parseKeyForm } from '@/lib/settings/key-form';

const CONTROL_MESSAGE = 'The name must not contain control characters, such as line breaks or tabs.';
const INVISIBLE_MESSAGE = 'The name must not contain invisible characters, such as text-direction controls (U+202E), which make it display in another order, or zero-width spaces (U+200B).';

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

  it.each([
    ['a right-to-left override', 'Backup\u202Etxt.exe'],
    ['a left-to-right embedding', 'Backup\u202Atxt.exe'],
    ['a right-to-left isolate', 'Backup\u2067txt.exe'],
    ['a right-to-left mark', 'Backup\u200Ftxt.exe'],
    ['an Arabic letter mark', 'Backup\u061Ctxt.exe'],
    ['a zero-width space', 'Cl\u200Baude'],
    ['a zero-width joiner between letters', 'Cl\u200Daude'],
    ['a zero-width non-joiner', 'Cl\u200Caude'],
    ['a word joiner', 'Cl\u2060aude'],
    ['a soft hyphen', 'Cl\u00ADaude'],
    ['a byte order mark', 'Cl\uFEFFaude'],
    ['a line separator', 'Cl\u2028aude'],
    ['a paragraph separator', 'Cl\u2029aude'],
    ['a tag character', 'Claude\u{E0041}\u{E007F}'],
  ])('refuses %s, an invisible character (a text-direction control makes the name display in another order; the others hide in it)', (_label, name) => {
    expect(parseKeyForm(withName(name))).toEqual({ errors: { name: INVISIBLE_MESSAGE } });
  });

  it('takes an emoji sequence joined by a zero-width joiner (one picture of two)', () => {
    expect(parseKeyForm(withName('Reports 👩‍💻'))).toMatchObject({ request: { name: 'Reports 👩‍💻' } });
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

describe('parseKeyDetailsForm: rename and note', () => {
  const details = (name: string, note?: string) => {
    const form = new FormData();
    form.append('name', name);
    if (note !== undefined) form.append('note', note);
    return form;
  };

  it('trims both, and reads an empty or missing note as none', () => {
    expect(parseKeyDetailsForm(details('  Looker  ', '  Used by the Monday report. '))).toEqual({ change: { name: 'Looker', note: 'Used by the Monday report.' } });
    expect(parseKeyDetailsForm(details('Looker', '   '))).toEqual({ change: { name: 'Looker', note: null } });
    expect(parseKeyDetailsForm(details('Looker'))).toEqual({ change: { name: 'Looker', note: null } });
  });

  it(`takes a note of ${KEY_NOTE_MAX} characters and refuses one more`, () => {
    expect(parseKeyDetailsForm(details('Looker', 'n'.repeat(KEY_NOTE_MAX)))).toEqual({ change: { name: 'Looker', note: 'n'.repeat(KEY_NOTE_MAX) } });
    expect(parseKeyDetailsForm(details('Looker', 'n'.repeat(KEY_NOTE_MAX + 1)))).toEqual({ errors: { note: `At most ${KEY_NOTE_MAX} characters.` } });
  });

  it('refuses control and text-direction characters in the note, and reports the name and the note together', () => {
    expect(parseKeyDetailsForm(details('Looker', 'line one\nline two'))).toEqual({
      errors: { note: 'The note must not contain control characters, such as line breaks or tabs.' },
    });
    expect(parseKeyDetailsForm(details('', 'Backup\u202Etxt.exe'))).toEqual({
      errors: { name: 'Give the key a name.', note: 'The note must not contain invisible characters, such as text-direction controls (U+202E), which make it display in another order, or zero-width spaces (U+200B).' },
    });
  });
});
