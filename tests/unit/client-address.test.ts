import { describe, expect, it } from 'vitest';
import { trustedClientAddress } from '@/lib/http/client-address';
import { rateLimitIdentity } from '@/lib/ratelimit/identity';
import { SignInThrottle } from '@/lib/session/throttle';

const forwarded = new Headers({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7' });

describe('trustedClientAddress', () => {
  it('behind a trusted proxy is the first X-Forwarded-For entry', () => {
    expect(trustedClientAddress(forwarded, true)).toBe('198.51.100.1');
    expect(trustedClientAddress(new Headers(), true)).toBeNull();
  });

  it('without one is unknown, since a caller can write the header itself', () => {
    expect(trustedClientAddress(forwarded, false)).toBeNull();
  });
});

describe('the one address rule in both throttles', () => {
  it('unauthenticated API requests share one window when no address can be trusted', () => {
    expect(rateLimitIdentity(null, forwarded, false)).toBe('addr:anonymous');
    expect(rateLimitIdentity(null, forwarded, true)).toBe('addr:198.51.100.1');
  });

  it('sign-in failures from unknown addresses share one window too, so spraying stays bounded', async () => {
    const throttle = SignInThrottle.inProcess({ now: () => 0 });
    for (let i = 0; i < 100; i++) expect((await throttle.begin(`email:user${i}@example.com`, null)).kind).toBe('counted');
    expect(await throttle.begin('email:someone.else@example.com', null)).toEqual({ kind: 'refused', retryAfterMs: 15 * 60_000 });
    // A known address counts in its own window, untouched by the shared one.
    expect((await throttle.begin('email:someone.else@example.com', '198.51.100.1')).kind).toBe('counted');
  });
});
