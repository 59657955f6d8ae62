import { describe, expect, it } from 'vitest';
import { FailureLog, SIGN_IN_RULES, SignInThrottle } from '@/lib/session/throttle';

const MINUTE = 60_000;

function clock(start = Date.UTC(2026, 10, 22, 9)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('FailureLog (sliding window)', () => {
  const rule = { maxFailures: 3, windowMs: 10 * MINUTE };

  it('lets a key try until it has maxFailures failures inside the window', () => {
    const time = clock();
    const log = new FailureLog(rule, time.now);
    for (let i = 0; i < 3; i += 1) {
      expect(log.retryAfterMs('a')).toBe(0);
      log.recordFailure('a');
      time.advance(MINUTE);
    }
    // Failures at t=0, 1, 2 min; now t=3 min: the oldest ages out at t=10 min.
    expect(log.retryAfterMs('a')).toBe(7 * MINUTE);
    expect(log.retryAfterMs('b')).toBe(0);
  });

  it('opens again as soon as the oldest failure leaves the window', () => {
    const time = clock();
    const log = new FailureLog(rule, time.now);
    for (let i = 0; i < 3; i += 1) log.recordFailure('a');
    time.advance(10 * MINUTE - 1);
    expect(log.retryAfterMs('a')).toBe(1);
    time.advance(1);
    expect(log.retryAfterMs('a')).toBe(0);
  });

  it('counts only failures inside the window', () => {
    const time = clock();
    const log = new FailureLog(rule, time.now);
    log.recordFailure('a');
    log.recordFailure('a');
    time.advance(11 * MINUTE);
    log.recordFailure('a');
    log.recordFailure('a');
    expect(log.retryAfterMs('a')).toBe(0);
    log.recordFailure('a');
    expect(log.retryAfterMs('a')).toBe(10 * MINUTE);
  });

  it('forgets a key on clear', () => {
    const log = new FailureLog(rule, clock().now);
    for (let i = 0; i < 3; i += 1) log.recordFailure('a');
    log.clear('a');
    expect(log.retryAfterMs('a')).toBe(0);
  });
});

describe('SignInThrottle', () => {
  it('blocks an email after 5 failures in 15 minutes, from any address', () => {
    expect(SIGN_IN_RULES.email).toEqual({ maxFailures: 5, windowMs: 15 * MINUTE });
    const time = clock();
    const throttle = new SignInThrottle(time.now);
    for (let i = 0; i < 5; i += 1) throttle.recordFailure('ann@example.com', `10.0.0.${i}`);
    expect(throttle.retryAfterMs('ann@example.com', '10.0.0.99')).toBe(15 * MINUTE);
    expect(throttle.retryAfterMs('bob@example.com', '10.0.0.99')).toBe(0);
  });

  it('blocks an address after 20 failures in 15 minutes, whatever the email', () => {
    expect(SIGN_IN_RULES.address).toEqual({ maxFailures: 20, windowMs: 15 * MINUTE });
    const throttle = new SignInThrottle(clock().now);
    for (let i = 0; i < 20; i += 1) throttle.recordFailure(`user${i}@example.com`, '203.0.113.7');
    expect(throttle.retryAfterMs('new@example.com', '203.0.113.7')).toBe(15 * MINUTE);
    expect(throttle.retryAfterMs('new@example.com', '203.0.113.8')).toBe(0);
  });

  it('a success clears the email but not the address', () => {
    const throttle = new SignInThrottle(clock().now);
    for (let i = 0; i < 4; i += 1) throttle.recordFailure('ann@example.com', '203.0.113.7');
    throttle.recordSuccess('ann@example.com');
    expect(throttle.byEmail.retryAfterMs('ann@example.com')).toBe(0);
    for (let i = 0; i < 4; i += 1) throttle.recordFailure('ann@example.com', '203.0.113.7');
    expect(throttle.retryAfterMs('ann@example.com', '203.0.113.7')).toBe(0);
    throttle.recordFailure('ann@example.com', '203.0.113.7');
    expect(throttle.retryAfterMs('ann@example.com', '203.0.113.7')).toBe(15 * MINUTE);
  });
});
