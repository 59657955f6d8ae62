// The limiter's pieces without a server: fixed-window semantics of the in-process limiter, the
// fallback that logs once each way, the headers, and whose window a request counts in.
import { describe, expect, it, vi } from 'vitest';
import type { AuthContext } from '@/lib/contract/credential';
import { RATE_LIMIT_HEADER_NAMES, rateLimitHeaders, withFallback, type Limiter } from '@/lib/ratelimit';
import { rateLimitIdentity } from '@/lib/ratelimit/identity';
import { memoryLimiter } from '@/lib/ratelimit/memory';

describe('memoryLimiter', () => {
  it('allows `limit` requests per aligned window, then refuses until the window ends', async () => {
    let now = 120_000 + 59_000; // 1 s before the window [120 s, 180 s) ends
    const limiter = memoryLimiter(3, 60_000, () => now);
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.limit('k'));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, -1],
    ]);
    expect(new Set(decisions.map((d) => d.resetAt))).toEqual(new Set([180_000]));
    now = 180_000;
    expect(await limiter.limit('k')).toEqual({ allowed: true, limit: 3, remaining: 2, resetAt: 240_000 });
    expect((await limiter.limit('other')).remaining).toBe(2);
  });

  it('peeks at a window without counting in it', async () => {
    const limiter = memoryLimiter(2, 60_000, () => 1_000);
    expect(await limiter.peek('k')).toEqual({ allowed: true, limit: 2, remaining: 2, resetAt: 60_000 });
    await limiter.limit('k');
    await limiter.limit('k');
    expect(await limiter.peek('k')).toEqual({ allowed: false, limit: 2, remaining: 0, resetAt: 60_000 });
    expect((await limiter.limit('k')).remaining).toBe(-1);
  });

  it('is exact under concurrency', async () => {
    const limiter = memoryLimiter(60, 60_000, () => 1_000);
    const decisions = await Promise.all(Array.from({ length: 100 }, () => limiter.limit('k')));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
  });
});

describe('rateLimitHeaders', () => {
  it('gives unix seconds for the reset, never a negative remaining, and Retry-After only when refused', () => {
    expect(rateLimitHeaders({ allowed: true, limit: 60, remaining: 5, resetAt: 1_800_000_000_000 }, 'data', 1_800_000_000_000 - 41_200)).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '5',
      'X-RateLimit-Reset': '1800000000',
      'RateLimit-Policy': '"default";q=60;w=60',
      RateLimit: '"default";r=5;t=42',
    });
    expect(rateLimitHeaders({ allowed: false, limit: 60, remaining: -3, resetAt: 1_800_000_000_000 }, 'data', 1_800_000_000_000 - 12_300)).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1800000000',
      'RateLimit-Policy': '"default";q=60;w=60',
      RateLimit: '"default";r=0;t=13',
      'Retry-After': '13',
    });
    expect(rateLimitHeaders({ allowed: false, limit: 60, remaining: 0, resetAt: 1_000 }, 'data', 1_000)['Retry-After']).toBe('1');
    // The standard field's reset stays within the window: 0 when it has just ended, never negative.
    expect(rateLimitHeaders({ allowed: true, limit: 60, remaining: 0, resetAt: 1_000 }, 'data', 5_000).RateLimit).toBe('"default";r=0;t=0');
  });

  it('sets exactly the headers RATE_LIMIT_HEADER_NAMES lists (what CORS lets a browser read): a refusal all of them', () => {
    const refused = rateLimitHeaders({ allowed: false, limit: 60, remaining: 0, resetAt: 1_800_000_000_000 }, 'data', 1_800_000_000_000 - 5_000);
    expect(Object.keys(refused)).toEqual([...RATE_LIMIT_HEADER_NAMES]);
    const allowed = rateLimitHeaders({ allowed: true, limit: 60, remaining: 9, resetAt: 1_800_000_000_000 }, 'protocol', 1_800_000_000_000 - 5_000);
    expect(Object.keys(allowed)).toEqual(RATE_LIMIT_HEADER_NAMES.filter((name) => name !== 'Retry-After'));
  });

  it('names the MCP protocol window as a policy of its own', () => {
    const headers = rateLimitHeaders({ allowed: true, limit: 300, remaining: 299, resetAt: 1_800_000_000_000 }, 'protocol', 1_800_000_000_000 - 59_500);
    expect(headers['RateLimit-Policy']).toBe('"protocol";q=300;w=60');
    expect(headers.RateLimit).toBe('"protocol";r=299;t=60');
  });
});

describe('withFallback', () => {
  function flaky() {
    let down = false;
    const primary: Limiter = {
      name: 'upstash',
      limit: vi.fn(async () => {
        if (down) throw new Error('connect ECONNREFUSED');
        return { allowed: true, limit: 60, remaining: 10, resetAt: 60_000 };
      }),
      peek: async () => ({ allowed: true, limit: 60, remaining: 10, resetAt: 60_000 }),
      ping: async () => {},
    };
    return { primary, setDown: (value: boolean) => (down = value) };
  }

  it('answers from the fallback while the primary fails, logs once each way, and retries every 10 s', async () => {
    const { primary, setDown } = flaky();
    let now = 0;
    const log = vi.fn();
    const limiter = withFallback(primary, memoryLimiter(60, 60_000, () => now), log, () => now);
    expect((await limiter.limit('k')).remaining).toBe(10);
    setDown(true);
    for (let i = 0; i < 5; i++) expect((await limiter.limit('k')).remaining).toBe(59 - i);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toMatch(/upstash unreachable \(connect ECONNREFUSED\); counting limits in-process/);
    expect(limiter.name).toBe('in-process (upstash unreachable)');
    // Within 10 s of the failure the primary is not tried again.
    expect(primary.limit).toHaveBeenCalledTimes(2);
    setDown(false);
    now = 10_001;
    expect((await limiter.limit('k')).remaining).toBe(10);
    expect(log).toHaveBeenCalledTimes(2);
    expect(log.mock.calls[1]![0]).toMatch(/reachable again/);
    expect(limiter.name).toBe('upstash');
  });

  it('counts on the primary again as soon as it answers a ping (readiness), before the 10 s and without traffic', async () => {
    const { primary, setDown } = flaky();
    const log = vi.fn();
    const limiter = withFallback(primary, memoryLimiter(60, 60_000, () => 0), log, () => 0);
    setDown(true);
    expect((await limiter.limit('k')).remaining).toBe(59);
    expect(limiter.name).toBe('in-process (upstash unreachable)');
    setDown(false);
    await limiter.ping();
    expect(limiter.name).toBe('upstash');
    expect(log.mock.calls.map(([line]) => line)).toEqual([
      expect.stringMatching(/^\[ratelimit\] upstash unreachable/),
      '[ratelimit] upstash reachable again; limits are counted there again.',
    ]);
    expect((await limiter.limit('k')).remaining).toBe(10);
  });
});

describe('rateLimitIdentity', () => {
  const auth = { kind: 'api_key', keyId: 'k-1' } as AuthContext;
  const headers = new Headers({ 'x-forwarded-for': '203.0.113.9, 10.0.0.1' });

  it('counts a verified key by its id', () => {
    expect(rateLimitIdentity(auth, headers, true)).toBe('key:k-1');
  });

  it('counts other requests by the X-Forwarded-For entry the proxy appended only behind a trusted proxy (see client-address.test.ts)', () => {
    expect(rateLimitIdentity(null, headers, true)).toBe('addr:10.0.0.1');
    expect(rateLimitIdentity(null, headers, false)).toBe('addr:anonymous');
    expect(rateLimitIdentity(null, new Headers(), true)).toBe('addr:anonymous');
  });
});
