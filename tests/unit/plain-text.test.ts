// The plain-text rules: what any text we take may hold, what a name a person reads may hold (no
// text-direction controls, which make it display in another order), and a stored name as shown.
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

  it('keeps letters of any script and direction, emoji and other format characters', () => {
    for (const name of ['Looker Studio — Zürich 東京 📊', 'تقارير الإعلانات', 'דוחות', 'a\u200Db', 'a\u00ADb']) expect(isPlainName(name)).toBe(true);
  });
});

describe('displayName', () => {
  it('drops text-direction and control characters, so a stored name shows in the order it is stored', () => {
    expect(displayName('Backup\u202Etxt.exe')).toBe('Backuptxt.exe');
    expect(displayName(`a${DIRECTION_CONTROLS.join('')}b\u0000c\nd`)).toBe('abcd');
    expect(displayName('تقارير Zürich 📊')).toBe('تقارير Zürich 📊');
  });
});
