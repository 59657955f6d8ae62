// The signed-in session of the current request, and the checks every server action runs first.
// Only server components and server actions import this (it reads next/headers).
//
// A refused action (another origin, no Origin, a missing or wrong CSRF token, a member calling an
// admin action) is answered with forbidden(): 403 and the page of app/forbidden.tsx, nothing changed.
// Next.js treats it as an expected outcome, like redirect(): not an error, so no 500 and nothing logged.
// An ended session (expired, signed out elsewhere) is sent to the sign-in page instead, which says so
// and comes back to the page afterwards.
import { cookies, headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
import { appUrl } from '../app-url';
import { isSameOriginRequest } from './origin';
import { isRecentSignIn } from './recent-sign-in';
import { LOGIN_PATH, RETURN_TO_FIELD, safeReturnTo, signInPathReturningTo } from './return-to';
import { deleteSession, findSession, type Session, type SessionMembership } from './sessions';
import { csrfTokenFor, isValidCsrfToken } from './tokens';

export const SESSION_COOKIE = 'metrics_session';
/** The hidden form field that carries the CSRF token. */
export const CSRF_FIELD = 'csrf_token';
export { LOGIN_PATH };
/** Where a signed-in user lands. */
export const SETTINGS_HOME = '/settings/api-keys';
/** The page that asks for the password again (sudo mode) when a sensitive action finds it too old. */
export const CONFIRM_ACCESS_PATH = '/settings/confirm-access';

export interface CurrentSession extends Session {
  /** The value every state-changing form of this session must carry in CSRF_FIELD. */
  csrfToken: string;
}

/** The current request's session, looked up once per request. */
export const currentSession = cache(async (): Promise<CurrentSession | null> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!token) return null;
  const session = await findSession(token);
  return session && { ...session, csrfToken: csrfTokenFor(token) };
});

/** Whether the browser holds a session cookie, live or not: enough to offer "Settings" rather than "Sign in", with no database read. */
export async function hasSessionCookie(): Promise<boolean> {
  return (await cookies()).has(SESSION_COOKIE);
}

/**
 * For pages: the session, or a redirect to the sign-in page that comes back to `path`. A cookie
 * without a live session means the session ended (expired, or signed out elsewhere): the sign-in page
 * says so. The cookie lives as long as its session, so after a plain expiry there is no cookie and
 * the page is just asked to sign in.
 */
export async function requireSession(path: string): Promise<CurrentSession> {
  const session = await currentSession();
  if (!session) redirect(signInPathReturningTo(safeReturnTo(path), (await hasSessionCookie()) ? 'expired' : undefined));
  return session;
}

/**
 * Secure when the public address (APP_URL) is https: decided by configuration, never by a header a
 * caller sets. An http APP_URL (a developer's localhost) needs a cookie the browser keeps over http.
 */
export async function setSessionCookie(token: string, expiresAt: Date): Promise<void> {
  const secure = new URL(appUrl()).protocol === 'https:';
  (await cookies()).set(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: expiresAt });
}

/** Ends the current session in the database and in the browser. */
export async function endSession(): Promise<void> {
  const jar = await cookies();
  const token = jar.get(SESSION_COOKIE)?.value;
  if (token) await deleteSession(token);
  jar.delete(SESSION_COOKIE);
}

/** For the sign-in form, which has no session yet: the Origin check alone. */
export async function assertSameOrigin(): Promise<void> {
  if (!isSameOriginRequest(await headers())) forbidden();
}

/**
 * Same Origin, then a live session and the session's CSRF token in the form; null when the session
 * has ended (its form was on a page opened while it was live), for an action that keeps the form's
 * input and says so rather than leaving the page.
 */
export async function actionSession(formData: FormData): Promise<CurrentSession | null> {
  await assertSameOrigin();
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const session = token ? await findSession(token) : null;
  if (!token || !session) return null;
  if (!isValidCsrfToken(token, formData.get(CSRF_FIELD))) forbidden();
  return { ...session, csrfToken: csrfTokenFor(token) };
}

/** actionSession, then the admin role: the server refuses members whatever the page showed them. */
export async function adminActionSession(formData: FormData): Promise<(CurrentSession & { membership: SessionMembership }) | null> {
  const session = await actionSession(formData);
  if (session && !isAdmin(session)) forbidden();
  return session;
}

/**
 * The sign-in page for a form posted after its session ended: it says the session expired, and comes
 * back to the page the form was on. That page is read from the Referer (sent to the same origin,
 * whose Origin the action has checked) and kept only if it is a page a sign-in may return to.
 */
export async function signInAgainPath(): Promise<string> {
  const referer = URL.parse((await headers()).get('referer') ?? '');
  return signInPathReturningTo(safeReturnTo(referer?.pathname), 'expired');
}

/** The cookie's session token, for the one change that needs it (confirming the password of this very session). */
export async function currentSessionToken(): Promise<string | null> {
  return (await cookies()).get(SESSION_COOKIE)?.value ?? null;
}

/**
 * Sudo mode for a sensitive server action (create, rotate or revoke a key, revoke connected apps),
 * run after its session checks: when the session's password was proved longer ago than
 * SUDO_MAX_AGE_MINUTES, nothing is done and the browser goes to the password page, which returns to
 * the page the form was on. The pages ask for the password before posting (SudoProvider); this is the
 * server's own check, whatever a page did.
 */
export async function requireRecentSignIn(session: Session): Promise<void> {
  if (isRecentSignIn(session)) return;
  const back = safeReturnTo(URL.parse((await headers()).get('referer') ?? '')?.pathname);
  redirect(back ? `${CONFIRM_ACCESS_PATH}?${new URLSearchParams({ [RETURN_TO_FIELD]: back })}` : CONFIRM_ACCESS_PATH);
}

/** What every state-changing server action runs first: actionSession, and the sign-in page when the session has ended. */
export async function authorizeAction(formData: FormData): Promise<CurrentSession> {
  return (await actionSession(formData)) ?? redirect(await signInAgainPath());
}

export function isAdmin(session: Session): session is Session & { membership: SessionMembership & { role: 'admin' } } {
  return session.membership?.role === 'admin';
}

/** authorizeAction, then the admin role. */
export async function authorizeAdminAction(formData: FormData): Promise<CurrentSession & { membership: SessionMembership }> {
  return (await adminActionSession(formData)) ?? redirect(await signInAgainPath());
}
