// The client's bound on a database that answers nothing (lib/db-answer-bound.ts): a PostgreSQL that
// stops answering, played by a relay that passes nothing, makes a query on an open connection fail a
// second after the statement timeout, through `sql`, `gateSql` and Prisma, and a Prisma transaction that
// cannot begin fail after its 2 s wait; each with an error answered 503 `unavailable`. The pool serves
// again once it answers. A connection with nothing to do is never dropped for its silence.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { closeDb, gateSql, prisma, sql } from '@/lib/db';
import { toApiError } from '@/lib/operations/failures';
import { startPgRelay, type PgRelay } from '../support/pg-relay';

let relay: PgRelay;

beforeAll(async () => {
  relay = await startPgRelay(inject('databaseUrl'));
  // This file's own pools, through the relay, with a short statement timeout: the bound is 2 s.
  await closeDb();
  process.env.DATABASE_URL = relay.url;
  process.env.DATABASE_STATEMENT_TIMEOUT = '1s';
});

afterAll(async () => {
  relay.thaw();
  await closeDb();
  process.env.DATABASE_URL = inject('databaseUrl');
  delete process.env.DATABASE_STATEMENT_TIMEOUT;
  await relay.close();
});

describe('a database that stops answering', () => {
  /** The bound (statement timeout + 1 s) and generous room for a busy machine, far below a hang. */
  const CEILING_MS = 2_000 + 3_000;

  it.each([
    ['sql', () => sql('SELECT 1')],
    ['gateSql', () => gateSql('SELECT 1', [], 'a lane')],
    ['Prisma', () => prisma().organization.count()],
    ['a Prisma transaction', () => prisma().$transaction((tx) => tx.organization.count())],
  ])('%s: a query on an open connection fails within the bound, as 503 unavailable', async (_, query) => {
    await query();
    relay.freeze();
    let failure: unknown;
    const started = performance.now();
    try {
      await query();
    } catch (error) {
      failure = error;
    } finally {
      relay.thaw();
    }
    const ms = performance.now() - started;
    expect(toApiError(failure, 'test')).toMatchObject({ code: 'unavailable', status: 503, headers: { 'Retry-After': '5' } });
    expect(ms).toBeLessThan(CEILING_MS);
    // The connection that waited in vain was dropped; the pool serves again.
    await query();
  });
});

describe('a connection with nothing to do', () => {
  it('outlives the bound: the pool keeps it, and its next query runs on it', async () => {
    const backend = async () => (await sql<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid;
    const before = await backend();
    // Idle past the bound (statement timeout 1 s + 1 s).
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await backend()).toBe(before);
  });
});
