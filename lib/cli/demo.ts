// `npm run demo`: the service with demo data and nothing to set up. Uses DATABASE_URL when set,
// otherwise an embedded PostgreSQL in .data/. Migrates, seeds the demo data once, mints a fresh
// demo key with every scope, then runs the production server (built by `npm run demo` before this).
import { spawn } from 'node:child_process';
import pg from 'pg';
import { applyMigrations } from '../../prisma/migrate';
import { seedDatabase } from '../../prisma/seed';
import { SCOPES } from '../auth/scopes';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded-database';

const PORT = Number(process.env.PORT ?? 3000);
const DEMO_ORG = 'demo-agency';
const log = (line: string) => console.log(`[demo] ${line}`);

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

async function main(): Promise<void> {
  let embedded: EmbeddedDatabase | undefined;
  let url = process.env.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedDatabase(log);
    url = embedded.url;
  } else {
    log('using the database in DATABASE_URL');
  }
  process.env.DATABASE_URL = url;

  for (const name of await applyMigrations(url)) log(`applied migration ${name}`);
  if (await isEmpty(url)) {
    log('seeding demo data (first start only)…');
    const result = await seedDatabase(url, { scale: 'demo', log: (line) => log(`  ${line}`) });
    log(`demo data ready in ${(result.elapsedMs / 1000).toFixed(1)} s`);
  }

  // Imported only now: lib/db reads DATABASE_URL when first used.
  const { prisma, closeDb } = await import('../db');
  const { createApiKey } = await import('../auth/api-keys');
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

  const base = `http://localhost:${PORT}`;
  console.log(`
  Metrics API with demo data: ${base}
  Dashboard sign-in:  ${base}/login   admin@demo.agency / demo-password (member@demo.agency sees some clients)
  Demo API key (every scope, shown once):
    ${key}
  Try:  curl -H "Authorization: Bearer ${key}" ${base}/api/v1/clients
  OpenAPI document: ${base}/api/v1/openapi.json
`);

  const server = spawn('npx', ['next', 'start', '-p', String(PORT)], { stdio: 'inherit', env: { ...process.env, DATABASE_URL: url } });
  const shutdown = () => server.kill('SIGTERM');
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  server.on('exit', async (code) => {
    await embedded?.stop();
    process.exit(code ?? 0);
  });
}

main().catch(async (error: Error) => {
  console.error(`[demo] failed: ${error.message}`);
  process.exit(1);
});
