// The benchmark's databases: seeded once at the `large` scale (and at the `demo` scale, for how time
// grows with the data) with a fixed seed and end date, so every run measures the same rows. A comment on the database says what it holds: `seeding` while it is being
// filled, the seed options and migrations once complete. A benchmark database in any other state (a
// seed that crashed half-way, older migrations) is dropped and seeded again; a database without such a
// comment is not the benchmark's and is never dropped.
import pg from 'pg';
import { createHash } from 'node:crypto';
import { applyMigrations, readMigrations } from '../../prisma/migrate';
import { seedDatabase } from '../../prisma/seed/index';

export interface BenchSeed {
  scale: 'large' | 'demo';
  seed: number;
  endDate: string;
}

export const BENCH_SEED = { scale: 'large', seed: 1, endDate: '2026-06-30' } as const satisfies BenchSeed;
export const DEFAULT_BENCH_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/metrics_bench';
/** The same seed at the dashboard's realistic `demo` scale: the smaller side of the growth table. */
export const GROWTH_SEED = { scale: 'demo', seed: 1, endDate: BENCH_SEED.endDate } as const satisfies BenchSeed;
export const DEFAULT_GROWTH_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/metrics_bench_demo';

function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name) throw new Error(`the benchmark database URL names no database: ${url}`);
  return name;
}

/** A connection to the server's maintenance database, to create or drop the benchmark's. */
async function withMaintenance<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The comment a completely seeded database carries: the seed options and a digest of every migration
 * it was built with. Another set of migrations (one added, one edited) means another schema, and
 * applying a migration to rows loaded before it is not always what a fresh seed would hold (a rollup
 * without a backfill stays empty), so the database is seeded again rather than migrated.
 */
async function expectedMarker(seed: BenchSeed): Promise<string> {
  const migrations = await readMigrations();
  const digest = createHash('sha256')
    .update(migrations.map((m) => `${m.name}:${m.checksum}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  return `metrics bench: ${seed.scale} seed ${seed.seed} ending ${seed.endDate}, ${migrations.length} migrations ${digest}, complete`;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function currentMarker(client: pg.Client, name: string): Promise<string | null | undefined> {
  const { rows } = await client.query<{ marker: string | null }>(
    'SELECT shobj_description(oid, $2) AS marker FROM pg_database WHERE datname = $1',
    [name, 'pg_database'],
  );
  return rows[0] === undefined ? undefined : rows[0].marker;
}

/**
 * Visibility map and statistics of every table, rollups included, as a production database has them
 * once autovacuum has passed: the plans measured are then the ones production would get.
 */
async function vacuumAnalyze(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM (ANALYZE)');
  } finally {
    await client.end();
  }
}

const MARKER_PREFIX = 'metrics bench: ';

/** Makes sure `url` holds the complete dataset of `seed` built with the current migrations; seeds it (a few minutes at `large`) when not. */
export async function ensureBenchDatabase(url: string, log: (line: string) => void, seed: BenchSeed = BENCH_SEED): Promise<void> {
  const name = databaseName(url);
  const wanted = await expectedMarker(seed);
  const setMarker = (client: pg.Client, marker: string) => client.query(`COMMENT ON DATABASE ${quoteIdent(name)} IS '${marker.replaceAll("'", "''")}'`);
  const upToDate = await withMaintenance(url, async (client) => {
    const marker = await currentMarker(client, name);
    if (marker === wanted) return true;
    if (marker !== undefined) {
      if (!marker?.startsWith(MARKER_PREFIX)) {
        throw new Error(`database ${name} exists and is not a benchmark database (no "${MARKER_PREFIX}" comment): drop it or set BENCH_DATABASE_URL to another one`);
      }
      log(`database ${name} holds "${marker.slice(MARKER_PREFIX.length)}", not "${wanted.slice(MARKER_PREFIX.length)}": seeding it again`);
      await client.query(`DROP DATABASE ${quoteIdent(name)} WITH (FORCE)`);
    }
    log(`creating database ${name}`);
    await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
    await setMarker(client, `${MARKER_PREFIX}seeding`);
    return false;
  });
  if (upToDate) {
    log(`database ${name} is seeded (${seed.scale}, seed ${seed.seed}, ending ${seed.endDate}) with the current migrations`);
    return;
  }
  await applyMigrations(url, log);
  log(`seeding ${seed.scale} data${seed.scale === 'large' ? ' (a few minutes on 2 cores)' : ''}`);
  const result = await seedDatabase(url, { ...seed, log: (line) => log(`  seed: ${line}`) });
  log(`seeded in ${(result.elapsedMs / 1000).toFixed(0)} s: ${Object.values(result.counts).reduce((a, b) => a + b, 0).toLocaleString('en-US')} rows`);
  log('vacuuming and analyzing (as autovacuum would, and it may be off on this server)');
  await vacuumAnalyze(url);
  await withMaintenance(url, (client) => setMarker(client, wanted));
}
