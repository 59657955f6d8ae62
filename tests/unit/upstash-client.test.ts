// One Upstash client per endpoint in a process: the rate limiter and the sign-in throttle's three logs
// all count through it (lib/ratelimit/upstash.ts upstashRedis).
import { describe, expect, it } from 'vitest';
import { upstashRedis } from '@/lib/ratelimit/upstash';

describe('upstashRedis', () => {
  it('gives every caller of one endpoint the same client, and another endpoint its own', () => {
    const one = upstashRedis({ url: 'https://one.example', token: 'a' });
    expect(upstashRedis({ url: 'https://one.example', token: 'a' })).toBe(one);
    expect(upstashRedis({ url: 'https://two.example', token: 'a' })).not.toBe(one);
    expect(upstashRedis({ url: 'https://one.example', token: 'b' })).not.toBe(one);
  });
});
