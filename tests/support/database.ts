// Throw-away databases on the machine's real PostgreSQL, one per test run (or per test worker).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function asAdmin(statement: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    return await admin.query(statement, values);
  } finally {
    await admin.end();
  }
}

export async function createDatabase(prefix = 'metrics_test'): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await asAdmin(`CREATE DATABASE "${name}"`);
  return { name, url: databaseUrl(name) };
}

/**
 * A copy of `template` named `name`: PostgreSQL copies its files, so a migrated and seeded database is
 * had in well under a second instead of seeding again. Nobody may be connected to the template meanwhile.
 */
export async function cloneDatabase(template: string, name: string): Promise<{ name: string; url: string }> {
  await asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await asAdmin(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  return { name, url: databaseUrl(name) };
}

export async function dropDatabase(name: string): Promise<void> {
  await asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/** Drops every database whose name matches the LIKE `pattern` (what a killed worker left behind). */
export async function dropDatabasesLike(pattern: string): Promise<void> {
  const { rows } = await asAdmin('SELECT datname FROM pg_database WHERE datname LIKE $1', [pattern]);
  for (const { datname } of rows as { datname: string }[]) await dropDatabase(datname);
}
