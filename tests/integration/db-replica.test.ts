// The read replica on a real streaming replica (a primary and a standby of this file's own): the
// synced data and its version are read from the replica, credentials from the primary (a revoked key
// is refused at once, whatever the replica's lag); a replica too far behind, or down, is skipped for
// the primary and used again once it has caught up, each change logged once; readiness says which.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyMigrations } from '@/prisma/migrate';
import { seedDatabase } from '@/prisma/seed';
import { closeDb, readSql, sql } from '@/lib/db';
import { logger } from '@/lib/telemetry/logger';
import { api, mintKey } from '../support/api';
import { startReplicatedPostgres, type ReplicatedPostgres } from '../support/replicated-postgres';
import pg from 'pg';

let cluster: ReplicatedPostgres;
let orgId: string;
const saved = { ...process.env };

/** Runs one statement on the standby itself (not through the app's pools). */
async function onStandby<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: cluster.replicaUrl });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Waits until the standby has replayed everything the primary has written so far. */
async function caughtUp(): Promise<void> {
  const [{ lsn }] = (await sql<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')) as [{ lsn: string }];
  while (!(await onStandby<{ replayed: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS replayed', [lsn]))[0]!.replayed) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls readiness until its replica check says `state` (each check stands for a second). */
async function replicaBecomes(state: 'used' | 'skipped'): Promise<Record<string, unknown>> {
  for (;;) {
    const body = (await (await api('/api/health/ready')).json()) as { checks: { replica: Record<string, unknown> } };
    if (body.checks.replica.state === state) return body.checks.replica;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The names of the organisation's clients in /clients, sorted. */
async function clientNames(key: string): Promise<string[]> {
  const response = await api('/api/v1/clients', { key });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { name: string }[] }).data.map((client) => client.name).sort();
}

/** A fresh pool with these settings (the pools read them when they are created). */
async function useDatabases(env: Record<string, string>): Promise<void> {
  await closeDb();
  Object.assign(process.env, { DATABASE_URL: cluster.primaryUrl, DATABASE_REPLICA_URL: cluster.replicaUrl }, env);
}

beforeAll(async () => {
  cluster = await startReplicatedPostgres();
  await applyMigrations(cluster.primaryUrl);
  const seed = await seedDatabase(cluster.primaryUrl, { scale: 'tiny', seed: 7, endDate: '2026-06-30' });
  orgId = seed.orgs[0]!.id;
}, 120_000);

afterAll(async () => {
  await closeDb();
  process.env = saved;
  await cluster?.stop();
});

describe('reads of the synced data', () => {
  beforeAll(() => useDatabases({ DATABASE_REPLICA_MAX_LAG: '3600' }));

  it('go to the replica; everything else to the primary', async () => {
    await caughtUp();
    const [replica] = await readSql<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering');
    const [primary] = await sql<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering');
    expect({ replica: replica!.recovering, primary: primary!.recovering }).toEqual({ replica: true, primary: false });
  });

  it('answer from the replica while a revocation on the primary takes effect on the next call', async () => {
    const key = await mintKey({ orgId });
    const before = await clientNames(key);
    expect(before.length).toBeGreaterThan(0);
    expect(await replicaBecomes('used')).toEqual({ state: 'used' });

    await onStandby('SELECT pg_wal_replay_pause()');
    try {
      await sql(`UPDATE clients SET name = name || ' (renamed)' WHERE org_id = $1`, [orgId]);
      // The replica has not seen the rename (nor the version it bumped): the answer is the replica's, whole.
      expect(await clientNames(key)).toEqual(before);
      // The key is read from the primary: revoked there, refused now.
      await sql('UPDATE api_keys SET revoked_at = now() WHERE org_id = $1', [orgId]);
      expect((await api('/api/v1/clients', { key })).status).toBe(401);
    } finally {
      await onStandby('SELECT pg_wal_replay_resume()');
    }
    await caughtUp();
    const fresh = await mintKey({ orgId });
    expect(await clientNames(fresh)).toEqual(before.map((name) => `${name} (renamed)`).sort());
  });
});

describe('a replica too far behind', () => {
  // No lag at all allowed: a paused replay with a write after it is too far behind.
  beforeAll(() => useDatabases({ DATABASE_REPLICA_MAX_LAG: '0' }));

  it('is skipped for the primary, and used again once it has caught up, each change logged once', async () => {
    const warn = vi.spyOn(logger(), 'warn').mockImplementation(() => {});
    try {
      const key = await mintKey({ orgId });
      await caughtUp();
      // The pools' first read waits for the replica's first check, which finds it in use.
      await readSql('SELECT 1');
      await onStandby('SELECT pg_wal_replay_pause()');
      try {
        await sql(`UPDATE clients SET name = name || '!' WHERE org_id = $1`, [orgId]);
        const skipped = await replicaBecomes('skipped');
        expect(skipped).toEqual({ state: 'skipped', reason: expect.stringMatching(/^\d+\.\d s behind the primary \(at most 0 s\)$/) as unknown });
        const ready = await api('/api/health/ready');
        expect(ready.status).toBe(200);
        expect(((await ready.json()) as { status: string }).status).toBe('degraded');
        // Read from the primary: the write is there.
        expect((await clientNames(key)).every((name) => name.endsWith('!'))).toBe(true);
      } finally {
        await onStandby('SELECT pg_wal_replay_resume()');
      }
      expect(await replicaBecomes('used')).toEqual({ state: 'used' });
      const lines = warn.mock.calls.map(([line]) => String(line)).filter((line) => line.startsWith('[db]'));
      expect(lines).toEqual([
        '[db] read replica in use for the synced data.',
        expect.stringMatching(/^\[db\] read replica skipped \(\d+\.\d s behind the primary \(at most 0 s\)\): reading from the primary\.$/),
        '[db] read replica in use for the synced data.',
      ]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('a replica that is down', () => {
  beforeAll(() => useDatabases({ DATABASE_REPLICA_MAX_LAG: '30' }));

  it('is skipped: the primary answers every read, and the replica is used again when it is back', async () => {
    const key = await mintKey({ orgId });
    expect(await replicaBecomes('used')).toEqual({ state: 'used' });
    const expected = await clientNames(key);
    await cluster.stopReplica();
    try {
      // The first read after the stop may still be sent to the replica: it is run again on the primary.
      for (let i = 0; i < 3; i++) expect(await clientNames(key)).toEqual(expected);
      expect(await replicaBecomes('skipped')).toEqual({ state: 'skipped', reason: expect.stringMatching(/^(unreachable|a read failed)$/) as unknown });
      expect(await clientNames(key)).toEqual(expected);
    } finally {
      await cluster.startReplica();
    }
    expect(await replicaBecomes('used')).toEqual({ state: 'used' });
  });
});
