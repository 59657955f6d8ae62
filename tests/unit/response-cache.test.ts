// The response cache's store and key: the byte cap holds with least-recently-used eviction, and the key
// separates everything an answer depends on while ignoring what it does not (key order, list order).
import { describe, expect, it } from 'vitest';
import { answerKey, DEFAULT_MAX_BYTES, maxBytesFromEnv, memoryResponseCache, type CachedAnswer } from '@/lib/cache/response-cache';

const answerOf = (bytes: number, fill = 'x'): CachedAnswer => ({ body: Buffer.from(fill.repeat(bytes)), etag: '"tag"' });
/** What one entry of `bytes` body bytes under a two-character key costs (body, key and tag as UTF-16, bookkeeping). */
const cost = (bytes: number) => bytes + 2 * (2 + 5) + 64;

describe('memoryResponseCache', () => {
  it('evicts least recently used entries past the byte cap and never holds more than the cap', async () => {
    const cap = 3 * cost(1000);
    const cache = memoryResponseCache(cap);
    await cache.set('k1', answerOf(1000, 'a'));
    await cache.set('k2', answerOf(1000, 'b'));
    await cache.set('k3', answerOf(1000, 'c'));
    expect(cache.bytes).toBe(cap);
    // k1 is read, so k2 is now the least recently used.
    expect((await cache.get('k1'))?.body.toString()).toBe('a'.repeat(1000));
    await cache.set('k4', answerOf(1000, 'd'));
    expect(await cache.get('k2')).toBeUndefined();
    expect((await cache.get('k1'))?.body.toString()).toBe('a'.repeat(1000));
    expect((await cache.get('k3'))?.body.toString()).toBe('c'.repeat(1000));
    expect((await cache.get('k4'))?.body.toString()).toBe('d'.repeat(1000));
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBe(cap);

    // One entry of two slots' size evicts the two least recently used (k1 then k3 after the reads above: k1, k3, k4).
    await cache.set('k5', answerOf(cost(1000) * 2 - cost(0)));
    expect(cache.bytes).toBeLessThanOrEqual(cap);
    expect([await cache.get('k1'), await cache.get('k3')]).toEqual([undefined, undefined]);
    expect((await cache.get('k4'))?.body.toString()).toBe('d'.repeat(1000));
    expect(cache.size).toBe(2);
  });

  it('does not keep an entry larger than the whole cap, nor evict others for it', async () => {
    const cache = memoryResponseCache(cost(100));
    await cache.set('k1', answerOf(100));
    await cache.set('k2', answerOf(101));
    expect(await cache.get('k2')).toBeUndefined();
    expect((await cache.get('k1'))?.body.length).toBe(100);
    expect(cache.bytes).toBe(cost(100));
  });
});

describe('maxBytesFromEnv', () => {
  it('defaults to 32 MiB, takes whole numbers of bytes, 0 included, and refuses anything else', () => {
    expect(DEFAULT_MAX_BYTES).toBe(33_554_432);
    expect(maxBytesFromEnv(undefined)).toBe(DEFAULT_MAX_BYTES);
    expect(maxBytesFromEnv(' ')).toBe(DEFAULT_MAX_BYTES);
    expect(maxBytesFromEnv('0')).toBe(0);
    expect(maxBytesFromEnv('1048576')).toBe(1_048_576);
    for (const bad of ['-1', '1.5', '64MB', 'off']) expect(() => maxBytesFromEnv(bad)).toThrow(/RESPONSE_CACHE_MAX_BYTES/);
  });
});

describe('answerKey', () => {
  const base = {
    orgId: '00000000-0000-4000-8000-000000000001',
    clientIds: null,
    operationId: 'getAdsOverview',
    query: { from: '2026-06-01', to: '2026-06-30', compare: 'previous' },
    dataVersion: '42',
  };

  it('differs whenever the organisation, the reach, the operation, the query or the data version differs', () => {
    const variants = [
      base,
      { ...base, orgId: '00000000-0000-4000-8000-000000000002' },
      { ...base, clientIds: [] },
      { ...base, clientIds: ['00000000-0000-4000-8000-00000000000a'] },
      { ...base, clientIds: ['00000000-0000-4000-8000-00000000000b'] },
      { ...base, operationId: 'getSocialOverview' },
      { ...base, query: { ...base.query, client: '00000000-0000-4000-8000-00000000000a' } },
      { ...base, query: { ...base.query, to: '2026-06-29' } },
      { ...base, dataVersion: '43' },
    ];
    expect(new Set(variants.map(answerKey)).size).toBe(variants.length);
  });

  it('is the same for the same query with its keys in another order, and for the same client list in another order', () => {
    const clients = ['00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000a'];
    expect(answerKey({ ...base, clientIds: clients, query: { compare: 'previous', to: '2026-06-30', from: '2026-06-01' } })).toBe(
      answerKey({ ...base, clientIds: [...clients].reverse() }),
    );
  });
});
