// Sudo mode, as GitHub has it: creating, rotating and revoking keys and revoking connected apps need a
// password proved recently in the session (at sign-in, or confirmed again since), not only a session.
// A session left open on an unattended computer then cannot hand out or take away credentials.
import { positiveIntegerFromEnv } from '../env';
import type { Session } from './sessions';

/** How long a proved password lets sensitive actions through: SUDO_MAX_AGE_MINUTES, 15 by default. */
export function sudoMaxAgeMs(): number {
  return positiveIntegerFromEnv('SUDO_MAX_AGE_MINUTES', 15) * 60_000;
}

/** Whole seconds until the session must prove the password again; 0 when it must now. */
export function recentSignInSecondsLeft(session: Pick<Session, 'authenticatedAt'>, now = Date.now()): number {
  return Math.max(0, Math.floor((session.authenticatedAt.getTime() + sudoMaxAgeMs() - now) / 1000));
}

export function isRecentSignIn(session: Pick<Session, 'authenticatedAt'>, now = Date.now()): boolean {
  return recentSignInSecondsLeft(session, now) > 0;
}
