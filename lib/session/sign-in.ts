// Email + password sign-in. Every failure gets the same answer whether or not the email exists, and
// an unknown email still costs one password verification (against a decoy hash), so timing agrees too.
// The email is looked up by a plain `=` on the stored, normalised address: nothing typed is a pattern.
import { setTimeout as sleep } from 'node:timers/promises';
import { prisma } from '../db';
import { isPlainText, PLAIN_TEXT_MESSAGE } from '../text/plain-text';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from './credential-caps';
import { checkPassword } from './passwords';
import { createSession, markSessionAuthenticated, type SessionUser } from './sessions';
import { signInThrottle, type SignInThrottle } from './throttle';

export type SignInFieldErrors = { email?: string; password?: string };

export type SignInResult =
  | { kind: 'signed_in'; token: string; expiresAt: Date }
  | { kind: 'malformed'; fieldErrors: SignInFieldErrors }
  | { kind: 'invalid' }
  /** Too many failures from this client address (see SIGN_IN_RULES). */
  | { kind: 'throttled'; retryAfterSeconds: number };

/** How emails are stored and compared: no surrounding spaces, lower case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * What is wrong with the form as typed, before anything is looked up, counted or hashed: missing,
 * too long, or holding control characters. Says nothing about any account.
 */
export function signInFieldErrors(email: string, password: string): SignInFieldErrors | null {
  const errors: SignInFieldErrors = {};
  const trimmed = email.trim();
  if (!trimmed) errors.email = 'Enter your email address.';
  else if (trimmed.length > EMAIL_MAX_LENGTH) errors.email = `An email address has at most ${EMAIL_MAX_LENGTH} characters.`;
  else if (!isPlainText(trimmed)) errors.email = `The email address ${PLAIN_TEXT_MESSAGE}.`;
  if (!password) errors.password = 'Enter your password.';
  else if (password.length > PASSWORD_MAX_LENGTH) errors.password = `A password has at most ${PASSWORD_MAX_LENGTH.toLocaleString('en')} characters.`;
  else if (!isPlainText(password)) errors.password = `The password ${PLAIN_TEXT_MESSAGE}.`;
  return errors.email || errors.password ? errors : null;
}

export async function signIn(
  input: { email: string; password: string; address: string | null },
  throttle: SignInThrottle = signInThrottle(),
): Promise<SignInResult> {
  const fieldErrors = signInFieldErrors(input.email, input.password);
  if (fieldErrors) return { kind: 'malformed', fieldErrors };

  const email = normaliseEmail(input.email);
  const user = await prisma().user.findUnique({ where: { email }, select: { id: true, passwordHash: true } });
  // An existing account is throttled by its id; an unknown email by itself, under exactly the same
  // rule, so the throttle's answer cannot tell the two apart either.
  const admission = await throttle.begin(user ? `user:${user.id}` : `email:${email}`, input.address);
  // A throttled attempt is refused before the password is checked: a right guess must not be confirmed.
  if (admission.kind === 'refused') return { kind: 'throttled', retryAfterSeconds: Math.ceil(admission.retryAfterMs / 1000) };
  // An account guessed at from many addresses: every attempt on it waits, the owner's too (never refused).
  if (admission.slowDownMs > 0) await sleep(admission.slowDownMs);

  const passwordOk = await checkPassword(user?.passwordHash ?? null, input.password);
  // A failure stays counted (begin counted it).
  if (!user || !passwordOk) return { kind: 'invalid' };
  await throttle.succeeded(admission);
  return { kind: 'signed_in', ...(await createSession(user)) };
}

export type ConfirmResult =
  | { kind: 'confirmed' }
  | { kind: 'malformed'; error: string }
  | { kind: 'invalid' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * Sudo mode's password check for a signed-in session: the sign-in's rules (the same throttle windows,
 * counted as attempts on the account, and refused before the password is checked), and on success the
 * session's `authenticated_at` is now.
 */
export async function confirmPassword(
  input: { token: string; user: Pick<SessionUser, 'id'>; password: string; address: string | null },
  throttle: SignInThrottle = signInThrottle(),
): Promise<ConfirmResult> {
  if (!input.password) return { kind: 'malformed', error: 'Enter your password.' };
  if (input.password.length > PASSWORD_MAX_LENGTH) return { kind: 'malformed', error: `A password has at most ${PASSWORD_MAX_LENGTH.toLocaleString('en')} characters.` };
  if (!isPlainText(input.password)) return { kind: 'malformed', error: `The password ${PLAIN_TEXT_MESSAGE}.` };
  const user = await prisma().user.findUnique({ where: { id: input.user.id }, select: { id: true, passwordHash: true } });
  const admission = await throttle.begin(`user:${input.user.id}`, input.address);
  if (admission.kind === 'refused') return { kind: 'throttled', retryAfterSeconds: Math.ceil(admission.retryAfterMs / 1000) };
  if (admission.slowDownMs > 0) await sleep(admission.slowDownMs);
  const passwordOk = await checkPassword(user?.passwordHash ?? null, input.password);
  if (!user || !passwordOk) return { kind: 'invalid' };
  await throttle.succeeded(admission);
  await markSessionAuthenticated(input.token);
  return { kind: 'confirmed' };
}
