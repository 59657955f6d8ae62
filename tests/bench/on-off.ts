// What the benchmarks that compare a setting on and off share (bench:request-log, bench:telemetry):
// their database of demo data at scale `tiny`, made once, and the lines that report a case.
import pg from 'pg';
import { applyMigrations } from '@/prisma/migrate';
import { seedDatabase } from '@/prisma/seed';
import { ADMIN_URL, databaseUrl } from '../support/database';
import type { LoadResult } from './load';

/** The database `name` (migrated, demo data at scale `tiny`), created when it does not exist yet. */
export async function ensureTinyDatabase(name: string, log: (line: string) => void): Promise<string> {
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

/** A case's figures with the setting on and off, and the change in throughput it makes. */
export function onOffLine(name: string, setting: string, on: LoadResult, off: LoadResult): string {
  const fmt = (r: LoadResult) => `${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, statuses ${JSON.stringify(r.statuses)}`;
  const change = ((on.requestsPerSecond / off.requestsPerSecond - 1) * 100).toFixed(1);
  return `${name}\n  ${setting} on : ${fmt(on)}\n  ${setting} off: ${fmt(off)}\n  throughput with ${setting} on: ${change} %`;
}
