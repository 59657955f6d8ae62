// Text that a caller sends us (query parameters, form fields) is refused when it holds control
// characters or lone surrogates: PostgreSQL text cannot store U+0000, a lone surrogate is not valid
// UTF-8, and no name, search or id of ours means a control character (one would only hide in a log or
// a page). One rule, used by the query parser and by every form.

/** C0 controls (tab and newlines included), DEL and C1 controls. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/u;
/** A surrogate code unit that is not half of a pair. */
const LONE_SURROGATE = /\p{Cs}/u;

export const PLAIN_TEXT_MESSAGE = 'must not contain control characters';

export function isPlainText(value: string): boolean {
  return !CONTROL_CHARACTER.test(value) && !LONE_SURROGATE.test(value);
}
