// Where the sign-in page may send a user back to: the OAuth consent screen of an authorization under
// way, or a settings page (after a session ended while it was open). Anything else (another site, a
// protocol-relative `//host`, a path elsewhere, a query) is ignored, so a crafted sign-in link can never
// redirect off this app or to an unexpected page.
const CONSENT_PATH = /^\/consent\/([A-Za-z0-9_-]{1,128})$/;
const SETTINGS_PATH = /^\/settings(\/[a-z0-9-]{1,64}){0,2}$/;

export const LOGIN_PATH = '/login';

/** The query parameter and form field that carry the return address. */
export const RETURN_TO_FIELD = 'next';

/**
 * Why the sign-in page is shown, when it is not a plain sign-in: the session ended while a page was
 * open (`expired`), or the signed-in person wants to continue as someone else (`switch`).
 */
export const SIGN_IN_REASON_FIELD = 'reason';
export type SignInReason = 'expired' | 'switch';

export function safeReturnTo(value: unknown): string | null {
  return typeof value === 'string' && (CONSENT_PATH.test(value) || SETTINGS_PATH.test(value)) ? value : null;
}

/** The interaction id of a consent screen's path, or null for any other path. */
export function consentUidOf(path: string | null): string | null {
  return path?.match(CONSENT_PATH)?.[1] ?? null;
}

export function signInReasonOf(value: unknown): SignInReason | null {
  return value === 'expired' || value === 'switch' ? value : null;
}

/** The sign-in page's address that comes back to `path` (which must pass safeReturnTo), saying why when there is a reason. */
export function signInPathReturningTo(path: string | null, reason?: SignInReason): string {
  const query = new URLSearchParams();
  if (path) query.set(RETURN_TO_FIELD, path);
  if (reason) query.set(SIGN_IN_REASON_FIELD, reason);
  const search = query.toString();
  return search ? `${LOGIN_PATH}?${search}` : LOGIN_PATH;
}
