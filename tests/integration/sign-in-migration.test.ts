// The migration behind the exact email lookup and the sessions' password fingerprint, applied to a
// database that holds rows from before it: emails typed in any case, and a live session.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { passwordFingerprint } from '@/lib/session/passwords';
import { readMigrations } from '@/prisma/migrate';
import { createDatabase, dropDatabase } from '../support/database';

const MIGRATION = '20261125014423_sign_in_exact_email_and_session_password';

const created: string[] = [];

afterAll(async () => {
  for (const name of created) await dropDatabase(name);
});

/** A fresh database migrated up to just before MIGRATION; returns a connected client and that migration's SQL. */
async function databaseBefore(): Promise<{ client: pg.Client; migration: string }> {
  const database = await createDatabase('metrics_sign_in_migration');
  created.push(database.name);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const migrations = await readMigrations();
  const index = migrations.findIndex((m) => m.name === MIGRATION);
  expect(index).toBeGreaterThan(0);
  for (const earlier of migrations.slice(0, index)) await client.query(earlier.sql);
  return { client, migration: migrations[index]!.sql };
}

async function addUser(client: pg.Client, email: string, passwordHash = `hash-of-${email}`): Promise<string> {
  const { rows } = await client.query<{ id: string }>("INSERT INTO users (id, email, name, password_hash) VALUES (gen_random_uuid(), $1, 'Someone', $2) RETURNING id", [
    email,
    passwordHash,
  ]);
  return rows[0]!.id;
}

describe(`migration ${MIGRATION}`, () => {
  it('trims and lower-cases every stored email and gives live sessions the fingerprint of their password', async () => {
    const { client, migration } = await databaseBefore();
    try {
      const ann = await addUser(client, ' Ann.Smith@Example.COM ', '$argon2id$v=19$m=19456,t=2,p=1$YW5uYW5uYW5u$aGFzaA');
      await addUser(client, 'bob@example.com');
      await client.query("INSERT INTO dashboard_sessions (id, user_id, token_hash, expires_at) VALUES (gen_random_uuid(), $1, 'token-hash', now() + interval '1 hour')", [ann]);

      await client.query(migration);

      const emails = await client.query<{ email: string }>('SELECT email FROM users ORDER BY email');
      expect(emails.rows).toEqual([{ email: 'ann.smith@example.com' }, { email: 'bob@example.com' }]);
      const sessions = await client.query<{ password_fingerprint: string }>('SELECT password_fingerprint FROM dashboard_sessions');
      expect(sessions.rows).toEqual([{ password_fingerprint: passwordFingerprint('$argon2id$v=19$m=19456,t=2,p=1$YW5uYW5uYW5u$aGFzaA') }]);
    } finally {
      await client.end();
    }
  });

  it('stops, naming the address, when two users differ only in case or spaces, and changes nothing', async () => {
    const { client, migration } = await databaseBefore();
    try {
      await addUser(client, 'Dup@Example.com');
      await addUser(client, 'dup@example.com ');
      await client.query('BEGIN');
      await expect(client.query(migration)).rejects.toThrow(
        'users: several rows have the email dup@example.com once trimmed and lower-cased; merge or rename them, then migrate again',
      );
      await client.query('ROLLBACK');
      const emails = await client.query<{ email: string }>('SELECT email FROM users ORDER BY email');
      expect(emails.rows).toEqual([{ email: 'Dup@Example.com' }, { email: 'dup@example.com ' }]);
    } finally {
      await client.end();
    }
  });
});
