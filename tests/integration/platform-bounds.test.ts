// Every request bounded, on real servers and a real PostgreSQL: a statement over the time limit is a
// 503, one key cannot have more than its share of requests in flight while another key is served, and
// a flood of readiness probes reaches the database at most once a second.
// The servers here use a database of their own (migrated, one organisation, keys inserted here), so
// that this file can lock its tables, holding requests inside the database for as long as a test
// needs, without stalling the other test files.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientsOperation, meOperation } from '@/lib/account/operations';
import { generateKey } from '@/lib/keys/issuing';
import { SCOPES } from '@/lib/contract/scopes';
import { RATE_LIMIT } from '@/lib/contract/limits';
import { applyMigrations } from '../../prisma/migrate';
import { expectContract, expectProblem } from '../support/contract';
import { createDatabase, dropDatabase } from '../support/database';
import { startTestServer, type TestServer } from '../support/http-server';
import { startPgRelay, type PgRelay } from '../support/pg-relay';

let database: { name: string; url: string };
let admin: pg.Client;
let orgId: string;
const servers: TestServer[] = [];
let relay: PgRelay | undefined;

beforeAll(async () => {
  database = await createDatabase('metrics_bounds');
  await applyMigrations(database.url);
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const { rows } = await admin.query<{ id: string }>(
    "INSERT INTO organizations (id, slug, name) VALUES (gen_random_uuid(), 'bounds', 'Bounds Agency') RETURNING id",
  );
  orgId = rows[0]!.id;
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await relay?.close();
  await admin?.end();
  if (database) await dropDatabase(database.name);
});

async function start(env: Record<string, string>, databaseUrl = database.url): Promise<TestServer> {
  const server = await startTestServer({ databaseUrl, upstash: 'none', env });
  servers.push(server);
  return server;
}

async function newKey(): Promise<string> {
  const { key, hash, prefix } = generateKey();
  await admin.query(
    `INSERT INTO api_keys (id, org_id, name, prefix, hash, scopes, restricted_to_clients)
     VALUES (gen_random_uuid(), $1, 'bounds test', $2, $3, $4, false)`,
    [orgId, prefix, hash, SCOPES],
  );
  return key;
}

/**
 * Runs `work` while another connection holds an exclusive lock on `clients`: every statement that
 * reads the table (all of /clients) waits inside PostgreSQL until the lock is released.
 */
async function withClientsLocked<T>(work: () => Promise<T>): Promise<T> {
  const locker = new pg.Client({ connectionString: database.url });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE clients IN ACCESS EXCLUSIVE MODE');
    return await work();
  } finally {
    await locker.query('ROLLBACK');
    await locker.end();
  }
}

function expectLimitHeaders(response: Response) {
  expect(response.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT.limit));
  expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
  expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('statement_timeout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await start({ DATABASE_STATEMENT_TIMEOUT: '500ms' });
  }, 300_000);

  it('cancels a statement over the limit and answers 503 unavailable with Retry-After, disclosing nothing', async () => {
    const key = await newKey();
    const response = await withClientsLocked(() => server.request('/api/v1/clients', { key }));
    expectLimitHeaders(response);
    expect(response.headers.get('retry-after')).toBe('5');
    const body = await expectProblem(response, 503, 'unavailable');
    expect(body.detail).not.toMatch(/statement|cancel|clients|postgres/i);
    // It was PostgreSQL's statement timeout that ended the wait, as the log says (written
    // asynchronously: the line may land just after the answer).
    await vi.waitFor(() => expect(server.logs()).toContain('database unavailable: canceling statement due to statement timeout'), { timeout: 5_000, interval: 50 });
    // The same request is served once nothing holds it up.
    await expectContract(clientsOperation, await server.request('/api/v1/clients', { key }));
  });
});

describe('requests in flight per credential', () => {
  let server: TestServer;
  beforeAll(async () => {
    // A statement timeout far beyond the test, so the held requests end only when the lock does.
    server = await start({ DATABASE_STATEMENT_TIMEOUT: '120s' });
  }, 300_000);

  it('answers 429 with the rate-limit headers and Retry-After beyond 4 at once for one key, while another key is served', async () => {
    const busyKey = await newKey();
    const otherKey = await newKey();
    const answered: Response[] = [];
    const { requests, refused } = await withClientsLocked(async () => {
      const requests = Array.from({ length: 6 }, async () => {
        const response = await server.request('/api/v1/clients', { key: busyKey });
        answered.push(response);
        return response;
      });
      // Four are held inside the database; the two beyond the cap are answered at once.
      await until(() => answered.length === 2, 'two requests are answered');
      const refused = [...answered];
      for (const response of refused) {
        expectLimitHeaders(response);
        expect(response.headers.get('retry-after')).toBe('1');
        const body = await expectProblem(response, 429, 'rate_limited');
        expect(body.detail).toContain('More than 4 requests at once');
      }
      await until(async () => {
        const { rows } = await admin.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        return rows[0]!.n === 4;
      }, 'four requests wait for the lock');

      const other = await server.request('/api/v1/me', { key: otherKey });
      expectLimitHeaders(other);
      await expectContract(meOperation, other);
      expect(answered).toHaveLength(2);
      return { requests, refused };
    });
    const held = (await Promise.all(requests)).filter((response) => !refused.includes(response));
    expect(held).toHaveLength(4);
    for (const response of held) {
      expectLimitHeaders(response);
      await expectContract(clientsOperation, response);
    }
    // The slots were released: the key is served again.
    await expectContract(clientsOperation, await server.request('/api/v1/clients', { key: busyKey }));
  });
});

describe('readiness under a flood', () => {
  let server: TestServer;
  beforeAll(async () => {
    relay = await startPgRelay(database.url);
    server = await start({}, relay.url);
  }, 300_000);

  it('answers every probe and reaches the database at most once per second', async () => {
    const before = relay!.statements();
    const startedAt = Date.now();
    for (let wave = 0; wave < 5; wave++) {
      const responses = await Promise.all(Array.from({ length: 60 }, () => server.request('/api/health/ready')));
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
        expect(await response.json()).toEqual({
          status: 'ready',
          checks: { database: 'ok', replica: { state: 'none' }, rateLimiter: { backend: 'in-process', state: 'ok', counting: 'per instance' } },
        });
      }
    }
    const elapsedSeconds = (Date.now() - startedAt) / 1000;
    const statements = relay!.statements() - before;
    // 300 probes; one check (one `SELECT 1`) per started second, however the waves fell.
    expect(statements).toBeGreaterThanOrEqual(1);
    expect(statements).toBeLessThanOrEqual(Math.ceil(elapsedSeconds) + 1);
  });
});
