'use server';
// Sign-in and sign-out. Both are state-changing and so pass the Origin check; sign-out also needs the
// session's CSRF token (sign-in has no session yet: a forged sign-in fails the Origin check).
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { assertSameOrigin, authorizeAction, endSession, LOGIN_PATH, setSessionCookie, SETTINGS_HOME } from '@/lib/session/current';
import { trustedClientAddress } from '@/lib/http/client-address';
import { signIn } from '@/lib/session/sign-in';

export interface SignInState {
  email: string;
  error?: string;
  fieldErrors?: { email?: string; password?: string };
}

export async function signInAction(_previous: SignInState, formData: FormData): Promise<SignInState> {
  await assertSameOrigin();
  const email = String(formData.get('email') ?? '').trim();
  const password = String(formData.get('password') ?? '');
  const fieldErrors: SignInState['fieldErrors'] = {};
  if (!email) fieldErrors.email = 'Enter your email address.';
  if (!password) fieldErrors.password = 'Enter your password.';
  if (fieldErrors.email || fieldErrors.password) return { email, fieldErrors };

  const result = await signIn({ email, password, address: trustedClientAddress(await headers()) });
  if (result.kind === 'throttled') {
    const minutes = Math.ceil(result.retryAfterSeconds / 60);
    return { email, error: `Too many failed sign-in attempts. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.` };
  }
  if (result.kind === 'invalid') return { email, error: 'That email and password do not match an account.' };
  await setSessionCookie(result.token, result.expiresAt);
  redirect(SETTINGS_HOME);
}

export async function signOutAction(formData: FormData): Promise<void> {
  await authorizeAction(formData);
  await endSession();
  redirect(LOGIN_PATH);
}
