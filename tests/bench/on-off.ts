// What the benchmarks that compare a setting on and off share (bench:request-log, bench:telemetry):
// their database of demo data at scale `tiny`, made once, and the lines that report a case.
import pg from 'pg';
import { sql } from '@/lib/db';
import { applyMigrations } from '@/prisma/migrate';
import { seedDatabase } from '@/prisma/seed';
import { ADMIN_URL, databaseUrl } from '../support/database';
import type { LoadResult } from './load';
import { buildServer } from './server';

/** The database `name` (migrated, demo data at scale `tiny`), created when it does not exist yet. */
async function ensureTinyDatabase(name: string, log: (line: string) => void): Promise<string> {
  const url = databaseUrl(name);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  if (!exists) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  if (!exists) {
    log(`creating ${name}: migrations and demo data (scale tiny)`);
    await applyMigrations(url);
    await seedDatabase(url, { scale: 'tiny', seed: 7, endDate: '2026-06-30' });
  }
  return url;
}

/**
 * Gets a comparison ready: the database `name` (made when missing) as this process's DATABASE_URL, the
 * production build (unless `build` is false), and the organisation whose keys the load uses.
 */
export async function prepareComparison(name: string, build: boolean, log: (line: string) => void): Promise<{ url: string; orgId: string }> {
  const url = await ensureTinyDatabase(name, log);
  process.env.DATABASE_URL = url;
  // The pool holds far more keys than an organisation may (as in run.ts).
  process.env.API_KEYS_PER_ORG_MAX ??= '1000000';
  if (build) await buildServer(url, log);
  const [org] = await sql<{ id: string }>('SELECT id FROM organizations ORDER BY created_at, id LIMIT 1');
  return { url, orgId: org!.id };
}

/** A case's figures with the setting on and off, and the change in throughput it makes. */
export function onOffLine(name: string, setting: string, on: LoadResult, off: LoadResult): string {
  const fmt = (r: LoadResult) => `${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, statuses ${JSON.stringify(r.statuses)}`;
  const change = ((on.requestsPerSecond / off.requestsPerSecond - 1) * 100).toFixed(1);
  return `${name}\n  ${setting} on : ${fmt(on)}\n  ${setting} off: ${fmt(off)}\n  throughput with ${setting} on: ${change} %`;
}
