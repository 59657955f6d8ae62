// Prints the size of every MCP tool's default and largest answers for a whole organisation over a year
// (see mcp-sizes.ts) on a fresh database seeded at the given scale (default `demo`); exits 1 when one is
// over its budget. `npm run bench` prints the same table for the `large` dataset.
//   npx tsx tests/bench/mcp-answer-sizes.ts [--scale tiny|demo|large|lists]
import { parseArgs } from 'node:util';
import { applyMigrations } from '../../prisma/migrate';
import { seedDatabase, type Scale } from '../../prisma/seed';
import { createDatabase, dropDatabase } from '../support/database';

const END_DATE = '2026-06-30';
const YEAR = { from: '2025-07-01', to: END_DATE };

const { values } = parseArgs({ options: { scale: { type: 'string', default: 'demo' } } });
const database = await createDatabase('metrics_mcp_sizes');
try {
  await applyMigrations(database.url);
  const seed = await seedDatabase(database.url, { scale: values.scale as Scale, seed: 1, endDate: END_DATE });
  process.env.DATABASE_URL = database.url;
  const { budgetMisses, measureToolAnswers, sizeTable } = await import('./mcp-sizes');
  const { closeDb } = await import('../../lib/db');
  const org = seed.orgs.find((entry) => entry.slug === 'demo-agency')!;
  const sizes = await measureToolAnswers(org, YEAR);
  console.log(`scale ${values.scale}, ${YEAR.from}…${YEAR.to}, whole organisation\n${sizeTable(sizes)}`);
  if (budgetMisses(sizes).length > 0) process.exitCode = 1;
  await closeDb();
} finally {
  await dropDatabase(database.name);
}
process.exit();
