// Text that a caller sends us (query parameters, form fields) is refused when it holds control
// characters or lone surrogates: PostgreSQL text cannot store U+0000, a lone surrogate is not valid
// UTF-8, and no name, search or id of ours means a control character (one would only hide in a log or
// a page). One rule, used by the query parser and by every form.
//
// A name that a person reads (an API key's, an OAuth client's) is held to more: no text-direction
// controls either. A right-to-left override (U+202E) or an isolate makes a name display in another
// order than it is stored ("Backup", U+202E, "txt.exe" reads as "Backupexe.txt"); none belongs in a name.

/** C0 controls (tab and newlines included), DEL and C1 controls. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/u;
/** A surrogate code unit that is not half of a pair. */
const LONE_SURROGATE = /\p{Cs}/u;
/**
 * Unicode's Bidi_Control characters: the Arabic letter mark (U+061C), the left-to-right and
 * right-to-left marks (U+200E, U+200F), embeddings and overrides (U+202A–U+202E) and isolates
 * (U+2066–U+2069).
 */
const DIRECTION_CONTROL = /\p{Bidi_Control}/u;

export const PLAIN_TEXT_MESSAGE = 'must not contain control characters';
export const PLAIN_NAME_MESSAGE = 'must not contain control characters or text-direction controls';

export function isPlainText(value: string): boolean {
  return !CONTROL_CHARACTER.test(value) && !LONE_SURROGATE.test(value);
}

/** Plain text without text-direction controls: what a name a person reads may hold. */
export function isPlainName(value: string): boolean {
  return isPlainText(value) && !DIRECTION_CONTROL.test(value);
}

const NOT_IN_A_NAME = new RegExp(`${CONTROL_CHARACTER.source}|${DIRECTION_CONTROL.source}`, 'gu');

/**
 * A stored name as a page shows it: without control and text-direction characters, so that a name
 * saved before the rule (or by a path that skipped it) still displays in the order it is stored.
 */
export function displayName(name: string): string {
  return name.replace(NOT_IN_A_NAME, '');
}
