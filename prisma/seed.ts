// npm run seed -- --scale tiny|demo|large|lists [--seed N] [--end-date YYYY-MM-DD] [--database-url URL] [--reset]
// Applies the migrations, then fills the (empty) database with demo data and prints what it loaded.
// Importing this file runs nothing: it re-exports the generator, so `prisma/seed` works as a module too.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { applyMigrations } from './migrate';
import { resolveSeedOptions, type Scale, SeedError, seedDatabase, type SeedResult } from './seed/index';

export { resolveSeedOptions, SeedError, seedDatabase } from './seed/index';
export type { Scale, SeedOptions, SeedResult } from './seed/index';

const USAGE = `usage: npm run seed -- --scale tiny|demo|large|lists [--seed N] [--end-date YYYY-MM-DD] [--database-url URL] [--reset]

  --scale         how much data: tiny (tests), demo (default), large (benchmarks), lists (MCP answer sizes)
  --seed          the random seed (default 1); same seed and end date give identical rows
  --end-date      the last day with data (default: yesterday in Asia/Kolkata)
  --database-url  the database to fill (default: $DATABASE_URL)
  --reset         drop and recreate schema "public" first, deleting everything in it`;

/** Errors whose message says it all: no stack trace for these. */
function isExpected(error: unknown): error is Error {
  if (error instanceof SeedError) return true;
  const code = (error as { code?: string } | null)?.code ?? '';
  // Connection failures and PostgreSQL's own errors (a SQLSTATE such as 3D000 for a missing database).
  return ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EAI_AGAIN'].includes(code) || /^[0-9A-Z]{5}$/.test(code);
}

async function resetSchema(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('DROP SCHEMA IF EXISTS public CASCADE');
    await client.query('CREATE SCHEMA public');
  } finally {
    await client.end();
  }
}

function printSummary(result: SeedResult): void {
  const width = Math.max(...Object.keys(result.counts).map((t) => t.length));
  let total = 0;
  console.log('\nrows loaded:');
  for (const [table, count] of Object.entries(result.counts)) {
    total += count;
    console.log(`  ${table.padEnd(width)}  ${count.toLocaleString('en-US').padStart(11)}`);
  }
  console.log(`  ${'total'.padEnd(width)}  ${total.toLocaleString('en-US').padStart(11)}`);
  console.log(`\norganisations: ${result.orgs.map((o) => `${o.name} (${o.slug})`).join(', ')}`);
  for (const user of result.users) console.log(`sign in: ${user.email} / ${user.password} (${user.role}, ${user.orgSlug})`);
  console.log(`\nseeded in ${(result.elapsedMs / 1000).toFixed(1)} s`);
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: {
        scale: { type: 'string', default: 'demo' },
        seed: { type: 'string' },
        'end-date': { type: 'string' },
        'database-url': { type: 'string' },
        reset: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const url = args['database-url'] ?? process.env.DATABASE_URL;
  if (!url) {
    console.error('no database: pass --database-url or set DATABASE_URL');
    return 2;
  }
  const seed = args.seed === undefined ? undefined : Number(args.seed);
  if (seed !== undefined && !Number.isSafeInteger(seed)) {
    console.error(`--seed must be an integer, got "${args.seed}"`);
    return 2;
  }
  let options;
  try {
    // Checked before anything touches the database (--reset above all).
    options = resolveSeedOptions({ scale: args.scale as Scale, seed, endDate: args['end-date'] });
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }

  const started = performance.now();
  try {
    if (args.reset) {
      console.log('dropping and recreating schema public');
      await resetSchema(url);
    }
    const applied = await applyMigrations(url, console.log);
    if (applied.length === 0) console.log('migrations: up to date');
    const result = await seedDatabase(url, { ...options, log: console.log });
    printSummary(result);
    console.log(`total time including migrations: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } catch (error) {
    if (isExpected(error)) {
      console.error(`seed failed: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then((code) => process.exit(code));
}
