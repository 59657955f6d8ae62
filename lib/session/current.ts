// The signed-in session of the current request, and the checks every server action runs first.
// Only server components and server actions import this (it reads next/headers).
//
// A refused action (another origin, no Origin, a missing or wrong CSRF token, a member calling an
// admin action) is answered with forbidden(): 403 and the page of app/forbidden.tsx, nothing changed.
// Next.js treats it as an expected outcome, like redirect(): not an error, so no 500 and nothing logged.
// An expired session is sent to the sign-in page instead.
import { cookies, headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
import { appUrl } from '../app-url';
import { isSameOriginRequest } from './origin';
import { deleteSession, findSession, type Session, type SessionMembership } from './sessions';
import { csrfTokenFor, isValidCsrfToken } from './tokens';

export const SESSION_COOKIE = 'metrics_session';
/** The hidden form field that carries the CSRF token. */
export const CSRF_FIELD = 'csrf_token';
export const LOGIN_PATH = '/login';
/** Where a signed-in user lands. */
export const SETTINGS_HOME = '/settings/api-keys';

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

/** For pages: the session, or a redirect to the sign-in page. */
export async function requireSession(): Promise<CurrentSession> {
  const session = await currentSession();
  if (!session) redirect(LOGIN_PATH);
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
 * What every state-changing server action runs first: same Origin, a live session (else to the
 * sign-in page) and the session's CSRF token in the form.
 */
export async function authorizeAction(formData: FormData): Promise<CurrentSession> {
  await assertSameOrigin();
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const session = token ? await findSession(token) : null;
  if (!token || !session) redirect(LOGIN_PATH);
  if (!isValidCsrfToken(token, formData.get(CSRF_FIELD))) forbidden();
  return { ...session, csrfToken: csrfTokenFor(token) };
}

export function isAdmin(session: Session): session is Session & { membership: SessionMembership & { role: 'admin' } } {
  return session.membership?.role === 'admin';
}

/** authorizeAction, then the admin role: the server refuses members whatever the page showed them. */
export async function authorizeAdminAction(formData: FormData): Promise<CurrentSession & { membership: SessionMembership }> {
  const session = await authorizeAction(formData);
  if (!isAdmin(session)) forbidden();
  return session;
}
