// A rollup migration applied to a database that already holds data must fill its rollups from the
// rows already there, not only from writes that come after it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '@/prisma/migrate';
import { seedDatabase } from '@/prisma/seed';
import { createDatabase, dropDatabase } from '../support/database';

const REAPPLIED = [
  '20261122110000_web_store_rollups',
  '20261122120000_web_store_tenday_rollups',
  '20261122130000_ads_tenday_rollups',
  '20261125042700_ads_breakdowns_org_rollups',
  '20261125100000_web_dimensions_org_rollups',
];
/** Each rollup pair, its daily table, the columns its rows are grouped by besides the period, and a figure to compare. */
const WEB_STORE_ROLLUPS = [
  { monthly: 'analytics_dimensions_monthly', tenDay: 'analytics_dimensions_tenday', daily: 'analytics_dimensions_daily', group: 'analytics_property_id, dimension, key', measure: 'sessions' },
  { monthly: 'search_console_dimensions_monthly', tenDay: 'search_console_dimensions_tenday', daily: 'search_console_dimensions_daily', group: 'search_console_site_id, dimension, key', measure: 'clicks' },
  { monthly: 'store_dimensions_monthly', tenDay: 'store_dimensions_tenday', daily: 'store_dimensions_daily', group: 'commerce_store_id, dimension, key', measure: 'net_sales' },
];
const ADS_ROLLUPS = [
  { monthly: 'ad_insights_monthly', tenDay: 'ad_insights_tenday', daily: 'ad_insights_daily', group: "level, entity_id, coalesce(result_type, '')", measure: 'spend' },
  { monthly: 'ad_account_breakdowns_monthly', tenDay: 'ad_account_breakdowns_tenday', daily: 'ad_account_breakdowns_daily', group: 'account_id, breakdown, key1, key2', measure: 'spend' },
];
/** The web-analytics daily rows with their property's organisation. */
const ANALYTICS_WITH_ORG = '(SELECT p.org_id, t.* FROM analytics_dimensions_daily t JOIN analytics_properties p ON p.id = t.analytics_property_id) d';
/** Summed over the accounts or properties of an organisation, from the per-account or per-property rollups. */
const ORG_ROLLUPS = [
  { monthly: 'ad_account_breakdowns_org_monthly', tenDay: 'ad_account_breakdowns_org_tenday', daily: 'ad_account_breakdowns_daily', group: 'org_id, breakdown, key1, key2', measure: 'spend' },
  { monthly: 'analytics_dimensions_org_monthly', tenDay: 'analytics_dimensions_org_tenday', daily: 'analytics_dimensions_daily', rows: ANALYTICS_WITH_ORG, group: 'org_id, dimension, key', measure: 'sessions' },
];
const ROLLUPS: { monthly: string; tenDay: string; daily: string; rows?: string; group: string; measure: string }[] = [...WEB_STORE_ROLLUPS, ...ADS_ROLLUPS, ...ORG_ROLLUPS];

describe('rollup migrations on a database that already has data', () => {
  let database: { name: string; url: string };
  let client: pg.Client;

  beforeAll(async () => {
    database = await createDatabase('metrics_backfill');
    await applyMigrations(database.url);
    await seedDatabase(database.url, { scale: 'tiny', seed: 3, endDate: '2026-03-31' });
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    // Undo the web/store rollup migrations, the ads ten-day one and the organisation one while keeping the
    // data, then apply them again (the ads monthly rollups stay: the ads ten-day migration rebuilds them
    // from the blocks).
    const dropped = [...WEB_STORE_ROLLUPS, ...ORG_ROLLUPS].flatMap((r) => [r.monthly, r.tenDay]);
    await client.query(`DROP TABLE ${[...dropped, ...ADS_ROLLUPS.map((r) => r.tenDay)].join(', ')} CASCADE`);
    await client.query(`DROP FUNCTION ad_account_breakdowns_org_recompute`);
    await client.query(`DROP TABLE analytics_dimensions_org_daily`);
    await client.query(
      `DROP FUNCTION analytics_dimensions_org_refresh, analytics_dimensions_org_daily_refresh, analytics_dimensions_org_rebuild,
         analytics_dimensions_org_daily_sync, analytics_dimensions_org_on_property_change CASCADE`,
    );
    await client.query(`TRUNCATE ${ADS_ROLLUPS.map((r) => r.monthly).join(', ')}`);
    await client.query(`DROP FUNCTION dimensions_monthly_sync, dimensions_monthly_truncate, tenday_block CASCADE`);
    for (const r of WEB_STORE_ROLLUPS) await client.query(`DROP FUNCTION ${r.monthly}_refresh`);
    await client.query('DELETE FROM "_prisma_migrations" WHERE migration_name = ANY($1)', [REAPPLIED]);
    expect(await applyMigrations(database.url)).toEqual(REAPPLIED);
  });

  afterAll(async () => {
    await client?.end();
    await dropDatabase(database.name);
  });

  it('fills every monthly and ten-day group from the daily rows', async () => {
    const periods = [
      { table: 'monthly', period: `date_trunc('month', date)` },
      { table: 'tenDay', period: `date_trunc('month', date) + least((extract(day from date)::int - 1) / 10, 2) * interval '10 days'` },
    ] as const;
    for (const r of ROLLUPS) {
      for (const { table, period } of periods) {
        const { rows } = await client.query<{ rollup: string; daily: string; groups: string; expected_groups: string }>(`
          SELECT (SELECT sum(${r.measure})::text FROM ${r[table]}) AS rollup,
                 (SELECT sum(${r.measure})::text FROM ${r.rows ?? r.daily}) AS daily,
                 (SELECT count(*)::text FROM ${r[table]}) AS groups,
                 (SELECT count(DISTINCT (${r.group}, ${period}))::text FROM ${r.rows ?? r.daily}) AS expected_groups`);
        expect(Number(rows[0]!.groups)).toBeGreaterThan(0);
        expect(rows[0], r[table]).toEqual({ rollup: rows[0]!.daily, daily: rows[0]!.daily, groups: rows[0]!.expected_groups, expected_groups: rows[0]!.expected_groups });
      }
    }
  });

  it('fills every day of the web-analytics organisation rollup from the daily rows', async () => {
    const { rows } = await client.query<{ rollup: string; daily: string; groups: string; expected_groups: string }>(`
      SELECT (SELECT sum(sessions)::text FROM analytics_dimensions_org_daily) AS rollup,
             (SELECT sum(sessions)::text FROM ${ANALYTICS_WITH_ORG}) AS daily,
             (SELECT count(*)::text FROM analytics_dimensions_org_daily) AS groups,
             (SELECT count(DISTINCT (org_id, dimension, date, key))::text FROM ${ANALYTICS_WITH_ORG}) AS expected_groups`);
    expect(Number(rows[0]!.groups)).toBeGreaterThan(0);
    expect(rows[0]).toEqual({ rollup: rows[0]!.daily, daily: rows[0]!.daily, groups: rows[0]!.expected_groups, expected_groups: rows[0]!.expected_groups });
  });

  // Last: it empties this test's own database.
  it('empties both rollups when a daily table is truncated', async () => {
    for (const r of ROLLUPS) {
      await client.query(`TRUNCATE ${r.daily}`);
      const { rows } = await client.query<{ monthly: number; ten_day: number }>(
        `SELECT (SELECT count(*)::int FROM ${r.monthly}) AS monthly, (SELECT count(*)::int FROM ${r.tenDay}) AS ten_day`,
      );
      expect(rows[0]).toEqual({ monthly: 0, ten_day: 0 });
    }
    const { rows } = await client.query<{ days: number }>('SELECT count(*)::int AS days FROM analytics_dimensions_org_daily');
    expect(rows[0]).toEqual({ days: 0 });
  });
});
