// A rollup migration applied to a database that already holds data must fill its rollups from the
// rows already there, not only from writes that come after it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '@/prisma/migrate';
import { seedDatabase } from '@/prisma/seed';
import { createDatabase, dropDatabase } from '../support/database';

const WEB_STORE_ROLLUPS = '20261122110000_web_store_rollups';
const ROLLUPS = [
  { monthly: 'analytics_dimensions_monthly', daily: 'analytics_dimensions_daily', resource: 'analytics_property_id', measure: 'sessions' },
  { monthly: 'search_console_dimensions_monthly', daily: 'search_console_dimensions_daily', resource: 'search_console_site_id', measure: 'clicks' },
  { monthly: 'store_dimensions_monthly', daily: 'store_dimensions_daily', resource: 'commerce_store_id', measure: 'net_sales' },
];

describe('rollup migrations on a database that already has data', () => {
  let database: { name: string; url: string };
  let client: pg.Client;

  beforeAll(async () => {
    database = await createDatabase('metrics_backfill');
    await applyMigrations(database.url);
    await seedDatabase(database.url, { scale: 'tiny', seed: 3, endDate: '2026-03-31' });
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    // Undo the web/store rollup migration while keeping the data, then apply it again.
    await client.query(`DROP TABLE ${ROLLUPS.map((r) => r.monthly).join(', ')} CASCADE`);
    await client.query(`DROP FUNCTION dimensions_monthly_sync, dimensions_monthly_truncate CASCADE`);
    for (const r of ROLLUPS) await client.query(`DROP FUNCTION ${r.monthly}_refresh`);
    await client.query('DELETE FROM "_prisma_migrations" WHERE migration_name = $1', [WEB_STORE_ROLLUPS]);
    expect(await applyMigrations(database.url)).toEqual([WEB_STORE_ROLLUPS]);
  });

  afterAll(async () => {
    await client?.end();
    await dropDatabase(database.name);
  });

  it('fills every monthly group from the daily rows', async () => {
    for (const r of ROLLUPS) {
      const { rows } = await client.query<{ monthly: string; daily: string; groups: string; expected_groups: string }>(`
        SELECT (SELECT sum(${r.measure})::text FROM ${r.monthly}) AS monthly,
               (SELECT sum(${r.measure})::text FROM ${r.daily}) AS daily,
               (SELECT count(*)::text FROM ${r.monthly}) AS groups,
               (SELECT count(DISTINCT (${r.resource}, dimension, date_trunc('month', date), key))::text FROM ${r.daily}) AS expected_groups`);
      expect(Number(rows[0]!.groups)).toBeGreaterThan(0);
      expect(rows[0]).toEqual({ monthly: rows[0]!.daily, daily: rows[0]!.daily, groups: rows[0]!.expected_groups, expected_groups: rows[0]!.expected_groups });
    }
  });
});
