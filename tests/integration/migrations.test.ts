// The migrations and schema.prisma must describe the same database. Two fresh databases are built,
// one by applying prisma/migrations, one from the SQL Prisma renders for schema.prisma, and their
// catalogs (enums, tables, columns, indexes, constraints) are compared.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, readMigrations } from '@/prisma/migrate';
import { renderSchemaSql } from '@/prisma/schema-sql';
import { ADMIN_URL, createDatabase, dropDatabase } from '../support/database';

interface Snapshot {
  enums: string[];
  columns: string[];
  indexes: string[];
  constraints: string[];
}

async function catalogSnapshot(url: string): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rows = async (query: string) => (await client.query<{ line: string }>(query)).rows.map((r) => r.line);
  try {
    return {
      enums: await rows(`
        SELECT t.typname || ': ' || string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS line
          FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
         WHERE n.nspname = 'public' GROUP BY t.typname ORDER BY 1`),
      columns: await rows(`
        SELECT table_name || '.' || column_name || ' ' || udt_name || ' ' || is_nullable || ' ' ||
               coalesce(column_default, '-') || ' ' || coalesce(numeric_precision::text, '-') || ',' || coalesce(numeric_scale::text, '-') ||
               ' ' || coalesce(datetime_precision::text, '-') AS line
          FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' ORDER BY 1`),
      indexes: await rows(`SELECT indexdef AS line FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY 1`),
      constraints: await rows(`
        SELECT c.conrelid::regclass::text || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) AS line
          FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
         WHERE n.nspname = 'public' AND c.conrelid::regclass::text <> '_prisma_migrations' ORDER BY 1`),
    };
  } finally {
    await client.end();
  }
}

async function execute(url: string, script: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(script);
  } finally {
    await client.end();
  }
}

describe('migrations', () => {
  const created: string[] = [];
  let migrated: { name: string; url: string };

  beforeAll(async () => {
    migrated = await createDatabase('metrics_migrated');
    created.push(migrated.name);
    await applyMigrations(migrated.url);
  });

  afterAll(async () => {
    for (const name of created) await dropDatabase(name);
  });

  it('describe exactly the schema of schema.prisma', async () => {
    const fromSchema = await createDatabase('metrics_from_schema');
    created.push(fromSchema.name);
    await execute(fromSchema.url, renderSchemaSql({ databaseUrl: ADMIN_URL }));

    const expected = await catalogSnapshot(fromSchema.url);
    expect(expected.columns.length).toBeGreaterThan(100);
    expect(await catalogSnapshot(migrated.url)).toEqual(expected);
  });

  it('would notice a schema change that has no migration', async () => {
    const changed = readFileSync('prisma/schema.prisma', 'utf8').replace(
      'model Client {\n  id        String   @id @default(uuid()) @db.Uuid',
      'model Client {\n  id        String   @id @default(uuid()) @db.Uuid\n  notes     String?',
    );
    expect(changed).toContain('notes     String?');
    const drifted = await createDatabase('metrics_drifted');
    created.push(drifted.name);
    await execute(drifted.url, renderSchemaSql({ to: changed, databaseUrl: ADMIN_URL }));

    const migratedColumns = (await catalogSnapshot(migrated.url)).columns;
    const diff = (await catalogSnapshot(drifted.url)).columns.filter((c) => !migratedColumns.includes(c));
    expect(diff).toEqual(['clients.notes text YES - -,- -']);
  });

  it('records each migration as `prisma migrate deploy` does, and applies nothing twice', async () => {
    expect(await applyMigrations(migrated.url)).toEqual([]);
    const client = new pg.Client({ connectionString: migrated.url });
    await client.connect();
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    await client.end();
    const migrations = await readMigrations();
    expect(rows.map((r) => r.migration_name)).toEqual(migrations.map((m) => m.name));
    for (const [index, row] of rows.entries()) {
      const file = readFileSync(`prisma/migrations/${row.migration_name}/migration.sql`);
      expect(row.checksum).toBe(createHash('sha256').update(file).digest('hex'));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
      expect(migrations[index]!.checksum).toBe(row.checksum);
    }
  });
});
