// Whose window a request counts in: the key's, or without a valid key, the client address's.
import type { AuthContext } from '../auth/context';

/** All requests without a valid key whose address is unknown share this one window. */
export const SHARED_ANONYMOUS_BUCKET = 'anonymous';

/**
 * A verified key counts in its own window (by key id: never the secret itself). Anything else counts
 * per client address so that key guessing is throttled. The address is the first `X-Forwarded-For`
 * entry only when TRUST_PROXY=1 says a proxy in front sets that header; otherwise any caller could
 * choose it (Next.js keeps a caller's header and only fills it in when absent), so all such requests
 * share one window. That cannot hurt valid keys, which never count there.
 */
export function rateLimitIdentity(auth: AuthContext | null, headers: Headers, trustProxy = process.env.TRUST_PROXY === '1'): string {
  if (auth) return `key:${auth.keyId}`;
  if (trustProxy) {
    const address = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (address) return `addr:${address}`;
  }
  return `addr:${SHARED_ANONYMOUS_BUCKET}`;
}
