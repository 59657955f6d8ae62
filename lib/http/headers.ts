// Headers of every API answer, whichever door sends it, and the conditional-request check.

/**
 * API responses carry data for one organisation: never kept by shared caches, nor written to a
 * browser's disk. A client that keeps an answer itself can still revalidate it: successes carry a
 * strong ETag and `If-None-Match` is answered 304 when the body would be identical.
 */
export const API_HEADERS = { 'Cache-Control': 'private, no-store' } as const;

/**
 * Answers below this size are sent uncompressed. The server (scripts/server.mjs) compresses every
 * response it may, whatever its size (a route's body is a stream, so the middleware's own 1 KiB
 * threshold never applies, and a route may not set its own Content-Encoding), but it leaves alone a
 * response marked `no-transform`. Under 1 KiB compression saves at most a few hundred bytes, less than
 * a packet, for the fixed cost of a compression stream.
 */
export const COMPRESSED_FROM_BYTES = 1024;

/** The API's headers for a body of `bytes`: `no-transform` keeps a small one from being compressed. */
export function apiHeaders(bytes: number): Record<string, string> {
  return bytes < COMPRESSED_FROM_BYTES ? { 'Cache-Control': `${API_HEADERS['Cache-Control']}, no-transform` } : API_HEADERS;
}

/**
 * RFC 9110 §13.1.2: If-None-Match matches when it is `*` (a representation exists) or when one of its
 * entity tags equals ours by weak comparison (the opaque tags are equal, `W/` prefixes ignored).
 */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const match of header.matchAll(/(?:W\/)?("[^"]*")/g)) {
    if (match[1] === opaque) return true;
  }
  return false;
}
