// The plain-text rules: what any text we take may hold, what a name a person reads may hold (no
// invisible characters: text-direction controls, which make it display in another order, zero-width
// and other format characters, which hide in it), and a stored name as shown.
import { describe, expect, it } from 'vitest';
import { displayName, isPlainName, isPlainText } from '@/lib/text/plain-text';

/** Unicode's Bidi_Control characters, every one. */
const DIRECTION_CONTROLS = ['\u061C', '\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];

describe('isPlainName', () => {
  it.each(DIRECTION_CONTROLS.map((control) => [`U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`, control]))('refuses %s, which plain text allows', (_label, control) => {
    const name = `Backup${control}txt.exe`;
    expect(isPlainText(name)).toBe(true);
    expect(isPlainName(name)).toBe(false);
  });

  it('refuses what plain text refuses', () => {
    for (const name of ['a\u0000b', 'a\tb', 'a\u0085b', 'a\uD800b']) expect(isPlainName(name)).toBe(false);
  });

  it.each([
    ['U+200B, a zero-width space', 'Cl\u200Baude'],
    ['U+200C, a zero-width non-joiner', 'Cl\u200Caude'],
    ['U+200D, a zero-width joiner between letters', 'Cl\u200Daude'],
    ['U+2060, a word joiner', 'Cl\u2060aude'],
    ['U+00AD, a soft hyphen', 'Cl\u00ADaude'],
    ['U+FEFF, a byte order mark', '\uFEFFClaude'],
    ['U+2028, a line separator', 'Cl\u2028aude'],
    ['U+2029, a paragraph separator', 'Cl\u2029aude'],
    ['U+E0001, the language tag', 'Claude\u{E0001}'],
    ['U+E0041, a tag character', 'Claude\u{E0041}'],
    ['U+E007F, the cancel tag', 'Claude\u{E007F}'],
    ['U+180E, the Mongolian vowel separator', 'Cl\u180Eaude'],
  ])('refuses %s, an invisible character plain text allows', (_label, name) => {
    expect(isPlainText(name)).toBe(true);
    expect(isPlainName(name)).toBe(false);
  });

  it('keeps letters of any script and direction, and emoji, those joined by a zero-width joiner included', () => {
    for (const name of ['Looker Studio — Zürich 東京 📊', 'تقارير الإعلانات', 'דוחות', '👩‍💻 reports', '❤️‍🔥']) expect(isPlainName(name)).toBe(true);
  });
});

describe('displayName', () => {
  it('drops text-direction and control characters, so a stored name shows in the order it is stored', () => {
    expect(displayName('Backup\u202Etxt.exe')).toBe('Backuptxt.exe');
    expect(displayName(`a${DIRECTION_CONTROLS.join('')}b\u0000c\nd`)).toBe('abcd');
    expect(displayName('تقارير Zürich 📊')).toBe('تقارير Zürich 📊');
  });

  it('drops invisible characters, but keeps the joiner of an emoji sequence', () => {
    expect(displayName('Cl\u200Baude\u2028\u{E0041} 👩‍💻 a\u200Db')).toBe('Claude 👩‍💻 ab');
  });
});
