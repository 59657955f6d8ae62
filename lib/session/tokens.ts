// Secrets carried by the browser: the session token (only its SHA-256 is stored) and the CSRF token
// derived from it. Both are compared in constant time.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The CSRF token of a session: an HMAC of a fixed label keyed by the session token. Only a holder of
 * the (HttpOnly) session cookie can compute it, it needs no storage, and it dies with the session.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('metrics-dashboard-csrf-v1').digest('base64url');
}

export function isValidCsrfToken(sessionToken: string, submitted: unknown): boolean {
  if (typeof submitted !== 'string' || submitted.length === 0) return false;
  const expected = Buffer.from(csrfTokenFor(sessionToken));
  const given = Buffer.from(submitted);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
