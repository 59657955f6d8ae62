'use server';
// Sudo mode's password confirmation, for the dialog that a sensitive form opens (SudoProvider) and for
// the page a server action sends the browser to when it finds the password too old.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { trustedClientAddress } from '@/lib/http/client-address';
import { authorizeAction, currentSessionToken } from '@/lib/session/current';
import { sudoMaxAgeMs } from '@/lib/session/recent-sign-in';
import { RETURN_TO_FIELD, safeReturnTo } from '@/lib/session/return-to';
import { confirmPassword } from '@/lib/session/sign-in';
import { statefulFormArguments } from '@/lib/session/action-arguments';

export interface ConfirmPasswordState {
  error?: string;
  /** Throttled: the seconds until an attempt is let through again. */
  retryAfter?: number;
  /** Set on each success: the seconds the confirmation lasts, for the page's own clock. */
  confirmed?: { secondsLeft: number; at: number };
}

export async function confirmPasswordAction(previous: unknown, submitted: unknown): Promise<ConfirmPasswordState> {
  const formData = statefulFormArguments('confirmPasswordAction', previous, submitted);
  const session = await authorizeAction(formData);
  const token = (await currentSessionToken())!;
  const result = await confirmPassword({
    token,
    user: session.user,
    password: String(formData.get('password') ?? ''),
    address: trustedClientAddress(await headers()),
  });
  if (result.kind === 'malformed') return { error: result.error };
  if (result.kind === 'invalid') return { error: 'That password is not right.' };
  if (result.kind === 'throttled') {
    const minutes = Math.ceil(result.retryAfterSeconds / 60);
    return { error: `Too many failed attempts. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`, retryAfter: result.retryAfterSeconds };
  }
  const back = safeReturnTo(formData.get(RETURN_TO_FIELD));
  if (back) redirect(back);
  return { confirmed: { secondsLeft: Math.floor(sudoMaxAgeMs() / 1000), at: Date.now() } };
}
