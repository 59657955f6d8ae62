// The app behind PgBouncer 1.18 in transaction mode (no prepared statements there, no startup options
// passed on): with DATABASE_PREPARED_STATEMENTS=off and DATABASE_SESSION_SETTINGS=server (the session
// settings stored on the server by `npm run db:settings`), every operation of every surface, an MCP
// tool call (which writes its usage record) and readiness answer through the pooler exactly as a
// server connected directly does. This file seeds a database of its own: the settings it stores on
// the role apply to that database only.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeSessionSettings } from '@/scripts/db-settings';
import { sessionSettings } from '@/lib/db';
import { allOperations } from '@/lib/operations/registry';
import { applyMigrations } from '@/prisma/migrate';
import { seedDatabase } from '@/prisma/seed';
import { createApiKey } from '@/lib/keys/issuing';
import { createDatabase, dropDatabase } from '../support/database';
import { everyOperationPath } from '../support/every-operation';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer';
import { startTestServer, type TestServer } from '../support/http-server';
import { MCP_PATH, PROTOCOL_VERSION, rpcMessages, toolCall } from './mcp-support';

const FROM = '2026-04-01';
const TO = '2026-06-30';

let database: { name: string; url: string };
let bouncer: PgBouncer;
let direct: TestServer;
let pooled: TestServer;
let key: string;
let paths: string[];

async function query<Row extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  database = await createDatabase('metrics_pooler');
  await applyMigrations(database.url);
  const seed = await seedDatabase(database.url, { scale: 'tiny', seed: 7, endDate: TO });
  const orgId = seed.orgs[0]!.id;
  await storeSessionSettings(database.url);
  bouncer = await startPgBouncer(database.url);

  paths = await everyOperationPath(database.url, orgId, { from: FROM, to: TO });

  // The key is minted on this file's database (lib/db points at the run's).
  const previous = process.env.DATABASE_URL;
  const { closeDb } = await import('@/lib/db');
  await closeDb();
  process.env.DATABASE_URL = database.url;
  try {
    ({ key } = await createApiKey({ orgId, name: 'pooler test', scopes: ['ads:read', 'social:read', 'web:read', 'store:read'], clientIds: null, expiresAt: null, createdById: null }));
  } finally {
    await closeDb();
    process.env.DATABASE_URL = previous;
  }

  [direct, pooled] = await Promise.all([
    startTestServer({ databaseUrl: database.url, upstash: 'none' }),
    startTestServer({ databaseUrl: bouncer.url, upstash: 'none', env: { DATABASE_PREPARED_STATEMENTS: 'off', DATABASE_SESSION_SETTINGS: 'server' } }),
  ]);
}, 300_000);

afterAll(async () => {
  await Promise.all([direct?.stop(), pooled?.stop()]);
  await bouncer?.stop();
  if (database) await dropDatabase(database.name);
});

describe('behind PgBouncer in transaction mode', () => {
  it('sessions through the pooler have the settings stored on the server', async () => {
    const shown = await query<{ name: string; setting: string }>(bouncer.url, `SELECT name, current_setting(name) AS setting FROM unnest($1::text[]) AS name`, [
      sessionSettings().map(([name]) => name),
    ]);
    expect(Object.fromEntries(shown.map((row) => [row.name, row.setting]))).toEqual({
      work_mem: '64MB',
      jit: 'off',
      plan_cache_mode: 'force_custom_plan',
      max_parallel_workers_per_gather: '0',
      random_page_cost: '1.1',
      statement_timeout: '10s',
      idle_in_transaction_session_timeout: '30s',
    });
  });

  it('every operation answers 200 with the same bytes as a server connected directly', async () => {
    expect(paths.length).toBe(allOperations().length);
    // Twice: the second round meets the connections the first one used (and the response cache).
    for (let round = 0; round < 2; round++) {
      for (const path of paths) {
        const [viaPooler, viaServer] = await Promise.all([pooled.request(path, { key }), direct.request(path, { key })]);
        expect({ path, status: viaPooler.status }).toEqual({ path, status: 200 });
        expect(viaServer.status).toBe(200);
        expect(viaPooler.headers.get('content-type')).toBe(viaServer.headers.get('content-type'));
        expect(Buffer.from(await viaPooler.arrayBuffer()).equals(Buffer.from(await viaServer.arrayBuffer())), path).toBe(true);
      }
    }
  });

  it('an MCP tool call answers the same and its usage record is written through the pooler', async () => {
    const call = (origin: string) =>
      fetch(new URL(MCP_PATH, origin), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': PROTOCOL_VERSION,
        },
        body: JSON.stringify(toolCall(1, 'get_ads_overview', { from: FROM, to: TO })),
      });
    const [viaPooler, viaServer] = await Promise.all([call(pooled.origin), call(direct.origin)]);
    expect(viaPooler.status).toBe(200);
    expect(await rpcMessages(viaPooler)).toEqual(await rpcMessages(viaServer));
    for (;;) {
      const [row] = await query<{ calls: number }>(database.url, `SELECT count(*)::int AS calls FROM mcp_tool_calls WHERE tool = 'get_ads_overview'`);
      if (row!.calls === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it('is ready, and nothing failed on the way', async () => {
    const ready = await pooled.request('/api/health/ready');
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: { database: string } }).checks.database).toBe('ok');
    expect(pooled.logs()).not.toMatch(/prepared statement|unsupported startup parameter|error/i);
  });
});
