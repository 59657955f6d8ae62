'use server';
// Sign-in and sign-out. Both are state-changing and so pass the Origin check; sign-out also needs the
// session's CSRF token (sign-in has no session yet: a forged sign-in fails the Origin check).
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { assertSameOrigin, authorizeAction, endSession, LOGIN_PATH, setSessionCookie, SETTINGS_HOME } from '@/lib/session/current';
import { trustedClientAddress } from '@/lib/http/client-address';
import { RETURN_TO_FIELD, safeReturnTo } from '@/lib/session/return-to';
import { EMAIL_MAX_LENGTH } from '@/lib/session/credential-caps';
import { signIn, type SignInFieldErrors } from '@/lib/session/sign-in';
import { formArgument, statefulFormArguments } from '@/lib/session/action-arguments';

export interface SignInState {
  email: string;
  error?: string;
  fieldErrors?: SignInFieldErrors;
  /** Throttled: the seconds until a sign-in is let through again, for the page's countdown. */
  retryAfter?: number;
}

export async function signInAction(previous: unknown, submitted: unknown): Promise<SignInState> {
  const formData = statefulFormArguments('signInAction', previous, submitted);
  await assertSameOrigin();
  const typed = String(formData.get('email') ?? '').trim();
  const password = String(formData.get('password') ?? '');
  // Shown again in the form, unless it is too long to be anyone's address.
  const email = typed.length <= EMAIL_MAX_LENGTH ? typed : '';

  const result = await signIn({ email: typed, password, address: trustedClientAddress(await headers()) });
  if (result.kind === 'malformed') return { email, fieldErrors: result.fieldErrors };
  if (result.kind === 'throttled') {
    const minutes = Math.ceil(result.retryAfterSeconds / 60);
    return {
      email,
      error: `Too many failed sign-in attempts from your network. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
      retryAfter: result.retryAfterSeconds,
    };
  }
  if (result.kind === 'invalid') return { email, error: 'That email and password do not match an account.' };
  // Signing in as someone else ends the session this browser had: one person per browser at a time.
  await endSession();
  await setSessionCookie(result.token, result.expiresAt);
  redirect(safeReturnTo(formData.get(RETURN_TO_FIELD)) ?? SETTINGS_HOME);
}

export async function signOutAction(submitted: unknown): Promise<void> {
  await authorizeAction(formArgument('signOutAction', submitted));
  await endSession();
  redirect(LOGIN_PATH);
}
