// Where the sign-in page may send a user back to: only the OAuth consent screen of an authorization
// under way. Anything else (another site, a protocol-relative `//host`, a path elsewhere) is ignored,
// so a crafted sign-in link can never redirect off this app or to an unexpected page.
const RETURN_TO = /^\/consent\/[A-Za-z0-9_-]{1,128}$/;

/** The query parameter and form field that carry the return address. */
export const RETURN_TO_FIELD = 'next';

export function safeReturnTo(value: unknown): string | null {
  return typeof value === 'string' && RETURN_TO.test(value) ? value : null;
}

/** The sign-in page's address that comes back to `path` (which must pass safeReturnTo). */
export function signInPathReturningTo(path: string): string {
  return `/login?${RETURN_TO_FIELD}=${encodeURIComponent(path)}`;
}
