// Email + password sign-in. Every failure gets the same answer whether or not the email exists, and
// an unknown email still costs one password verification (against a decoy hash), so timing agrees too.
import { prisma } from '../db';
import { checkPassword } from './passwords';
import { createSession } from './sessions';
import { signInThrottle, type SignInThrottle } from './throttle';

export type SignInResult =
  | { kind: 'signed_in'; token: string; expiresAt: Date }
  | { kind: 'invalid' }
  | { kind: 'throttled'; retryAfterSeconds: number };

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function signIn(
  input: { email: string; password: string; address: string | null },
  throttle: SignInThrottle = signInThrottle(),
): Promise<SignInResult> {
  const email = normaliseEmail(input.email);
  // A throttled attempt is refused before the password is checked: a right guess must not be confirmed.
  const waitMs = throttle.retryAfterMs(email, input.address);
  if (waitMs > 0) return { kind: 'throttled', retryAfterSeconds: Math.ceil(waitMs / 1000) };

  const user = await prisma().user.findFirst({
    where: { email: { equals: email, mode: 'insensitive' } },
    select: { id: true, passwordHash: true },
  });
  const passwordOk = await checkPassword(user?.passwordHash ?? null, input.password);
  if (!user || !passwordOk) {
    throttle.recordFailure(email, input.address);
    return { kind: 'invalid' };
  }
  throttle.recordSuccess(email);
  return { kind: 'signed_in', ...(await createSession(user.id)) };
}
