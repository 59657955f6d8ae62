// The credential a request presents in its Authorization header, read in this one place for both doors
// and for the request log's record of a refusal.

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
