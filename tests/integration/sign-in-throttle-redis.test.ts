// The sign-in throttle counted in Redis: the real @upstash/redis client against the Upstash stand-in
// in front of the machine's real Redis (scripts/cluster/upstash-rest.ts), as the rate limiter's tests do.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryFailureLog, upstashFailureLog, withFallback } from '@/lib/session/failure-log';
import { ACCOUNT_SLOWDOWN_MS, SIGN_IN_RULES, SignInThrottle, type FailureLogs } from '@/lib/session/throttle';
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
    accountAddress: log(SIGN_IN_RULES.accountAddress, 'accountAddress'),
    address: log(SIGN_IN_RULES.address, 'address'),
    account: log(SIGN_IN_RULES.account, 'account'),
  };
  return new SignInThrottle(logs, now);
}

describe('the throttle in Redis', () => {
  it('refuses an account from one address after 5 failures there with the time until the oldest ages out, and a success clears it', async () => {
    let now = Date.now();
    const throttle = redisThrottle('rules', () => now);
    for (let i = 0; i < 5; i += 1) {
      expect((await throttle.begin('user:ann', '10.0.0.1')).kind).toBe('counted');
      now += MINUTE;
    }
    expect(await throttle.begin('user:ann', '10.0.0.1')).toEqual({ kind: 'refused', retryAfterMs: 10 * MINUTE });
    expect(await throttle.begin('user:ann', '10.0.0.2')).toMatchObject({ kind: 'counted', slowDownMs: 0 });
    now += 10 * MINUTE;
    const success = await throttle.begin('user:ann', '10.0.0.1');
    if (success.kind !== 'counted') throw new Error('expected the attempt to be counted');
    await throttle.succeeded(success);
    for (let i = 0; i < 5; i += 1) expect((await throttle.begin('user:ann', '10.0.0.1')).kind).toBe('counted');
    expect((await throttle.begin('user:ann', '10.0.0.1')).kind).toBe('refused');
  });

  it('lets exactly 5 of 50 concurrent guesses on one account from one address through', async () => {
    const throttle = redisThrottle('concurrent', Date.now);
    const admissions = await Promise.all(Array.from({ length: 50 }, () => throttle.begin('user:bob', '10.0.1.1')));
    expect(admissions.filter((a) => a.kind === 'counted')).toHaveLength(5);
  });

  it('slows an account failing from many addresses after 10 failures, and refuses none of them', async () => {
    const throttle = redisThrottle('slow', Date.now);
    const admissions = await Promise.all(Array.from({ length: 30 }, (_, i) => throttle.begin('user:dan', `10.0.2.${i}`)));
    expect(admissions.map((a) => a.kind)).toEqual(Array<string>(30).fill('counted'));
    expect(admissions.filter((a) => a.kind === 'counted' && a.slowDownMs === ACCOUNT_SLOWDOWN_MS)).toHaveLength(20);
  });

  it('keeps digests under its prefix, each expiring with its window', async () => {
    const throttle = redisThrottle('keys', Date.now);
    await throttle.begin('email:carol@example.com', '10.0.3.1');
    const keys = (await standIn.redis.keys(`${prefix}:keys:*`)).sort();
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(new RegExp(`^${prefix}:keys:account:[A-Za-z0-9_-]{43}$`));
    expect(keys[1]).toMatch(new RegExp(`^${prefix}:keys:accountAddress:[A-Za-z0-9_-]{43}$`));
    expect(keys[2]).toMatch(new RegExp(`^${prefix}:keys:address:[A-Za-z0-9_-]{43}$`));
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
    const unreachable = upstashFailureLog({ url: 'http://127.0.0.1:9', token: 'x', prefix, rule: SIGN_IN_RULES.accountAddress });
    const log = withFallback('accountAddress', unreachable, new MemoryFailureLog(SIGN_IN_RULES.accountAddress, 10), (line) => lines.push(line));
    const at = Date.now();
    for (let i = 0; i < 5; i += 1) expect(await log.admit('k', { at, id: String(i) })).toBe(0);
    expect(await log.admit('k', { at, id: '5' })).toBe(15 * MINUTE);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[sign-in throttle\] accountAddress: upstash unreachable \(.+\); counting failures in-process until it answers again\.$/);
    expect(log.name).toBe('in-process (upstash unreachable)');
  });
});
