// A rollup migration applied to a database that already holds data must fill its rollups (and the
// running peaks, the organisations' daily totals) from the rows already there, not only from writes that come after it.
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
  '20261125111839_web_people_running_peaks',
  '20261125132925_daily_org_rollups',
  '20261125133725_store_dimensions_org_rollups',
  '20261125195440_ads_age_gender_year_peaks',
  '20261126020000_ads_quarterly_rollup',
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
/** The web-analytics and store daily rows with their resource's organisation. */
const ANALYTICS_WITH_ORG = '(SELECT p.org_id, t.* FROM analytics_dimensions_daily t JOIN analytics_properties p ON p.id = t.analytics_property_id) d';
const STORE_WITH_ORG = '(SELECT s.org_id, t.* FROM store_dimensions_daily t JOIN commerce_stores s ON s.id = t.commerce_store_id) d';
/** Summed over the accounts or properties of an organisation, from the per-account or per-property rollups. */
const ORG_ROLLUPS = [
  { monthly: 'ad_account_breakdowns_org_monthly', tenDay: 'ad_account_breakdowns_org_tenday', daily: 'ad_account_breakdowns_daily', group: 'org_id, breakdown, key1, key2', measure: 'spend' },
  { monthly: 'analytics_dimensions_org_monthly', tenDay: 'analytics_dimensions_org_tenday', daily: 'analytics_dimensions_daily', rows: ANALYTICS_WITH_ORG, group: 'org_id, dimension, key', measure: 'sessions' },
  { monthly: 'store_dimensions_org_monthly', tenDay: 'store_dimensions_org_tenday', daily: 'store_dimensions_daily', rows: STORE_WITH_ORG, group: 'org_id, dimension, key', measure: 'net_sales' },
];
/** The organisation rollups per day of the dimension rows. */
const ORG_DAILY_ROLLUPS = [
  { rollup: 'analytics_dimensions_org_daily', rows: ANALYTICS_WITH_ORG, measure: 'sessions' },
  { rollup: 'store_dimensions_org_daily', rows: STORE_WITH_ORG, measure: 'net_sales' },
];
/** The daily totals summed over an organisation, their daily table and its resources. */
const DAILY_ORG_ROLLUPS = [
  { rollup: 'analytics_org_daily', daily: 'analytics_daily', resources: 'analytics_properties', resource: 'analytics_property_id', measure: 'sessions' },
  { rollup: 'store_org_daily', daily: 'store_daily', resources: 'commerce_stores', resource: 'commerce_store_id', measure: 'net_sales' },
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
    // Undo the web/store rollup migrations, the ads ten-day and quarterly ones and the organisation one while
    // keeping the data, then apply them again (the ads monthly rollups stay: the ads ten-day migration rebuilds them
    // from the blocks).
    const dropped = [...WEB_STORE_ROLLUPS, ...ORG_ROLLUPS].flatMap((r) => [r.monthly, r.tenDay]);
    await client.query(`DROP TABLE ${[...dropped, ...ADS_ROLLUPS.map((r) => r.tenDay)].join(', ')} CASCADE`);
    await client.query(`DROP TABLE ad_account_age_gender_year_peaks, ad_insights_quarterly`);
    await client.query(`DROP FUNCTION ad_insights_quarterly_recompute, ad_insights_quarterly_refresh, ad_insights_quarterly_truncate CASCADE`);
    await client.query(`DROP FUNCTION ad_account_breakdowns_org_recompute, ad_account_age_gender_year_peaks_recompute`);
    await client.query(`DROP TABLE analytics_dimensions_org_daily, analytics_dimensions_block_peaks, analytics_dimensions_year_peaks`);
    await client.query(`DROP FUNCTION analytics_dimensions_peaks_refresh`);
    await client.query(
      `DROP FUNCTION analytics_dimensions_org_refresh, analytics_dimensions_org_daily_refresh, analytics_dimensions_org_rebuild,
         analytics_dimensions_org_daily_sync, analytics_dimensions_org_on_property_change CASCADE`,
    );
    await client.query(`DROP TABLE ${DAILY_ORG_ROLLUPS.map((r) => r.rollup).join(', ')}, store_dimensions_org_daily`);
    await client.query(
      `DROP FUNCTION rollup_figures, org_daily_refresh, org_daily_rebuild, org_daily_sync, org_rollups_on_resource_change, dimensions_type,
         dimensions_org_refresh, dimensions_org_daily_refresh, dimensions_org_rebuild, store_dimensions_org_months_refresh,
         dimensions_org_daily_sync CASCADE`,
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

  it('fills every quarter of the ad insights from the monthly rollup', async () => {
    const { rows } = await client.query<Record<string, string>>(`
      SELECT (SELECT sum(spend)::text FROM ad_insights_quarterly) AS rollup,
             (SELECT sum(spend)::text FROM ad_insights_daily) AS daily,
             (SELECT count(*)::text FROM ad_insights_quarterly) AS groups,
             (SELECT count(DISTINCT (level, entity_id, coalesce(result_type, ''), date_trunc('quarter', date)))::text FROM ad_insights_daily) AS expected_groups`);
    const counts = rows[0]!;
    expect(Number(counts.groups)).toBeGreaterThan(0);
    expect(counts).toEqual({ rollup: counts.daily, daily: counts.daily, groups: counts.expected_groups, expected_groups: counts.expected_groups });
  });

  it('fills every day of the web-analytics and store organisation rollups from the daily rows', async () => {
    for (const r of ORG_DAILY_ROLLUPS) {
      const { rows } = await client.query<{ rollup: string; daily: string; groups: string; expected_groups: string }>(`
        SELECT (SELECT sum(${r.measure})::text FROM ${r.rollup}) AS rollup,
               (SELECT sum(${r.measure})::text FROM ${r.rows}) AS daily,
               (SELECT count(*)::text FROM ${r.rollup}) AS groups,
               (SELECT count(DISTINCT (org_id, dimension, date, key))::text FROM ${r.rows}) AS expected_groups`);
      expect(Number(rows[0]!.groups)).toBeGreaterThan(0);
      expect(rows[0], r.rollup).toEqual({ rollup: rows[0]!.daily, daily: rows[0]!.daily, groups: rows[0]!.expected_groups, expected_groups: rows[0]!.expected_groups });
    }
  });

  it('fills every day of the organisations\' daily totals from the daily rows', async () => {
    for (const r of DAILY_ORG_ROLLUPS) {
      const rows = `(SELECT o.org_id, t.* FROM ${r.daily} t JOIN ${r.resources} o ON o.id = t.${r.resource}) d`;
      const { rows: counts } = await client.query<Record<string, string>>(`
        SELECT (SELECT sum(${r.measure})::text FROM ${r.rollup}) AS rollup,
               (SELECT sum(${r.measure})::text FROM ${rows}) AS daily,
               (SELECT sum(resources)::text FROM ${r.rollup}) AS resource_days,
               (SELECT count(*)::text FROM ${rows}) AS daily_rows,
               (SELECT count(*)::text FROM ${r.rollup}) AS groups,
               (SELECT count(DISTINCT (org_id, date))::text FROM ${rows}) AS expected_groups`);
      const c = counts[0]!;
      expect(Number(c.groups)).toBeGreaterThan(0);
      expect(c, r.rollup).toEqual({ rollup: c.daily, daily: c.daily, resource_days: c.daily_rows, daily_rows: c.daily_rows, groups: c.expected_groups, expected_groups: c.expected_groups });
    }
  });

  it('fills the running peaks of every web-analytics block and year from the rollups', async () => {
    // One row per day of each (property, dimension, block, key) of the ten-day rollup, and per month of
    // each (property, dimension, year, key) of the monthly one; the first day's (month's) peak through the
    // end is the block's (year's) peak, the last one's from the start too.
    const { rows } = await client.query<Record<string, string>>(`
      SELECT (SELECT count(*) FROM analytics_dimensions_block_peaks)::text AS block_rows,
             (SELECT sum(CASE WHEN extract(day FROM block) = 21
                              THEN (date_trunc('month', block) + interval '1 month')::date - block ELSE 10 END)
                FROM analytics_dimensions_tenday)::text AS block_days,
             (SELECT count(*) FROM analytics_dimensions_tenday b
                JOIN analytics_dimensions_block_peaks f ON f.analytics_property_id = b.analytics_property_id AND f.dimension = b.dimension AND f.key = b.key AND f.date = b.block
                JOIN analytics_dimensions_block_peaks l ON l.analytics_property_id = b.analytics_property_id AND l.dimension = b.dimension AND l.key = b.key
                 AND l.date = CASE WHEN extract(day FROM b.block) = 21 THEN (date_trunc('month', b.block) + interval '1 month - 1 day')::date ELSE b.block + 9 END
               WHERE f.total_users_until_end IS NOT DISTINCT FROM b.total_users AND l.total_users_since_start IS NOT DISTINCT FROM b.total_users
                 AND f.active_users_until_end IS NOT DISTINCT FROM b.active_users AND l.active_users_since_start IS NOT DISTINCT FROM b.active_users)::text AS blocks_peaked,
             (SELECT count(*) FROM analytics_dimensions_tenday)::text AS blocks,
             (SELECT count(*) FROM analytics_dimensions_year_peaks)::text AS year_rows,
             (SELECT 12 * count(DISTINCT (analytics_property_id, dimension, key, date_trunc('year', month))) FROM analytics_dimensions_monthly)::text AS year_months,
             (SELECT count(*) FROM (SELECT analytics_property_id, dimension, key, date_trunc('year', month) AS year, max(total_users) AS peak
                                      FROM analytics_dimensions_monthly GROUP BY 1, 2, 3, 4) y
                JOIN analytics_dimensions_year_peaks f ON f.analytics_property_id = y.analytics_property_id AND f.dimension = y.dimension AND f.key = y.key AND f.month = y.year
                JOIN analytics_dimensions_year_peaks l ON l.analytics_property_id = y.analytics_property_id AND l.dimension = y.dimension AND l.key = y.key AND l.month = y.year + interval '11 months'
               WHERE f.total_users_until_end IS NOT DISTINCT FROM y.peak AND l.total_users_since_start IS NOT DISTINCT FROM y.peak)::text AS years_peaked,
             (SELECT count(DISTINCT (analytics_property_id, dimension, key, date_trunc('year', month))) FROM analytics_dimensions_monthly)::text AS years`);
    const counts = rows[0]!;
    expect(Number(counts.blocks)).toBeGreaterThan(0);
    expect(counts).toEqual({
      block_rows: counts.block_days,
      block_days: counts.block_days,
      blocks_peaked: counts.blocks,
      blocks: counts.blocks,
      year_rows: counts.year_months,
      year_months: counts.year_months,
      years_peaked: counts.years,
      years: counts.years,
    });
  });

  it('fills the running peaks of every account\'s age and gender reach from the monthly rollup', async () => {
    // One row per month of each (account, key, year) with age and gender rows; the year's first month's
    // peak through the end is the year's peak, and its last month's from the start too.
    const { rows } = await client.query<Record<string, string>>(`
      WITH years AS (
        SELECT account_id, key1, key2, date_trunc('year', month)::date AS year, max(reach_peak) AS peak
          FROM ad_account_breakdowns_monthly WHERE breakdown = 'age_gender' GROUP BY 1, 2, 3, 4)
      SELECT (SELECT count(*) FROM ad_account_age_gender_year_peaks)::text AS rows,
             (SELECT 12 * count(*) FROM years)::text AS year_months,
             (SELECT count(*) FROM years y
                JOIN ad_account_age_gender_year_peaks f ON f.account_id = y.account_id AND f.key1 = y.key1 AND f.key2 = y.key2 AND f.month = y.year
                JOIN ad_account_age_gender_year_peaks l ON l.account_id = y.account_id AND l.key1 = y.key1 AND l.key2 = y.key2 AND l.month = y.year + interval '11 months'
               WHERE f.reach_until_end = y.peak AND l.reach_since_start = y.peak)::text AS years_peaked,
             (SELECT count(*) FROM years)::text AS years`);
    const counts = rows[0]!;
    expect(Number(counts.years)).toBeGreaterThan(0);
    expect(counts).toEqual({ rows: counts.year_months, year_months: counts.year_months, years_peaked: counts.years, years: counts.years });
  });

  // Last: it empties this test's own database.
  it('empties the rollups when a daily table is truncated', async () => {
    for (const r of ROLLUPS) {
      await client.query(`TRUNCATE ${r.daily}`);
      const { rows } = await client.query<{ monthly: number; ten_day: number }>(
        `SELECT (SELECT count(*)::int FROM ${r.monthly}) AS monthly, (SELECT count(*)::int FROM ${r.tenDay}) AS ten_day`,
      );
      expect(rows[0]).toEqual({ monthly: 0, ten_day: 0 });
    }
    const { rows } = await client.query<{ days: number; block_peaks: number; year_peaks: number }>(
      `SELECT (SELECT count(*)::int FROM analytics_dimensions_org_daily) + (SELECT count(*)::int FROM store_dimensions_org_daily) AS days,
              (SELECT count(*)::int FROM analytics_dimensions_block_peaks) AS block_peaks,
              (SELECT count(*)::int FROM analytics_dimensions_year_peaks) + (SELECT count(*)::int FROM ad_account_age_gender_year_peaks) AS year_peaks`,
    );
    expect(rows[0]).toEqual({ days: 0, block_peaks: 0, year_peaks: 0 });
    expect(Number((await client.query('SELECT count(*) FROM ad_insights_quarterly')).rows[0].count)).toBe(0);
    for (const r of DAILY_ORG_ROLLUPS) {
      expect(Number((await client.query(`SELECT count(*) FROM ${r.rollup}`)).rows[0].count), r.rollup).toBeGreaterThan(0);
      await client.query(`TRUNCATE ${r.daily}`);
      expect(Number((await client.query(`SELECT count(*) FROM ${r.rollup}`)).rows[0].count), r.rollup).toBe(0);
    }
  });
});
