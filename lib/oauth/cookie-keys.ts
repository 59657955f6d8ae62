// The key that signs the OAuth server's interaction cookies (a sign-in and consent under way). They
// must verify on whichever instance the next step of the interaction lands, so with several instances
// the key is shared (OAUTH_COOKIE_SECRET); a random key per process is enough for one server, which
// only loses the interactions under way when it restarts.
import { randomBytes } from 'node:crypto';

export function cookieKeys(): string[] {
  return [process.env.OAUTH_COOKIE_SECRET || randomBytes(32).toString('base64url')];
}

/**
 * Refuses to start an instance of several (INSTANCE_ID set) without OAUTH_COOKIE_SECRET: behind a
 * balancer, about every other sign-in would fail on its way back from the consent screen.
 */
export function checkCookieSecret(): void {
  if (process.env.INSTANCE_ID && !process.env.OAUTH_COOKIE_SECRET) {
    throw new Error(
      'OAUTH_COOKIE_SECRET is not set, but INSTANCE_ID says several instances serve the app: each would sign OAuth sign-ins with a key of its own. Set OAUTH_COOKIE_SECRET to the same secret on every instance.',
    );
  }
}
