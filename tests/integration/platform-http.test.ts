// HTTP-level behaviour on a real production server (`npm start`: scripts/server.mjs): the routes'
// gate authenticates and rate-limits before anything else runs; every /api/v1 response, success or error, carries the rate-limit headers and a request
// id and no CORS header; the limiter counts in the real Redis behind the Upstash stand-in, exactly.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientsOperation, meOperation } from '@/lib/account/operations';
import { sql } from '@/lib/db';
import { COMPRESSED_FROM_BYTES } from '@/lib/http/headers';
import { adsEntitiesOperation } from '@/lib/metrics/ads/operations';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { allOperations } from '@/lib/operations/registry';
import { RATE_LIMIT } from '@/lib/contract/limits';
import { mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import { clientAddress, startTestServer, type TestServer } from '../support/http-server';
import { rawRequest } from '../support/raw-request';
import { clientsOf, minimalQuery, seededOrgs } from './platform-support';
import { awayFromWindowEdge } from '../support/rate-limit-window';

const { main, other } = seededOrgs();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ databaseUrl: inject('databaseUrl') });
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

/** Each test uses its own key or client address, so no two tests share a rate-limit window. */
const freshKey = (options: Parameters<typeof mintKey>[0] = { orgId: main.id }) => mintKey(options);
const anonymous = () => ({ 'x-forwarded-for': clientAddress() });

function expectRateLimitHeaders(response: Response, remaining?: number) {
  expect(response.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT.limit));
  const left = Number(response.headers.get('x-ratelimit-remaining'));
  expect(Number.isInteger(left) && left >= 0 && left < RATE_LIMIT.limit).toBe(true);
  if (remaining !== undefined) expect(left).toBe(remaining);
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  // Unix seconds at the end of the current fixed window.
  expect(reset % RATE_LIMIT.windowSeconds).toBe(0);
  expect(reset).toBeGreaterThan(now - 1);
  expect(reset).toBeLessThanOrEqual(Math.ceil(now) + RATE_LIMIT.windowSeconds);
  expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  // The same figures in the fields of draft-ietf-httpapi-ratelimit-headers-10: the policy, then what
  // is left of it and the whole seconds until its window resets.
  expect(response.headers.get('ratelimit-policy')).toBe(`"default";q=${RATE_LIMIT.limit};w=${RATE_LIMIT.windowSeconds}`);
  const standard = /^"default";r=(\d+);t=(\d+)$/.exec(response.headers.get('ratelimit') ?? '');
  expect(standard, `RateLimit: ${response.headers.get('ratelimit')}`).not.toBeNull();
  expect(Number(standard![1])).toBe(left);
  const secondsLeft = Number(standard![2]);
  expect(secondsLeft).toBeLessThanOrEqual(RATE_LIMIT.windowSeconds);
  // Counted when the server answered, rounded up: within a second of what was left at the time its Date
  // header gives (to the second), however long ago that was (a parallel burst on a busy machine).
  const answeredAt = Date.parse(response.headers.get('date') ?? '') / 1000;
  expect(answeredAt).toBeLessThanOrEqual(now);
  expect(Math.abs(secondsLeft - (reset - answeredAt))).toBeLessThanOrEqual(1);
}

describe('every response carries the rate-limit headers and no CORS header', () => {
  it('200', async () => {
    const response = await server.request('/api/v1/me', { key: await freshKey() });
    expectRateLimitHeaders(response, RATE_LIMIT.limit - 1);
    await expectContract(meOperation, response);
  });

  it('400 validation_failed', async () => {
    const response = await server.request('/api/v1/me?from=2026-01-01', { key: await freshKey() });
    expectRateLimitHeaders(response, RATE_LIMIT.limit - 1);
    await expectProblem(response, 400, 'validation_failed');
  });

  it('401 unauthorized (counted per client address)', async () => {
    // The two counts assume one fixed window.
    await awayFromWindowEdge();
    const headers = anonymous();
    const first = await server.request('/api/v1/me', { headers });
    expectRateLimitHeaders(first, RATE_LIMIT.limit - 1);
    expect(first.headers.get('www-authenticate')).toMatch(/^Bearer /);
    await expectProblem(first, 401, 'unauthorized');
    const second = await server.request('/api/v1/me', { headers, key: `mk_live_${'B'.repeat(43)}` });
    expectRateLimitHeaders(second, RATE_LIMIT.limit - 2);
    await expectProblem(second, 401, 'unauthorized');
  });

  it('403 forbidden', async () => {
    const operation = allOperations().find((o) => o.scope === 'store:read')!;
    const response = await server.request(minimalQuery(operation), { key: await freshKey({ orgId: main.id, scopes: ['ads:read'] }) });
    expectRateLimitHeaders(response);
    await expectProblem(response, 403, 'forbidden');
  });

  it('404 not_found for a client outside reach', async () => {
    const operation = allOperations().find((o) => 'client' in o.query.shape)!;
    const otherClient = (await clientsOf(other.id))[0]!.id;
    const response = await server.request(minimalQuery(operation, { client: otherClient }), { key: await freshKey() });
    expectRateLimitHeaders(response);
    await expectProblem(response, 404, 'not_found');
  });

  it('404 not_found for a path that is no endpoint (a problem, not an HTML page)', async () => {
    const response = await server.request('/api/v1/nothing/here', { key: await freshKey() });
    expectRateLimitHeaders(response);
    await expectProblem(response, 404, 'not_found');
  });

  it('429 rate_limited with Retry-After', async () => {
    await awayFromWindowEdge();
    const key = await freshKey();
    for (let i = 0; i < RATE_LIMIT.limit; i++) expect((await server.request('/api/v1/me', { key })).status).toBe(200);
    const response = await server.request('/api/v1/me', { key });
    expectRateLimitHeaders(response, 0);
    const retryAfter = Number(response.headers.get('retry-after'));
    const untilReset = Number(response.headers.get('x-ratelimit-reset')) - Date.now() / 1000;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(Math.abs(retryAfter - untilReset)).toBeLessThanOrEqual(1.5);
    // The detail gives the number itself, not a pointer to the header.
    expect((await expectProblem(response, 429, 'rate_limited')).detail).toBe(
      `More than ${RATE_LIMIT.limit} requests in ${RATE_LIMIT.windowSeconds} s for this key. Retry in ${retryAfter} s (Retry-After).`,
    );
  });

  it('OPTIONS preflight, with and without a key: no Access-Control-* header', async () => {
    const preflight = { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' };
    for (const key of [undefined, await freshKey()]) {
      const response = await server.request('/api/v1/me', { method: 'OPTIONS', key, headers: { ...preflight, ...anonymous() } });
      expect([...response.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expectRateLimitHeaders(response);
      if (key) {
        expect(response.status).toBe(204);
        expect(response.headers.get('cache-control')).toBe('private, no-store');
      } else {
        await expectProblem(response, 401, 'unauthorized');
      }
    }
  });

  it('405 with Allow for a method other than GET, HEAD and OPTIONS, past the gate', async () => {
    const key = await freshKey();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await server.request('/api/v1/me', { method, key });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      expectRateLimitHeaders(response);
      expect(await response.text()).toBe('');
    }
    await expectProblem(await server.request('/api/v1/me', { method: 'POST', headers: anonymous() }), 401, 'unauthorized');
  });

  it('HEAD is answered like GET, without a body', async () => {
    const response = await server.request('/api/v1/me', { method: 'HEAD', key: await freshKey() });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expectRateLimitHeaders(response);
    expect(await response.text()).toBe('');
  });

  it('404 not_found for /api/v1 itself and for any method on a path that is no endpoint', async () => {
    const key = await freshKey();
    for (const [path, method] of [['/api/v1', 'GET'], ['/api/v1/nothing', 'POST'], ['/api/v1/ads', 'OPTIONS']] as const) {
      const response = await server.request(path, { method, key });
      expectRateLimitHeaders(response);
      await expectProblem(response, 404, 'not_found');
    }
    await expectProblem(await server.request('/api/v1/nothing', { headers: anonymous() }), 401, 'unauthorized');
  });

  it('a cross-origin GET gets no CORS header either', async () => {
    const response = await server.request('/api/v1/clients', { key: await freshKey(), headers: { origin: 'https://elsewhere.example' } });
    await expectContract(clientsOperation, response);
  });
});

describe('authentication at the gate', () => {
  it('refuses a key in the body even with a valid header', async () => {
    const key = await freshKey();
    const response = await server.request('/api/v1/me', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: key }),
    });
    expectRateLimitHeaders(response);
    const body = await expectProblem(response, 401, 'unauthorized');
    expect(body.detail).toContain('Authorization: Bearer');
  });

  it('compresses answers of 1 KiB or more for a client that accepts gzip or Brotli, and sends smaller ones as they are', async () => {
    const key = await freshKey();
    const get = (path: string) => rawRequest(`${server.origin}${path}`, { method: 'GET', headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' }, pieces: [] });
    const small = await get('/api/v1/me');
    const smallBody = Buffer.from(await small.arrayBuffer());
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(smallBody.length).toBeLessThan(COMPRESSED_FROM_BYTES);
    expect(small.headers.get('cache-control')).toBe('private, no-store, no-transform');
    expect(key.startsWith(JSON.parse(smallBody.toString('utf8')).data.key.prefix)).toBe(true);

    const large = await get(minimalQuery(adsEntitiesOperation, { level: 'ad' }));
    expect(large.status).toBe(200);
    expect(large.headers.get('content-encoding')).toBe('gzip');
    expect(large.headers.get('cache-control')).toBe('private, no-store');
    const gzipped = Buffer.from(await large.arrayBuffer());
    const unzipped = gunzipSync(gzipped);
    expect(unzipped.length).toBeGreaterThanOrEqual(COMPRESSED_FROM_BYTES);
    // The ETag is that of the uncompressed bytes.
    expect(large.headers.get('etag')).toBe(`"${createHash('sha256').update(unzipped).digest('base64url')}"`);
    // The server's fast level, not Next.js's level 6: level 1 leaves a JSON list a sixth larger.
    expect(gzipped.length).toBeGreaterThan(gzipSync(unzipped, { level: 6 }).length);

    // Brotli for a client that accepts it (as browsers and curl --compressed do), with the same ETag.
    const brotli = await rawRequest(`${server.origin}${minimalQuery(adsEntitiesOperation, { level: 'ad' })}`, {
      method: 'GET',
      headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip, deflate, br' },
      pieces: [],
    });
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await brotli.arrayBuffer()))).toEqual(unzipped);
    expect(brotli.headers.get('etag')).toBe(large.headers.get('etag'));

    const problem = await rawRequest(`${server.origin}/api/v1/me`, { method: 'GET', headers: { 'accept-encoding': 'gzip', ...anonymous() }, pieces: [] });
    expect(problem.status).toBe(401);
    expect(problem.headers.get('content-encoding')).toBeNull();
    expect(problem.headers.get('cache-control')).toBe('private, no-store, no-transform');
  });

  it('leaves compression to a reverse proxy with HTTP_COMPRESSION=off', async () => {
    const plain = await startTestServer({ databaseUrl: inject('databaseUrl'), env: { HTTP_COMPRESSION: 'off' } });
    try {
      const key = await freshKey();
      const response = await rawRequest(`${plain.origin}${minimalQuery(adsEntitiesOperation, { level: 'ad' })}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip, br' },
        pieces: [],
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBeNull();
      const body = Buffer.from(await response.arrayBuffer());
      expect(response.headers.get('etag')).toBe(`"${createHash('sha256').update(body).digest('base64url')}"`);
    } finally {
      await plain.stop();
    }
  });

  it('refuses a GET that carries the key in its body, even with a valid header', async () => {
    const key = await freshKey();
    const response = await rawRequest(`${server.origin}/api/v1/me`, {
      method: 'GET',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      pieces: [JSON.stringify({ apiKey: key })],
    });
    expectRateLimitHeaders(response);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics-api", error="invalid_request"');
    const body = await expectProblem(response, 401, 'unauthorized');
    expect(body.detail).toContain('one on a GET or HEAD request');
    expect(body.detail).toContain('Authorization: Bearer');
  });

  it('stops reading a body trickled in slower than the limit and refuses the request', async () => {
    const key = await freshKey();
    // One byte a second: the whole body takes 5 s to arrive, well past the gate's 2 s. Read to its
    // end, this key-free body would pass the gate (and Next.js would answer 405 for the POST).
    const response = await rawRequest(`${server.origin}/api/v1/me`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      pieces: ['a', 'b', 'c', 'd', 'e', 'f'],
      pauseMs: 1_000,
    });
    expectRateLimitHeaders(response);
    const body = await expectProblem(response, 401, 'unauthorized');
    expect(body.detail).toContain('not received within 2 s');
  });

  it('refuses a body over 64 KiB without scanning it', async () => {
    const key = await freshKey();
    const response = await rawRequest(`${server.origin}/api/v1/me`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      pieces: ['x'.repeat(64 * 1024 + 1)],
    });
    expectRateLimitHeaders(response);
    const body = await expectProblem(response, 401, 'unauthorized');
    expect(body.detail).toContain('over 64 KiB');
  });

  it('refuses a key in the query string or a cookie even with a valid header', async () => {
    const key = await freshKey();
    await expectProblem(await server.request(`/api/v1/clients?key=${key}`, { key }), 401, 'unauthorized');
    await expectProblem(await server.request('/api/v1/clients', { key, headers: { cookie: `k=${key}` } }), 401, 'unauthorized');
  });

  it('assigns its own request id; a caller-chosen one is not used', async () => {
    const response = await server.request('/api/v1/me', { key: await freshKey(), headers: { 'x-request-id': 'chosen-by-caller' } });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-request-id')).not.toContain('chosen-by-caller');
    await expectContract(meOperation, response);
  });
});

describe('rate limiting in the real Redis', () => {
  it('100 parallel requests with one key in one window: exactly 60 succeed and 40 get 429', async () => {
    await awayFromWindowEdge();
    const key = await freshKey();
    const [row] = await sql<{ id: string }>('SELECT id FROM api_keys WHERE hash = $1', [createHash('sha256').update(key).digest('hex')]);
    const responses = await Promise.all(Array.from({ length: 100 }, () => server.request('/api/v1/me', { key })));
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok.length).toBe(60);
    expect(limited.length).toBe(40);
    // Each success saw a distinct count: remaining 59, 58, … 0.
    expect(ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: RATE_LIMIT.limit }, (_, i) => i),
    );
    const resets = new Set(responses.map((r) => r.headers.get('x-ratelimit-reset')));
    expect(resets.size).toBe(1);
    for (const response of ok) {
      expectRateLimitHeaders(response);
      await expectContract(meOperation, response);
    }
    for (const response of limited) {
      expectRateLimitHeaders(response, 0);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await expectProblem(response, 429, 'rate_limited');
    }
    // The window's counter lives in the real Redis, under the key's id (never the key itself).
    const bucket = Number([...resets][0]) / RATE_LIMIT.windowSeconds - 1;
    const redisKey = `${server.rateLimitPrefix}:key:${row!.id}:${bucket}`;
    expect(await server.standIn!.redis.get(redisKey)).toBe('100');
    const ttl = await server.standIn!.redis.pTTL(redisKey);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(RATE_LIMIT.windowSeconds * 1000);
    expect((await server.standIn!.redis.keys(`${server.rateLimitPrefix}:*`)).join('\n')).not.toContain(key);
  });

  it('without a valid key, limits per client address: one address is throttled, another is not', async () => {
    await awayFromWindowEdge();
    const guesser = anonymous();
    const guesses = await Promise.all(
      Array.from({ length: RATE_LIMIT.limit + 5 }, (_, i) => server.request('/api/v1/me', { headers: guesser, key: `mk_live_${String(i).padStart(43, 'G')}` })),
    );
    expect(guesses.filter((r) => r.status === 401).length).toBe(RATE_LIMIT.limit);
    expect(guesses.filter((r) => r.status === 429).length).toBe(5);
    for (const response of guesses) {
      expectRateLimitHeaders(response);
      await expectProblem(response, response.status, response.status === 429 ? 'rate_limited' : 'unauthorized');
    }
    const bystander = await server.request('/api/v1/me', { headers: anonymous() });
    await expectProblem(bystander, 401, 'unauthorized');
    // A valid key from the throttled address counts in its own window.
    await expectContract(meOperation, await server.request('/api/v1/me', { key: await freshKey(), headers: guesser }));
  });
});

describe('routes outside the gate', () => {
  it('/api/v1/openapi.json needs no key, is not limited, and is the generated document', async () => {
    const response = await server.request('/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    expect([...response.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    // Its examples link to the server's own APP_URL (curl lines, problem `type`s): build it under that.
    const previousAppUrl = process.env.APP_URL;
    process.env.APP_URL = server.origin;
    try {
      expect(await response.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    } finally {
      if (previousAppUrl === undefined) delete process.env.APP_URL;
      else process.env.APP_URL = previousAppUrl;
    }
  });

  it('/api/v1/openapi.json refuses parameters like every endpoint', async () => {
    await expectProblem(await server.request('/api/v1/openapi.json?x=1'), 400, 'validation_failed');
  });

  it('/api/health is live and /api/health/ready reports the database and the limiter', async () => {
    const live = await server.request('/api/health');
    expect(live.status).toBe(200);
    // The instance that answered: INSTANCE_ID, unset here, else this machine's name and the server's process id.
    expect(await live.json()).toEqual({ status: 'ok', instance: `${hostname()}:${server.pid}` });
    expect(live.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(live.headers.get('x-ratelimit-limit')).toBeNull();
    const ready = await server.request('/api/health/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', replica: { state: 'none' }, rateLimiter: { backend: 'upstash', state: 'ok', counting: 'shared' } },
    });
  });

  it('the API reference page’s renderer is Scalar’s browser build from the installed package, revalidated by its version', async () => {
    const dir = path.join(process.cwd(), 'node_modules', '@scalar', 'api-reference');
    const bundle = readFileSync(path.join(dir, 'dist', 'browser', 'standalone.js'));
    const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
    const answer = await server.request('/docs/api/scalar.js');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.get('etag')).toBe(`"scalar-${version}"`);
    expect(answer.headers.get('cache-control')).toBe('public, no-cache');
    expect(Buffer.from(await answer.arrayBuffer()).equals(bundle)).toBe(true);
    const again = await server.request('/docs/api/scalar.js', { headers: { 'if-none-match': `"scalar-${version}"` } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(`"scalar-${version}"`);
    expect(await again.text()).toBe('');
    const stale = await server.request('/docs/api/scalar.js', { headers: { 'if-none-match': '"scalar-0.0.0"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  it('the errors page explains every code at its anchor', async () => {
    const problem = await expectProblem(await server.request('/api/v1/me', { headers: anonymous() }), 401, 'unauthorized');
    expect(problem.type).toBe(`${server.origin}/docs/errors#unauthorized`);
    const page = await server.request('/docs/errors');
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const code of ['validation_failed', 'unauthorized', 'forbidden', 'not_found', 'rate_limited', 'unavailable', 'internal']) {
      expect(html).toContain(`id="${code}"`);
    }
  });

  it('logs which limiter counts, once', () => {
    expect(server.logs().match(/\[ratelimit\] counting rate limits in Upstash Redis/g)).toHaveLength(1);
  });
});
