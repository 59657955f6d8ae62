// What happens when a dependency is missing or down, on real servers: no Upstash configured (the
// zero-setup run), Upstash unreachable (served anyway, limits in-process, logged once), a read
// replica that cannot be reached (skipped: the primary serves, logged once), a database that cannot
// be reached (503 unavailable with Retry-After, headers still present, nothing counted against valid
// keys; the sign-in and settings pages a 503 page), a database that stops answering (503 within the
// client's bound on a query, never a hang); and an instance of several without the shared OAuth
// cookie secret, which refuses to start.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { meOperation } from '@/lib/account/operations';
import { adsOverviewOperation } from '@/lib/metrics/ads/operations';
import { RATE_LIMIT } from '@/lib/contract/limits';
import { mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import { clientAddress, startTestServer, type TestServer } from '../support/http-server';
import { startPgRelay, type PgRelay } from '../support/pg-relay';
import { RANGE, seededOrgs } from './platform-support';
import { awayFromWindowEdge } from '../support/rate-limit-window';

/** A local port on which nothing listens. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const { main } = seededOrgs();
const servers: TestServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

function expectLimitHeaders(response: Response) {
  expect(response.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT.limit));
  expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
}

/** The page a person gets instead of a sign-in or settings page while the database is down. */
async function expectUnavailablePage(response: Response) {
  const body = await response.text();
  expect(response.status).toBe(503);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('retry-after')).toBe('5');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(body).toContain('<title>Temporarily unavailable · Metrics API</title>');
  expect(body).toContain('<h1>Temporarily unavailable</h1>');
  // Nothing about the failure: no error name, address, driver message or stack frame.
  expect(body).not.toMatch(/error|ECONN|127\.0\.0\.1|postgres|timeout|\bat \w/i);
}

/** A request to the MCP endpoint with `key`, as a client lists the tools. */
function mcpRequest(server: TestServer, key: string, headers: Record<string, string>) {
  return server.request('/api/mcp', {
    key,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
}

describe('no Upstash configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl: inject('databaseUrl'), upstash: 'none' });
    servers.push(server);
  }, 300_000);

  it('counts in-process with the same semantics, and says so in the log', async () => {
    await awayFromWindowEdge();
    const key = await mintKey({ orgId: main.id });
    const responses = await Promise.all(Array.from({ length: RATE_LIMIT.limit + 3 }, () => server.request('/api/v1/me', { key })));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(RATE_LIMIT.limit);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited).toHaveLength(3);
    for (const response of limited) {
      expectLimitHeaders(response);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await expectProblem(response, 429, 'rate_limited');
    }
    expect(server.logs()).toContain('[ratelimit] UPSTASH_REDIS_REST_URL/TOKEN not set: rate limits are counted in-process');
    const ready = await server.request('/api/health/ready');
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', replica: { state: 'none' }, rateLimiter: { backend: 'in-process', state: 'ok', counting: 'per instance' } },
    });
  });
});

describe('Upstash unreachable', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      databaseUrl: inject('databaseUrl'),
      upstash: { url: `http://127.0.0.1:${await closedPort()}`, token: 'unused' },
    });
    servers.push(server);
  }, 300_000);

  it('still serves requests with the headers, counting in-process, and logs it once', async () => {
    await awayFromWindowEdge();
    const key = await mintKey({ orgId: main.id });
    for (let i = 0; i < 5; i++) {
      const response = await server.request('/api/v1/me', { key });
      expectLimitHeaders(response);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT.limit - 1 - i));
      await expectContract(meOperation, response);
    }
    expect(server.logs().match(/\[ratelimit\] upstash unreachable/g)).toHaveLength(1);
  });

  it('is reported as degraded, not unready, by the readiness check', async () => {
    const ready = await server.request('/api/health/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'degraded',
      checks: {
        database: 'ok',
        replica: { state: 'none' },
        rateLimiter: { backend: 'in-process (upstash unreachable)', state: 'unreachable', counting: 'per instance' },
      },
    });
  });
});

describe('read replica unreachable', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl: inject('databaseUrl'), env: { DATABASE_REPLICA_URL: `postgresql://postgres@127.0.0.1:${await closedPort()}/none` } });
    servers.push(server);
  }, 300_000);

  it('serves the metrics from the primary, and logs the skip once', async () => {
    await awayFromWindowEdge();
    const key = await mintKey({ orgId: main.id });
    const path = `/api/v1/ads/overview?from=${RANGE.from}&to=${RANGE.to}`;
    for (let i = 0; i < 3; i++) {
      const response = await server.request(path, { key });
      expect(response.status).toBe(200);
      await expectContract(adsOverviewOperation, response);
    }
    expect(server.logs().match(/\[db\] read replica skipped \(unreachable: [^)]*ECONNREFUSED[^)]*\): reading from the primary\./g)).toHaveLength(1);
  });

  it('is reported as degraded, not unready, without saying where the replica is', async () => {
    const ready = await server.request('/api/health/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'degraded',
      checks: {
        database: 'ok',
        replica: { state: 'skipped', reason: 'unreachable' },
        rateLimiter: { backend: 'upstash', state: 'ok', counting: 'shared' },
      },
    });
  });
});

describe('database unreachable', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl: `postgresql://postgres@127.0.0.1:${await closedPort()}/none` });
    servers.push(server);
  }, 300_000);

  it('answers 503 unavailable with Retry-After and the rate-limit headers, disclosing nothing', async () => {
    const response = await server.request('/api/v1/me', { key: `mk_live_${'C'.repeat(43)}` });
    expectLimitHeaders(response);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await expectProblem(response, 503, 'unavailable');
    expect(body.detail).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|postgres/);
  });

  it('answers valid keys 503, never 429, however many requests the outage lasts: a key it cannot check counts in no window', async () => {
    const key = await mintKey({ orgId: main.id });
    const address = { 'x-forwarded-for': clientAddress() };
    await awayFromWindowEdge();
    const responses = await Promise.all(Array.from({ length: RATE_LIMIT.limit + 5 }, () => server.request('/api/v1/me', { key, headers: address })));
    for (const response of responses) {
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT.limit));
      expect(response.headers.get('retry-after')).toBe('5');
      await expectProblem(response, 503, 'unavailable');
    }
    const mcp = await mcpRequest(server, key, address);
    expect(mcp.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT.limit));
    await expectProblem(mcp, 503, 'unavailable');
    // The address's window was left whole for requests without a key, which count there as always.
    const keyless = await server.request('/api/v1/me', { headers: address });
    expect(keyless.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT.limit - 1));
    await expectProblem(keyless, 401, 'unauthorized');
  });

  it('answers the sign-in, settings and consent pages with a 503 page, while pages that need no database are served', async () => {
    for (const path of ['/login', '/settings', '/settings/api-keys', '/settings/connected-apps', `/consent/${'u'.repeat(21)}`]) {
      await expectUnavailablePage(await server.request(path));
      await expectUnavailablePage(await server.request(path, { headers: { cookie: `metrics_session=${'a'.repeat(43)}` } }));
    }
    // A form post (the sign-in form) is answered the same way, before anything runs.
    await expectUnavailablePage(
      await server.request('/login', {
        method: 'POST',
        headers: { origin: server.origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=admin%40demo.agency&password=x',
      }),
    );
    expect((await server.request('/docs/errors')).status).toBe(200);
  });

  it('is not ready, while liveness still answers', async () => {
    expect((await server.request('/api/health')).status).toBe(200);
    const ready = await server.request('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(((await ready.json()) as { checks: { database: string } }).checks.database).toBe('unreachable');
  });
});

describe('database frozen', () => {
  // A PostgreSQL that stops answering (SIGSTOP, a network gone silent) cancels nothing: the client's
  // bound on a query (statement timeout + 1 s: 3 s here) or on a new connection (5 s) ends the wait.
  const CEILING_MS = 8_000;
  let relay: PgRelay;
  let server: TestServer;
  beforeAll(async () => {
    relay = await startPgRelay(inject('databaseUrl'));
    server = await startTestServer({ databaseUrl: relay.url, env: { DATABASE_STATEMENT_TIMEOUT: '2s' } });
    servers.push(server);
  }, 300_000);

  afterAll(async () => {
    await relay?.close();
  });

  it('answers 503 unavailable within the bound, on the API and the pages, and serves again once it answers', async () => {
    const key = await mintKey({ orgId: main.id });
    // Open connections in the pools, as a server in use has.
    await expectContract(meOperation, await server.request('/api/v1/me', { key }));
    relay.freeze();
    try {
      const started = performance.now();
      const [api, page] = await Promise.all([server.request('/api/v1/me', { key }), server.request('/settings/api-keys')]);
      const ms = performance.now() - started;
      expect(api.headers.get('retry-after')).toBe('5');
      await expectProblem(api, 503, 'unavailable');
      await expectUnavailablePage(page);
      expect(ms).toBeLessThan(CEILING_MS);
    } finally {
      relay.thaw();
    }
    await expectContract(meOperation, await server.request('/api/v1/me', { key }));
  });
});

describe('an instance of several without OAUTH_COOKIE_SECRET', () => {
  it('refuses to start, saying why', async () => {
    const start = startTestServer({ databaseUrl: inject('databaseUrl'), env: { INSTANCE_ID: 'app-2', OAUTH_COOKIE_SECRET: '' } });
    await expect(start).rejects.toThrow(/the server exited with 1:[\s\S]*Cannot start: OAUTH_COOKIE_SECRET is not set, but INSTANCE_ID says several instances serve the app/);
  }, 300_000);
});
