// `npm run key:create` against the test database: the printed key works, only its hash is stored,
// and bad input gets a clear error.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { meOperation } from '@/lib/account/operations';
import { InvalidKeyRequest } from '@/lib/keys/issuing';
import { KEY_PATTERN } from '@/lib/key-format';
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

describe('key:create --rotate', () => {
  const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
  const keyRow = async (key: string) =>
    (
      await sql<{ id: string; prefix: string; name: string; scopes: string[]; expires_at: Date | null; retires_at: Date | null; rotated_from_id: string | null }>(
        'SELECT id, prefix, name, scopes, expires_at, retires_at, rotated_from_id FROM api_keys WHERE hash = $1',
        [hashOf(key)],
      )
    )[0]!;
  const clientIdsOf = async (keyId: string) =>
    (await sql<{ client_id: string }>('SELECT client_id FROM api_key_clients WHERE api_key_id = $1 ORDER BY client_id', [keyId])).map((r) => r.client_id);

  it('mints a successor with the same name, scopes, clients and expiry; both work during the overlap, the old one is refused 401 after it', async () => {
    const org = await freshOrg('CLI rotation');
    const clients = (await sql<{ id: string }>("INSERT INTO clients (id, org_id, name) VALUES (gen_random_uuid(), $1, 'Rotation client A'), (gen_random_uuid(), $1, 'Rotation client B') RETURNING id", [org.id])).map(
      (row) => row.id,
    );
    const expiresAt = new Date(Date.now() + 30 * 86_400_000);
    const created = await createKeyFromArgs(['--org', org.slug, '--scopes', 'ads:read,web:read', '--clients', clients.join(','), '--name', 'Looker']);
    const oldKey = created.at(-1)!;
    const old = await keyRow(oldKey);
    await sql('UPDATE api_keys SET expires_at = $2 WHERE id = $1', [old.id, expiresAt]);

    const before = Date.now();
    const lines = await createKeyFromArgs(['--rotate', `${old.prefix}…`, '--overlap', '1h']);
    const newKey = lines.at(-1)!;
    expect(newKey).toMatch(KEY_PATTERN);
    expect(lines.filter((line) => line.includes(newKey))).toHaveLength(1);
    const successor = await keyRow(newKey);
    expect(lines[0]).toBe(`Rotated ${old.prefix}… into ${successor.id} (${successor.prefix}…), "Looker": same scopes, clients and expiry.`);
    expect(successor).toMatchObject({ name: 'Looker', scopes: ['ads:read', 'web:read'], expires_at: expiresAt, retires_at: null, rotated_from_id: old.id });
    expect(await clientIdsOf(successor.id)).toEqual(await clientIdsOf(old.id));
    const retired = await keyRow(oldKey);
    const overlapEnds = retired.retires_at!.getTime();
    expect(overlapEnds).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(overlapEnds).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(lines[1]).toBe(`${old.prefix}… keeps working until ${retired.retires_at!.toISOString()}, then is refused with 401.`);
    const [event] = await sql<{ action: string; actor_id: string | null; details: Record<string, unknown> }>(
      "SELECT action, actor_id, details FROM audit_events WHERE target_id = $1 AND action = 'api_key.rotated'",
      [successor.id],
    );
    expect(event).toEqual({
      action: 'api_key.rotated',
      actor_id: null,
      details: { name: 'Looker', prefix: successor.prefix, rotatedFromId: old.id, rotatedFromPrefix: old.prefix, retiresAt: retired.retires_at!.toISOString(), createdVia: 'cli' },
    });

    // During the overlap both keys read the same clients, and each says when it stops working: the
    // old one when the overlap ends, the successor at the expiry they share.
    for (const [key, stopsAt] of [
      [oldKey, retired.retires_at!],
      [newKey, expiresAt],
    ] as const) {
      const me = await expectContract<{ data: { clientIds: string[]; key: { expiresAt: string | null } } }>(meOperation, await api('/api/v1/me', { key }));
      expect(me.data.clientIds).toEqual([...clients].sort());
      expect(me.data.key.expiresAt).toBe(stopsAt.toISOString());
    }
    // An expiry that comes before the overlap's end is when the old key stops.
    const soon = new Date(overlapEnds - 60_000);
    await sql('UPDATE api_keys SET expires_at = $2 WHERE id = $1', [old.id, soon]);
    const meOld = await expectContract<{ data: { key: { expiresAt: string | null } } }>(meOperation, await api('/api/v1/me', { key: oldKey }));
    expect(meOld.data.key.expiresAt).toBe(soon.toISOString());
    // The overlap over: the old key gets the 401 of an unknown key, word for word.
    await sql("UPDATE api_keys SET retires_at = now() - interval '1 second' WHERE id = $1", [old.id]);
    const refused = await api('/api/v1/me', { key: oldKey });
    const unknown = await api('/api/v1/me', { key: `mk_live_${'Z'.repeat(43)}` });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(unknown.headers.get('www-authenticate'));
    // Alike but for the request's own id.
    const withoutInstance = (body: Record<string, unknown>) => ({ ...body, instance: null });
    expect(withoutInstance((await refused.json()) as Record<string, unknown>)).toEqual(withoutInstance((await unknown.json()) as Record<string, unknown>));
    expect((await api('/api/v1/me', { key: newKey })).status).toBe(200);
  });

  it('retires the old key at once with --overlap now', async () => {
    const org = await freshOrg('CLI rotation now');
    const oldKey = (await createKeyFromArgs(['--org', org.slug, '--scopes', 'ads:read'])).at(-1)!;
    const newKey = (await createKeyFromArgs(['--rotate', (await keyRow(oldKey)).id, '--overlap', 'now'])).at(-1)!;
    expect((await api('/api/v1/me', { key: oldKey })).status).toBe(401);
    expect((await api('/api/v1/me', { key: newKey })).status).toBe(200);
  });

  it('refuses to rotate a key twice (no fork): the successor is the key to rotate, and it can be', async () => {
    const org = await freshOrg('CLI rotation fork');
    const oldKey = (await createKeyFromArgs(['--org', org.slug, '--scopes', 'ads:read'])).at(-1)!;
    const old = await keyRow(oldKey);
    const newKey = (await createKeyFromArgs(['--rotate', old.prefix])).at(-1)!;
    const successor = await keyRow(newKey);
    // The default overlap is 24 hours.
    expect(Math.abs((await keyRow(oldKey)).retires_at!.getTime() - Date.now() - 86_400_000)).toBeLessThan(60_000);
    await expect(createKeyFromArgs(['--rotate', old.id, '--overlap', '7d'])).rejects.toThrow(
      new InvalidKeyRequest(`The key ${old.prefix}… was rotated already (into ${successor.prefix}…): rotate that key instead.`),
    );
    expect(await sql('SELECT 1 FROM api_keys WHERE org_id = $1', [org.id])).toHaveLength(2);
    const third = (await createKeyFromArgs(['--rotate', successor.id, '--overlap', 'now'])).at(-1)!;
    expect((await keyRow(third)).rotated_from_id).toBe(successor.id);
  });

  it('refuses bad arguments and keys it cannot rotate, with a clear message', async () => {
    const org = await freshOrg('CLI rotation errors');
    const key = (await createKeyFromArgs(['--org', org.slug, '--scopes', 'ads:read'])).at(-1)!;
    const { id, prefix } = await keyRow(key);
    await expect(createKeyFromArgs(['--rotate', prefix, '--overlap', '2h'])).rejects.toThrow(new UsageError('--overlap must be one of now|1h|24h|7d, got 2h.'));
    await expect(createKeyFromArgs(['--rotate', prefix, '--scopes', 'web:read'])).rejects.toThrow(
      new UsageError("--rotate keeps the key's name, scopes, clients and expiry: leave out --scopes."),
    );
    await expect(createKeyFromArgs(['--org', org.slug, '--scopes', 'ads:read', '--overlap', '1h'])).rejects.toThrow(UsageError);
    // Another organisation's key is not found through --org.
    await expect(createKeyFromArgs(['--rotate', id, '--org', other.id])).rejects.toThrow(new UsageError(`No active key with the id ${id} in ${other.name}.`));
    await sql('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [id]);
    await expect(createKeyFromArgs(['--rotate', prefix])).rejects.toThrow(new UsageError(`No active key with the prefix ${prefix}.`));
  });

  it('runs as `npm run key:create -- --rotate`, printing the new key once', async () => {
    const org = await freshOrg('CLI rotation process');
    const key = (await createKeyFromArgs(['--org', org.slug, '--scopes', 'ads:read'])).at(-1)!;
    const { prefix } = await keyRow(key);
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/key-create.ts', '--rotate', prefix, '--overlap', '1h', '--org', org.slug], { cwd: ROOT, env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const printed = stdout.trim().split('\n');
    expect(printed).toHaveLength(4);
    expect(printed[3]).toMatch(KEY_PATTERN);
    expect((await keyRow(printed[3]!)).rotated_from_id).toBe((await keyRow(key)).id);
  }, 60_000);
});
