// `npm run key:create` against the test database: the printed key works, only its hash is stored,
// and bad input gets a clear error.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { meOperation } from '@/lib/account/operations';
import { InvalidKeyRequest, KEY_PATTERN } from '@/lib/auth/api-keys';
import { createKeyFromArgs, UsageError } from '@/scripts/key-create';
import { sql } from '@/lib/db';
import { api } from '../support/api';
import { expectContract } from '../support/contract';
import { clientsOf, freshOrg, seededOrgs } from './platform-support';

const ROOT = path.resolve(import.meta.dirname, '../..');
const { main, other } = seededOrgs();
const slugOf = (id: string) => inject('seed').orgs.find((org) => org.id === id)!.slug;

describe('key:create', () => {
  it('mints a working key by org slug, prints it once and stores only its hash', async () => {
    const client = (await clientsOf(main.id))[0]!.id;
    const lines = await createKeyFromArgs(['--org', slugOf(main.id), '--scopes', 'ads:read', '--clients', client, '--name', 'cli test']);
    const key = lines[lines.length - 1]!;
    expect(key).toMatch(KEY_PATTERN);
    expect(lines.filter((line) => line.includes(key))).toHaveLength(1);
    const [row] = await sql<{ name: string; scopes: string[]; org_id: string }>('SELECT name, scopes, org_id FROM api_keys WHERE hash = $1', [
      createHash('sha256').update(key).digest('hex'),
    ]);
    expect(row).toEqual({ name: 'cli test', scopes: ['ads:read'], org_id: main.id });
    const me = await expectContract<{ data: { clientIds: string[] } }>(meOperation, await api('/api/v1/me', { key }));
    expect(me.data.clientIds).toEqual([client]);
  });

  it('accepts the organisation id too', async () => {
    const lines = await createKeyFromArgs(['--org', other.id, '--scopes', 'store:read']);
    expect(lines[0]).toContain(other.name);
  });

  it("refuses a key past the organisation's cap, saying so, even to several programs minting at once", async () => {
    const org = await freshOrg('CLI key cap');
    // Three processes, each with its own pool: only the organisation's row lock keeps them in turn.
    // The test holds that lock until all three wait for it, so that they do mint at the same moment.
    const holder = new pg.Client({ connectionString: inject('databaseUrl') });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM organizations WHERE id = $1 FOR NO KEY UPDATE', [org.id]);
    let exited = 0;
    const finished = Promise.all(
      Array.from({ length: 3 }, () => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/key-create.ts', '--org', org.slug, '--scopes', 'ads:read'], {
          cwd: ROOT,
          // A statement timeout past the test's, as each waits for the lock until the last has started.
          env: { ...process.env, API_KEYS_PER_ORG_MAX: '1', DATABASE_STATEMENT_TIMEOUT: '120s' },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
          child.once('close', (code) => {
            exited++;
            resolve({ code, stdout, stderr });
          }),
        );
      }),
    );
    try {
      // (A program that does not wait for the lock ends instead, and the assertions below say what it did.)
      for (let waiting = 0; waiting < 3 && exited === 0; await new Promise((resolve) => setTimeout(resolve, 100))) {
        // Asked on another connection: inside its transaction the holder would see one snapshot of the activity.
        const [row] = await sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM organizations WHERE id = $1%FOR NO KEY UPDATE%'`,
        );
        waiting = row!.n;
      }
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const runs = await finished;
    const minted = runs.filter((run) => run.code === 0);
    expect(minted).toHaveLength(1);
    expect(minted[0]!.stdout.trim().split('\n').at(-1)).toMatch(KEY_PATTERN);
    for (const run of runs.filter((r) => r.code !== 0)) {
      expect(run).toEqual({
        code: 2,
        stdout: '',
        stderr: 'The organisation has 1 active key and may have at most 1. Revoke a key it no longer uses, then create this one.\n',
      });
    }
    expect(await sql('SELECT 1 FROM api_keys WHERE org_id = $1', [org.id])).toHaveLength(1);
  }, 120_000);

  it('refuses an unknown organisation and a client of another organisation', async () => {
    await expect(createKeyFromArgs(['--org', 'no-such-org', '--scopes', 'ads:read'])).rejects.toThrow(UsageError);
    const foreign = (await clientsOf(other.id))[0]!.id;
    await expect(createKeyFromArgs(['--org', main.id, '--scopes', 'ads:read', '--clients', foreign])).rejects.toThrow(InvalidKeyRequest);
  });
});
