// Whose window a request counts in: the key's, or without a valid key, the client address's.
import { credentialId, type AuthContext } from '../contract/credential';
import { addressNetwork, trustedClientAddress } from '../http/client-address';

/** Requests without a valid key whose address is unknown (only where our server does not run them, see trustedClientAddress) share this window. */
export const SHARED_ANONYMOUS_BUCKET = 'anonymous';

/**
 * A verified credential counts in its own window (by key or grant id: never the secret itself). Anything else counts
 * per client address (an IPv6 client by its /64, see addressNetwork) so that key guessing is throttled
 * without one client's guessing limiting another. That cannot hurt valid keys, which never count there.
 */
export function rateLimitIdentity(auth: AuthContext | null, headers: Headers, trustProxy = process.env.TRUST_PROXY === '1'): string {
  if (auth) return credentialId(auth);
  const address = trustedClientAddress(headers, trustProxy);
  return `addr:${address === null ? SHARED_ANONYMOUS_BUCKET : addressNetwork(address)}`;
}
