// The deterministic demo-data generator: fills an empty, migrated database with a realistic agency's
// synced data. Same scale, seed and end date ⇒ byte-identical rows. What the data looks like, and the
// invariants tests can rely on, is described at the top of each source's module (ads/, social.ts,
// analytics.ts, search-console.ts, store.ts, sync-runs.ts).
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { isIsoDate, yesterdayInIst } from './calendar';
import { copyTable, type TableData } from './copy';
import { buildDataset } from './dataset';
import { SCALES, type Scale } from './scales';

export type { Scale } from './scales';

/** Tables the migrations' triggers maintain from the loaded ones. */
const ROLLUP_TABLES = [
  'ad_insights_monthly',
  'ad_insights_tenday',
  'ad_insights_quarterly',
  'ad_insights_org_daily',
  'ad_account_breakdowns_monthly',
  'ad_account_breakdowns_tenday',
  'ad_account_breakdowns_org_monthly',
  'ad_account_breakdowns_org_tenday',
  'ad_account_age_gender_year_peaks',
  'analytics_org_daily',
  'analytics_dimensions_monthly',
  'analytics_dimensions_tenday',
  'analytics_dimensions_org_daily',
  'analytics_dimensions_org_monthly',
  'analytics_dimensions_org_tenday',
  'analytics_dimensions_block_peaks',
  'analytics_dimensions_year_peaks',
  'search_console_dimensions_monthly',
  'search_console_dimensions_tenday',
  'store_org_daily',
  'store_dimensions_monthly',
  'store_dimensions_tenday',
  'store_dimensions_org_daily',
  'store_dimensions_org_monthly',
  'store_dimensions_org_tenday',
];

export interface SeedOptions {
  scale: Scale;
  /** Default 1. */
  seed?: number;
  /** YYYY-MM-DD; default: yesterday in Asia/Kolkata. */
  endDate?: string;
  log?: (line: string) => void;
}

export interface SeedResult {
  orgs: { id: string; slug: string; name: string }[];
  users: { email: string; password: string; role: 'admin' | 'member'; orgSlug: string }[];
  counts: Record<string, number>;
  elapsedMs: number;
}

/** An expected problem (bad options, database not empty or not migrated): callers print the message only. */
export class SeedError extends Error {
  override name = 'SeedError';
}

/** Checks the options and fills in the defaults; throws SeedError for bad ones. */
export function resolveSeedOptions(options: SeedOptions): { scale: Scale; seed: number; endDate: string } {
  if (!Object.hasOwn(SCALES, options.scale)) throw new SeedError(`unknown scale "${options.scale}": use ${Object.keys(SCALES).join(', ')}`);
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new SeedError(`seed must be an integer, got ${seed}`);
  const endDate = options.endDate ?? yesterdayInIst();
  if (!isIsoDate(endDate)) throw new SeedError(`end date must be a real date as YYYY-MM-DD, got "${endDate}"`);
  return { scale: options.scale, seed, endDate };
}

async function assertEmptyAndMigrated(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ table: string | null }>(`SELECT to_regclass('public.organizations')::text AS "table"`);
  if (!rows[0]?.table) throw new SeedError('the database has no schema yet: apply the migrations first (npm run db:migrate)');
  const existing = await client.query('SELECT 1 FROM organizations LIMIT 1');
  if (existing.rowCount) throw new SeedError('the database already holds organisations; seed an empty database (npm run seed -- --reset recreates it)');
}

async function connect(connectionString: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  // The load is repeatable from scratch, so a crash losing the last commits costs nothing; index
  // builds after the big tables' loads sort in memory rather than on disk.
  await client.query('SET synchronous_commit TO off');
  await client.query(`SET maintenance_work_mem TO '256MB'`);
  return client;
}

/** Loads tables one after another on a connection of its own. */
async function loadLane(connectionString: string, tables: readonly TableData[], counts: Record<string, number>, log: (line: string) => void): Promise<void> {
  const client = await connect(connectionString);
  try {
    for (const table of tables) counts[table.table] = await copyTable(client, table, log);
  } finally {
    await client.end();
  }
}

export async function seedDatabase(connectionString: string, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const resolved = resolveSeedOptions(options);
  const client = await connect(connectionString);
  try {
    await assertEmptyAndMigrated(client);
    log(`generating ${resolved.scale} data, seed ${resolved.seed}, ending ${resolved.endDate}`);
    const dataset = await buildDataset(resolved);
    const counts: Record<string, number> = {};
    for (const table of dataset.first) counts[table.table] = await copyTable(client, table, log);
    // PostgreSQL parses COPY input on one core per connection: the lanes load side by side.
    const lanes = await Promise.allSettled(dataset.lanes.map((lane) => loadLane(connectionString, lane, counts, log)));
    const failed = lanes.find((lane) => lane.status === 'rejected');
    if (failed) throw failed.reason;
    // Fresh statistics, so that the planner knows the tables are no longer empty (only ours: a bare
    // ANALYZE would also go through every system catalog). The rollups the triggers filled count too.
    log('analyzing');
    const analyzed = [...dataset.tables.map((t) => t.table), ...ROLLUP_TABLES];
    await client.query(`ANALYZE ${analyzed.map((table) => `"${table}"`).join(', ')}`);
    return {
      orgs: dataset.orgs.map((o) => ({ id: o.id, slug: o.slug, name: o.name })),
      users: dataset.users,
      // In foreign-key order, whichever lane finished first.
      counts: Object.fromEntries(dataset.tables.map((t) => [t.table, counts[t.table] ?? 0])),
      elapsedMs: Math.round(performance.now() - started),
    };
  } finally {
    await client.end();
  }
}
