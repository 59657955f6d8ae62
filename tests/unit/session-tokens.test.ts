import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { csrfTokenFor, hashSessionToken, isValidCsrfToken, newSessionToken } from '@/lib/session/tokens';

describe('session tokens', () => {
  it('are 32 random bytes in base64url, different every time', () => {
    const tokens = new Set(Array.from({ length: 50 }, newSessionToken));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('are stored as their SHA-256 in hex', () => {
    const token = newSessionToken();
    expect(hashSessionToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
  });
});

describe('CSRF tokens', () => {
  it('are an HMAC keyed by the session token', () => {
    const session = newSessionToken();
    const expected = createHmac('sha256', session).update('metrics-dashboard-csrf-v1').digest('base64url');
    expect(csrfTokenFor(session)).toBe(expected);
    expect(csrfTokenFor(session)).not.toBe(csrfTokenFor(newSessionToken()));
  });

  it("accept only the session's own token", () => {
    const session = newSessionToken();
    const other = newSessionToken();
    expect(isValidCsrfToken(session, csrfTokenFor(session))).toBe(true);
    expect(isValidCsrfToken(session, csrfTokenFor(other))).toBe(false);
    expect(isValidCsrfToken(session, csrfTokenFor(session).slice(1))).toBe(false);
    expect(isValidCsrfToken(session, '')).toBe(false);
    expect(isValidCsrfToken(session, null)).toBe(false);
    expect(isValidCsrfToken(session, new File(['x'], 'x'))).toBe(false);
  });
});
