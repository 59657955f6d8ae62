// Readiness while key lookups hold every one of the gate's connections (3; one organisation holds at
// most 2, so here two organisations' lookups): the database is busy answering this server's requests,
// not unreachable, so the server stays in rotation (before, the check's wait for a connection past its
// 2 s bound read as an outage: 503). A database that stops answering while it holds them is still
// unreachable.
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
  // An answer just now, then lookups of 3 s on all 3 connections: the check waits past its 2 s.
  await gateSql('SELECT 1', [], 'org-a');
  const burst = Promise.all(['org-a', 'org-a', 'org-b'].map((lane) => gateSql('SELECT pg_sleep(3)', [], lane)));
  const ready = await readiness();
  expect([ready.status, ready.retryAfter, ready.body.status, ready.body.checks.database]).toEqual([200, null, 'ready', 'busy']);
  await burst;
  await sleep(CHECK_REUSE_MS);
  expect((await readiness()).body.checks.database).toBe('ok');
}, 30_000);

it('is unavailable when the connections are all held and none has answered for CONNECTION_WAIT_MS (a database that stopped answering)', async () => {
  await sleep(CHECK_REUSE_MS);
  const held = Promise.all(['org-a', 'org-a', 'org-b'].map((lane) => gateSql('SELECT pg_sleep(9)', [], lane)));
  await sleep(CONNECTION_WAIT_MS + 100);
  const ready = await readiness();
  expect([ready.status, ready.retryAfter, ready.body.status, ready.body.checks.database]).toEqual([503, '5', 'unavailable', 'unreachable']);
  await held;
}, 30_000);
