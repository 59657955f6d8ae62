// The demo's database contents, for `npm run demo` and `npm run demo:cluster` alike: the migrations,
// the demo data (seeded once, into an empty database) and a fresh demo key.
import pg from 'pg';
import { createApiKey } from '../lib/keys/issuing';
import { SCOPES } from '../lib/contract/scopes';
import { closeDb, prisma } from '../lib/db';
import { applyMigrations } from '../prisma/migrate';
import { seedDatabase, type Scale } from '../prisma/seed';

const DEMO_ORG = 'demo-agency';

async function isEmpty(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
    return rows[0]!.n === 0;
  } finally {
    await client.end();
  }
}

/** Applies the migrations not yet applied, and seeds the demo data when the database has none. */
export async function prepareDemoDatabase(url: string, log: (line: string) => void, scale: Scale = 'demo'): Promise<void> {
  for (const name of await applyMigrations(url)) log(`applied migration ${name}`);
  if (await isEmpty(url)) {
    log(`seeding demo data at the ${scale} scale (first start only)…`);
    const result = await seedDatabase(url, { scale, log: (line) => log(`  ${line}`) });
    log(`demo data ready in ${(result.elapsedMs / 1000).toFixed(1)} s`);
  }
}

/**
 * Mints a key with every scope for the demo organisation, in the database of DATABASE_URL (lib/db
 * reads it when it first connects), and closes that connection.
 */
export async function mintDemoKey(): Promise<string> {
  const org = await prisma().organization.findUniqueOrThrow({ where: { slug: DEMO_ORG } });
  const { key } = await createApiKey({
    orgId: org.id,
    name: `demo key ${new Date().toISOString().slice(0, 16)}`,
    scopes: [...SCOPES],
    clientIds: null,
    expiresAt: null,
    createdById: null,
  });
  await closeDb();
  return key;
}
