// Text that a caller sends us (query parameters, form fields) is refused when it holds control
// characters or lone surrogates: PostgreSQL text cannot store U+0000, a lone surrogate is not valid
// UTF-8, and no name, search or id of ours means a control character (one would only hide in a log or
// a page). One rule, used by the query parser and by every form.
//
// A name that a person reads (an API key's, an OAuth client's) is held to more: no invisible format
// characters either. A right-to-left override (U+202E) or an isolate makes a name display in another
// order than it is stored ("Backup", U+202E, "txt.exe" reads as "Backupexe.txt"); a zero-width space,
// a soft hyphen or a tag character hides in it ("Cl\u200Baude" displays as "Claude" but is another
// name). None belongs in a name.

/** C0 controls (tab and newlines included), DEL and C1 controls. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/u;
/** A surrogate code unit that is not half of a pair. */
const LONE_SURROGATE = /\p{Cs}/u;
/**
 * Invisible characters: Unicode's format characters (Cf: the text-direction controls, zero-width
 * spaces, joiners and non-joiners, the soft hyphen, the byte order mark, the tag characters
 * U+E0000–E007F…) and the line and paragraph separators (U+2028, U+2029).
 */
const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}]/u;
/** A zero-width joiner between two emoji (👩‍💻): the one format character a name keeps, as it draws one picture of the two. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/u;

export const PLAIN_TEXT_MESSAGE = 'must not contain control characters';
export const PLAIN_NAME_MESSAGE = 'must not contain control characters or invisible characters (such as text-direction controls or zero-width spaces)';

export function isPlainText(value: string): boolean {
  return !CONTROL_CHARACTER.test(value) && !LONE_SURROGATE.test(value);
}

/** Plain text without invisible characters (an emoji's joiner aside): what a name a person reads may hold. */
export function isPlainName(value: string): boolean {
  return isPlainText(value) && !INVISIBLE.test(value.replace(new RegExp(EMOJI_JOINER, 'gu'), ''));
}

/** Every character a name may not hold, an emoji's joiner (captured, and kept) matched first. */
const NOT_IN_A_NAME = new RegExp(`(${EMOJI_JOINER.source})|${CONTROL_CHARACTER.source}|${INVISIBLE.source}`, 'gu');

/**
 * A stored name as a page shows it: without control and invisible characters, so that a name saved
 * before the rule (or by a path that skipped it) still displays in the order it is stored, and shows
 * what it holds.
 */
export function displayName(name: string): string {
  return name.replace(NOT_IN_A_NAME, (_, joiner?: string) => joiner ?? '');
}
