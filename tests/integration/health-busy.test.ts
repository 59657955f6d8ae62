// Readiness while one organisation's burst of key lookups holds every one of the gate's connections
// (3): the database is busy answering this server's requests, not unreachable, so the server stays in
// rotation (before, the check's wait for a connection past its 2 s bound read as an outage: 503). A
// database that stops answering while it holds them is still unreachable.
import { expect, it } from 'vitest';
import { CONNECTION_WAIT_MS, gateSql } from '@/lib/db';
import { api } from '../support/api';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Past the second for which one readiness check answers every probe. */
const CHECK_REUSE_MS = 1_100;

async function readiness(): Promise<{ status: number; retryAfter: string | null; body: { status: string; checks: { database: string } } }> {
  const response = await api('/api/health/ready');
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as never };
}

it('is ready, the database busy, while every gate connection is taken by lookups the database answers', async () => {
  await sleep(CHECK_REUSE_MS);
  // 200 lookups of 50 ms on 3 connections: a statement queued behind them waits about 3.3 s, past the check's 2 s.
  const burst = Promise.all(Array.from({ length: 200 }, () => gateSql('SELECT pg_sleep(0.05)')));
  const ready = await readiness();
  expect([ready.status, ready.retryAfter, ready.body.status, ready.body.checks.database]).toEqual([200, null, 'ready', 'busy']);
  await burst;
  await sleep(CHECK_REUSE_MS);
  expect((await readiness()).body.checks.database).toBe('ok');
}, 30_000);

it('is unavailable when the connections are all held and none has answered for CONNECTION_WAIT_MS (a database that stopped answering)', async () => {
  await sleep(CHECK_REUSE_MS);
  const held = Promise.all(Array.from({ length: 3 }, () => gateSql('SELECT pg_sleep(9)')));
  await sleep(CONNECTION_WAIT_MS + 100);
  const ready = await readiness();
  expect([ready.status, ready.retryAfter, ready.body.status, ready.body.checks.database]).toEqual([503, '5', 'unavailable', 'unreachable']);
  await held;
}, 30_000);
