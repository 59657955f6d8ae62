// The Authorization header as both doors and the request log read it (lib/auth/bearer.ts): the bearer
// token, and the hash of the API key it is, which the key's lookup and the record of its refusal share.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearerOf, presentedKeyHash } from '@/lib/auth/bearer';

const KEY = `mk_live_${'a'.repeat(43)}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('bearerOf', () => {
  it('reads `Bearer <token>`, the scheme in any case and surrounding spaces ignored', () => {
    expect(bearerOf(`Bearer ${KEY}`)).toEqual({ kind: 'bearer', token: KEY });
    expect(bearerOf(`  bearer ${KEY} `)).toEqual({ kind: 'bearer', token: KEY });
  });

  it('tells an absent header from one that is not a bearer token', () => {
    expect(bearerOf(null)).toEqual({ kind: 'none' });
    expect(bearerOf('')).toEqual({ kind: 'none' });
    expect(bearerOf(`Basic ${KEY}`)).toEqual({ kind: 'malformed' });
    expect(bearerOf('Bearer')).toEqual({ kind: 'malformed' });
    expect(bearerOf(`Bearer ${KEY} extra`)).toEqual({ kind: 'malformed' });
  });
});

describe('presentedKeyHash', () => {
  it("is the SHA-256 of a token shaped as a key, the same for each reading of one request's header", () => {
    const bearer = bearerOf(`Bearer ${KEY}`);
    expect(presentedKeyHash(bearer)).toBe(sha256(KEY));
    expect(presentedKeyHash(bearer)).toBe(sha256(KEY));
  });

  it('is null for anything that is not a key', () => {
    expect(presentedKeyHash(bearerOf(null))).toBeNull();
    expect(presentedKeyHash(bearerOf('Basic abc'))).toBeNull();
    expect(presentedKeyHash(bearerOf('Bearer eyJhbGciOiJIUzI1NiJ9.e30.x'))).toBeNull();
    expect(presentedKeyHash(bearerOf(`Bearer ${KEY}b`))).toBeNull();
  });
});
