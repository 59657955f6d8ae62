// What happens when a dependency is missing or down, on real servers: no Upstash configured (the
// zero-setup run), Upstash unreachable (served anyway, limits in-process, logged once), and a
// database that cannot be reached (503 unavailable with Retry-After, headers still present, nothing
// counted against valid keys).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { meOperation } from '@/lib/account/operations';
import { RATE_LIMIT } from '@/lib/ratelimit/policy';
import { mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import { clientAddress, startTestServer, type TestServer } from '../support/http-server';
import { awayFromWindowEdge, seededOrgs } from './platform-support';

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
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', rateLimiter: { backend: 'in-process', state: 'ok' } } });
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
      checks: { database: 'ok', rateLimiter: { backend: 'in-process (upstash unreachable)', state: 'unreachable' } },
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

  it('is not ready, while liveness still answers', async () => {
    expect((await server.request('/api/health')).status).toBe(200);
    const ready = await server.request('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(((await ready.json()) as { checks: { database: string } }).checks.database).toBe('unreachable');
  });
});
