// Whose window a request counts in: the key's, or without a valid key, the client address's.
import { credentialId, type AuthContext } from '../contract/credential';
import { trustedClientAddress } from '../http/client-address';

/** All requests without a valid key whose address is unknown share this one window. */
export const SHARED_ANONYMOUS_BUCKET = 'anonymous';

/**
 * A verified credential counts in its own window (by key or grant id: never the secret itself). Anything else counts
 * per client address so that key guessing is throttled; where no address can be trusted (see
 * trustedClientAddress), all such requests share one window. That cannot hurt valid keys, which
 * never count there.
 */
export function rateLimitIdentity(auth: AuthContext | null, headers: Headers, trustProxy = process.env.TRUST_PROXY === '1'): string {
  if (auth) return credentialId(auth);
  return `addr:${trustedClientAddress(headers, trustProxy) ?? SHARED_ANONYMOUS_BUCKET}`;
}
