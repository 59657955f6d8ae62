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

  it('sign-in counts only the email when no address can be trusted, so nobody can lock out everyone', () => {
    const throttle = new SignInThrottle(() => 0);
    for (let i = 0; i < 30; i++) throttle.recordFailure(`user${i}@example.com`, null);
    expect(throttle.retryAfterMs('someone.else@example.com', null)).toBe(0);
    for (let i = 0; i < 5; i++) throttle.recordFailure('target@example.com', null);
    expect(throttle.retryAfterMs('target@example.com', null)).toBeGreaterThan(0);
  });
});
