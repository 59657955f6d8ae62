// The sign-in throttle counted in Redis: the real @upstash/redis client against the Upstash stand-in
// in front of the machine's real Redis (scripts/cluster/upstash-rest.ts), as the rate limiter's tests do.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryFailureLog, upstashFailureLog, withFallback } from '@/lib/session/failure-log';
import { SIGN_IN_RULES, SignInThrottle, type FailureLogs } from '@/lib/session/throttle';
import { startUpstashRest, type UpstashRest } from '../../scripts/cluster/upstash-rest';

const MINUTE = 60_000;
let standIn: UpstashRest;
const prefix = `test-sign-in-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  standIn = await startUpstashRest();
});

afterAll(async () => {
  const keys = await standIn.redis.keys(`${prefix}:*`);
  if (keys.length > 0) await standIn.redis.del(keys);
  await standIn.close();
});

function redisThrottle(name: string, now: () => number): SignInThrottle {
  const log = (rule: (typeof SIGN_IN_RULES)[keyof typeof SIGN_IN_RULES], part: string) =>
    upstashFailureLog({ url: standIn.url, token: standIn.token, prefix: `${prefix}:${name}:${part}`, rule });
  const logs: FailureLogs = {
    account: log(SIGN_IN_RULES.account, 'account'),
    address: log(SIGN_IN_RULES.address, 'address'),
    sharedAddress: log(SIGN_IN_RULES.sharedAddress, 'sharedAddress'),
  };
  return new SignInThrottle(logs, now);
}

describe('the throttle in Redis', () => {
  it('refuses an account after 5 failures with the time until the oldest ages out, and a success clears it', async () => {
    let now = Date.now();
    const throttle = redisThrottle('rules', () => now);
    for (let i = 0; i < 5; i += 1) {
      expect((await throttle.begin('user:ann', `10.0.0.${i}`)).kind).toBe('counted');
      now += MINUTE;
    }
    expect(await throttle.begin('user:ann', '10.0.0.99')).toEqual({ kind: 'refused', retryAfterMs: 10 * MINUTE });
    now += 10 * MINUTE;
    const success = await throttle.begin('user:ann', '10.0.0.99');
    if (success.kind !== 'counted') throw new Error('expected the attempt to be counted');
    await throttle.succeeded(success);
    for (let i = 0; i < 5; i += 1) expect((await throttle.begin('user:ann', '10.0.0.100')).kind).toBe('counted');
    expect((await throttle.begin('user:ann', '10.0.0.100')).kind).toBe('refused');
  });

  it('lets exactly 5 of 50 concurrent guesses on one account through', async () => {
    const throttle = redisThrottle('concurrent', Date.now);
    const admissions = await Promise.all(Array.from({ length: 50 }, (_, i) => throttle.begin('user:bob', `10.0.1.${i}`)));
    expect(admissions.filter((a) => a.kind === 'counted')).toHaveLength(5);
  });

  it('keeps digests under its prefix, each expiring with its window, and the shared window for unknown addresses', async () => {
    const throttle = redisThrottle('keys', Date.now);
    await throttle.begin('email:carol@example.com', null);
    const keys = (await standIn.redis.keys(`${prefix}:keys:*`)).sort();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(new RegExp(`^${prefix}:keys:account:[A-Za-z0-9_-]{43}$`));
    expect(keys[1]).toBe(`${prefix}:keys:sharedAddress:all`);
    for (const key of keys) {
      const ttl = await standIn.redis.pTTL(key);
      expect(ttl).toBeGreaterThan(14 * MINUTE);
      expect(ttl).toBeLessThanOrEqual(15 * MINUTE);
    }
  });
});

describe('withFallback over an unreachable Redis', () => {
  it('counts in process and logs the switch once', async () => {
    const lines: string[] = [];
    // Nothing listens on port 9 of the loopback address: every command fails at once.
    const unreachable = upstashFailureLog({ url: 'http://127.0.0.1:9', token: 'x', prefix, rule: SIGN_IN_RULES.account });
    const log = withFallback('account', unreachable, new MemoryFailureLog(SIGN_IN_RULES.account, 10), (line) => lines.push(line));
    const at = Date.now();
    for (let i = 0; i < 5; i += 1) expect(await log.admit('k', { at, id: String(i) })).toBe(0);
    expect(await log.admit('k', { at, id: '5' })).toBe(15 * MINUTE);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[sign-in throttle\] account: upstash unreachable \(.+\); counting failures in-process until it answers again\.$/);
    expect(log.name).toBe('in-process (upstash unreachable)');
  });
});
