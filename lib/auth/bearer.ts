// The credential a request presents in its Authorization header, read in this one place for both doors
// and for the request log's record of a refusal.
import { KEY_PATTERN } from '../key-format';
import { hashKey } from '../keys/issuing';

/** What a request's Authorization header presents: nothing, something that is not `Bearer <token>`, or a token. */
export type Bearer = { kind: 'none' } | { kind: 'malformed' } | { kind: 'bearer'; token: string };

const NONE: Bearer = { kind: 'none' };
const MALFORMED: Bearer = { kind: 'malformed' };

/** Reads `Bearer <token>` (the scheme in any case, surrounding spaces ignored); an absent or empty header presents nothing. */
export function bearerOf(authorization: string | null): Bearer {
  if (!authorization) return NONE;
  const token = /^Bearer (\S+)$/i.exec(authorization.trim())?.[1];
  return token ? { kind: 'bearer', token } : MALFORMED;
}

/** The hash of each presented API key, made once per request: the key's lookup and the record of its refusal both need it. */
const keyHashes = new WeakMap<Bearer, string | null>();

/** The hash of the API key a bearer token is (as stored: hashKey), or null when the token is not shaped as a key. */
export function presentedKeyHash(bearer: Bearer): string | null {
  let hash = keyHashes.get(bearer);
  if (hash === undefined) {
    hash = bearer.kind === 'bearer' && KEY_PATTERN.test(bearer.token) ? hashKey(bearer.token) : null;
    keyHashes.set(bearer, hash);
  }
  return hash;
}
