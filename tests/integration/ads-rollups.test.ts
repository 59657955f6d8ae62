// The ads rollups (ad_insights_monthly, _tenday and _quarterly, ad_insights_org_daily, ad_account_breakdowns_monthly
// and _tenday, ad_account_breakdowns_org_monthly and _org_tenday, and the running peaks of the age and gender
// reach, ad_account_age_gender_year_peaks) are kept by database triggers: they
// must equal the daily rows after the seed's COPY and after any insert, update (also one moving a row
// to another month or entity) and delete; and the endpoints, which read whole quarters, whole months and
// whole ten-day blocks from the rollups and the other days from the daily tables, must give over ranges with partial
// months exactly the figures computed from the daily rows.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { sql } from '@/lib/db';
import type { Meta } from '@/lib/contract/envelope';
import { adsEntitiesOperation, adsOverviewOperation } from '@/lib/metrics/ads/operations';
import type { AdsEntitiesData, AdsOverviewData } from '@/lib/metrics/ads/schemas';
import { api, mintKey } from '../support/api';
import { expectContract } from '../support/contract';
import {
  createAccount,
  createCampaign,
  createOrg,
  dropOrg,
  expectedResults,
  inRange,
  insertInsights,
  storedInsights,
  sumMoney,
  type StoredInsight,
} from './ads-fixtures';

const seed = inject('seed');
const org = seed.orgs[0]!;
const otherOrg = seed.orgs[1]!;

// Each statement lists the rows of one side that the other lacks: both empty means equal.
// The expectation is the aggregation of the daily rows written here, independently of the migration.
// The period of a day in each rollup: its month, its ten-day block (days 1-10, 11-20, 21 to the end), or
// (insights only) its calendar quarter.
const PERIODS = {
  monthly: `date_trunc('month', date)::date`,
  tenday: `(date_trunc('month', date) + least((extract(day from date)::int - 1) / 10, 2) * interval '10 days')::date`,
  quarterly: `date_trunc('quarter', date)::date`,
};
type Period = keyof typeof PERIODS;
const PERIOD_COLUMN: Record<Period, string> = { monthly: 'month', tenday: 'block', quarterly: 'quarter' };

const insightsExpected = (period: Period) => `
  SELECT level::text, entity_id, ${PERIODS[period]}::text AS period, coalesce(result_type, '') AS result_type,
         count(*)::int AS days, sum(spend)::text AS spend, (sum(spend) FILTER (WHERE results IS NOT NULL))::text AS reported_spend,
         sum(impressions)::text AS impressions, sum(clicks)::text AS clicks, sum(link_clicks)::text AS link_clicks,
         sum(reach)::text AS reach_sum, max(reach)::text AS reach_peak, sum(results)::text AS results,
         sum(video_views)::text AS video_views, sum(video_p100)::text AS video_p100, sum(purchase_value)::text AS purchase_value,
         account_id, campaign_id, ad_set_id, ad_id, true AS spend_float_is_spend
    FROM ad_insights_daily WHERE org_id = $1
   GROUP BY level, entity_id, ${PERIODS[period]}, coalesce(result_type, ''), account_id, campaign_id, ad_set_id, ad_id`;
const insightsActual = (period: Period) => `
  SELECT level::text, entity_id, ${PERIOD_COLUMN[period]}::text, result_type, days, spend::text, reported_spend::text, impressions::text, clicks::text,
         link_clicks::text, reach_sum::text, reach_peak::text, results::text, video_views::text, video_p100::text, purchase_value::text,
         account_id, campaign_id, ad_set_id, ad_id, spend_float = spend::float8
    FROM ad_insights_${period} WHERE org_id = $1`;
const ORG_DAILY_EXPECTED = `
  SELECT level::text, date::text, coalesce(result_type, '') AS result_type, count(*)::int AS row_count, sum(spend)::text AS spend,
         (sum(spend) FILTER (WHERE results IS NOT NULL))::text AS reported_spend, sum(impressions)::text AS impressions,
         sum(clicks)::text AS clicks, sum(reach)::text AS reach_sum, sum(results)::text AS results, sum(thruplays)::text AS thruplays
    FROM ad_insights_daily WHERE org_id = $1 AND level IN ('account', 'campaign')
   GROUP BY level, date, coalesce(result_type, '')`;
const ORG_DAILY_ACTUAL = `
  SELECT level::text, date::text, result_type, row_count, spend::text, reported_spend::text, impressions::text, clicks::text,
         reach_sum::text, results::text, thruplays::text
    FROM ad_insights_org_daily WHERE org_id = $1`;
const breakdownsExpected = (period: Period) => `
  SELECT account_id, breakdown::text, ${PERIODS[period]}::text AS period, key1, key2, count(*)::int AS days,
         sum(spend)::text AS spend, sum(impressions)::text AS impressions, sum(clicks)::text AS clicks, max(reach)::text AS reach_peak
    FROM ad_account_breakdowns_daily WHERE org_id = $1
   GROUP BY account_id, breakdown, ${PERIODS[period]}, key1, key2`;
const breakdownsActual = (period: Period) => `
  SELECT account_id, breakdown::text, ${PERIOD_COLUMN[period]}::text, key1, key2, days, spend::text, impressions::text, clicks::text, reach_peak::text
    FROM ad_account_breakdowns_${period} WHERE org_id = $1`;

// The per-organisation breakdown rollups: the sums over every account of the organisation.
const orgBreakdownsExpected = (period: Period) => `
  SELECT breakdown::text, ${PERIODS[period]}::text AS period, key1, key2, count(*)::int AS row_count,
         sum(spend)::text AS spend, sum(impressions)::text AS impressions, sum(clicks)::text AS clicks
    FROM ad_account_breakdowns_daily WHERE org_id = $1
   GROUP BY breakdown, ${PERIODS[period]}, key1, key2`;
const orgBreakdownsActual = (period: Period) => `
  SELECT breakdown::text, ${PERIOD_COLUMN[period]}::text, key1, key2, row_count, spend::text, impressions::text, clicks::text
    FROM ad_account_breakdowns_org_${period} WHERE org_id = $1`;

// The running peaks of the age and gender reach: for every month of each year in which an account's key
// has rows, the highest daily reach of the key from the year's first month through that one, and from
// that one through the year's last (null when none).
const YEAR_PEAKS_EXPECTED = `SELECT * FROM (
  WITH months AS (
    SELECT account_id, key1, key2, org_id, date_trunc('month', date)::date AS month, max(reach) AS peak
      FROM ad_account_breakdowns_daily WHERE org_id = $1 AND breakdown = 'age_gender'
     GROUP BY account_id, key1, key2, org_id, date_trunc('month', date)),
  cells AS (
    SELECT k.account_id, k.key1, k.key2, k.org_id, k.year, g.month::date AS month
      FROM (SELECT DISTINCT account_id, key1, key2, org_id, date_trunc('year', month)::date AS year FROM months) k
      CROSS JOIN generate_series(k.year, k.year + interval '11 months', interval '1 month') AS g(month))
  SELECT c.account_id, c.month::text, c.key1, c.key2, c.org_id,
         (max(m.peak) FILTER (WHERE m.month <= c.month))::text AS reach_since_start,
         (max(m.peak) FILTER (WHERE m.month >= c.month))::text AS reach_until_end
    FROM cells c
    JOIN months m ON m.account_id = c.account_id AND m.key1 = c.key1 AND m.key2 = c.key2 AND date_trunc('year', m.month) = c.year
   GROUP BY c.account_id, c.month, c.key1, c.key2, c.org_id) expected`;
const YEAR_PEAKS_ACTUAL = `
  SELECT account_id, month::text, key1, key2, org_id, reach_since_start::text, reach_until_end::text
    FROM ad_account_age_gender_year_peaks WHERE org_id = $1`;

async function differences(orgId: string, expected: string, actual: string) {
  const [missing, extra] = await Promise.all([
    sql(`${expected} EXCEPT ALL ${actual}`, [orgId]),
    sql(`${actual} EXCEPT ALL ${expected}`, [orgId]),
  ]);
  return { missing, extra };
}

/** Asserts that every rollup of the organisation equals the aggregation of its daily rows (and is not trivially empty). */
async function expectRollupsMatchDaily(orgId: string): Promise<void> {
  const none = { missing: [], extra: [] };
  for (const period of ['monthly', 'tenday', 'quarterly'] as const) {
    expect(await differences(orgId, insightsExpected(period), insightsActual(period)), `ad_insights_${period}`).toEqual(none);
  }
  for (const period of ['monthly', 'tenday'] as const) {
    expect(await differences(orgId, breakdownsExpected(period), breakdownsActual(period)), `ad_account_breakdowns_${period}`).toEqual(none);
    expect(await differences(orgId, orgBreakdownsExpected(period), orgBreakdownsActual(period)), `ad_account_breakdowns_org_${period}`).toEqual(none);
  }
  expect(await differences(orgId, ORG_DAILY_EXPECTED, ORG_DAILY_ACTUAL)).toEqual(none);
  expect(await differences(orgId, YEAR_PEAKS_EXPECTED, YEAR_PEAKS_ACTUAL), 'ad_account_age_gender_year_peaks').toEqual(none);
}

async function rollupCount(orgId: string): Promise<number> {
  const [row] = await sql<{ n: number }>(
    `SELECT (SELECT count(*) FROM ad_insights_monthly WHERE org_id = $1) + (SELECT count(*) FROM ad_insights_org_daily WHERE org_id = $1)
          + (SELECT count(*) FROM ad_account_breakdowns_monthly WHERE org_id = $1)
          + (SELECT count(*) FROM ad_insights_tenday WHERE org_id = $1) + (SELECT count(*) FROM ad_account_breakdowns_tenday WHERE org_id = $1)
          + (SELECT count(*) FROM ad_insights_quarterly WHERE org_id = $1)
          + (SELECT count(*) FROM ad_account_breakdowns_org_monthly WHERE org_id = $1)
          + (SELECT count(*) FROM ad_account_breakdowns_org_tenday WHERE org_id = $1)
          + (SELECT count(*) FROM ad_account_age_gender_year_peaks WHERE org_id = $1) AS n`,
    [orgId],
  );
  return Number(row!.n);
}

describe('ads rollups after the seed', () => {
  it('equal the daily rows of both seeded organisations (loaded by COPY)', async () => {
    for (const orgId of [org.id, otherOrg.id]) {
      expect(await rollupCount(orgId)).toBeGreaterThan(0);
      await expectRollupsMatchDaily(orgId);
    }
  });
});

describe('ads rollups under inserts, updates and deletes', () => {
  let orgId: string;
  let account: string;
  let campaign: string;
  let otherCampaign: string;

  beforeAll(async () => {
    orgId = await createOrg('Rollup Org');
    account = (await createAccount(orgId, { clientId: null, name: 'Rollup account', currency: 'INR' })).id;
    campaign = (await createCampaign(orgId, account, 'Rollup campaign', 'purchase')).id;
    otherCampaign = (await createCampaign(orgId, account, 'Other campaign', 'lead')).id;
  });

  afterAll(async () => {
    await dropOrg(orgId);
  });

  async function insertBreakdowns(rows: { date: string; key1: string; key2: string; spend: string; reach: number }[]) {
    for (const r of rows) {
      await sql(
        `INSERT INTO ad_account_breakdowns_daily (org_id, account_id, breakdown, date, key1, key2, spend, impressions, clicks, reach)
         VALUES ($1, $2, 'age_gender', $3, $4, $5, $6, 100, 7, $7)`,
        [orgId, account, r.date, r.key1, r.key2, r.spend, r.reach],
      );
    }
  }

  it('follow every write, including rows that move to another month or entity', async () => {
    const campaignRow = (date: string, spend: string, reach: number, results: number | null, resultType: string | null = 'purchase') => ({
      level: 'campaign' as const,
      entityId: campaign,
      accountId: account,
      campaignId: campaign,
      date,
      spend,
      impressions: 1000,
      reach,
      clicks: 10,
      results,
      resultType,
    });
    // One multi-row statement spanning two months, with null results and two result types.
    await insertInsights(orgId, [
      campaignRow('2026-01-30', '10.10', 300, 2),
      campaignRow('2026-01-31', '20.20', 500, null),
      campaignRow('2026-02-01', '30.30', 400, 1),
      campaignRow('2026-02-02', '5.00', 100, 3, null),
      { level: 'account', entityId: account, accountId: account, date: '2026-01-31', spend: '20.20', impressions: 900, reach: 450, clicks: 9 },
      { level: 'account', entityId: account, accountId: account, date: '2026-02-01', spend: '30.30', impressions: 800, reach: 350, clicks: 8 },
    ]);
    await insertBreakdowns([
      { date: '2026-01-31', key1: '25-34', key2: 'female', spend: '1.00', reach: 50 },
      { date: '2026-02-01', key1: '25-34', key2: 'female', spend: '2.00', reach: 70 },
    ]);
    expect(await rollupCount(orgId)).toBeGreaterThan(0);
    await expectRollupsMatchDaily(orgId);

    // Updates of figures (one lowers the month's peak reach), then a row moving from January to March.
    await sql(`UPDATE ad_insights_daily SET spend = spend + 1.05, reach = 10, results = 4 WHERE entity_id = $1 AND date = '2026-01-31'`, [campaign]);
    await sql(`UPDATE ad_insights_daily SET date = '2026-03-15' WHERE entity_id = $1 AND date = '2026-01-30'`, [campaign]);
    await sql(`UPDATE ad_account_breakdowns_daily SET date = '2026-03-02', reach = 5 WHERE account_id = $1 AND date = '2026-02-01'`, [account]);
    await expectRollupsMatchDaily(orgId);
    const [january] = await sql<{ days: number; reach_peak: string }>(
      `SELECT days, reach_peak::text FROM ad_insights_monthly WHERE entity_id = $1 AND month = '2026-01-01'`,
      [campaign],
    );
    expect(january).toEqual({ days: 1, reach_peak: '10' });

    // A row moving to another entity, then deletes that empty a month and a day.
    await sql(`UPDATE ad_insights_daily SET entity_id = $2, campaign_id = $2, result_type = 'lead' WHERE entity_id = $1 AND date = '2026-02-01'`, [
      campaign,
      otherCampaign,
    ]);
    await expectRollupsMatchDaily(orgId);
    await sql(`DELETE FROM ad_insights_daily WHERE org_id = $1 AND date = '2026-01-31'`, [orgId]);
    await sql(`DELETE FROM ad_account_breakdowns_daily WHERE account_id = $1 AND date = '2026-01-31'`, [account]);
    await expectRollupsMatchDaily(orgId);
    const january2 = await sql(`SELECT 1 FROM ad_insights_monthly WHERE org_id = $1 AND month = '2026-01-01'`, [orgId]);
    const day = await sql(`SELECT 1 FROM ad_insights_org_daily WHERE org_id = $1 AND date = '2026-01-31'`, [orgId]);
    const breakdownJanuary = await sql(`SELECT 1 FROM ad_account_breakdowns_monthly WHERE account_id = $1 AND month = '2026-01-01'`, [account]);
    expect([january2.length, day.length, breakdownJanuary.length]).toEqual([0, 0, 0]);
    // The key's only row left in 2026 is March's (reach 5): every month of the year still has its row.
    const peaks = await sql(
      `SELECT month::text, reach_since_start::text, reach_until_end::text FROM ad_account_age_gender_year_peaks
        WHERE account_id = $1 AND month IN ('2026-01-01', '2026-03-01', '2026-12-01') ORDER BY month`,
      [account],
    );
    expect(peaks).toEqual([
      { month: '2026-01-01', reach_since_start: null, reach_until_end: '5' },
      { month: '2026-03-01', reach_since_start: '5', reach_until_end: '5' },
      { month: '2026-12-01', reach_since_start: '5', reach_until_end: null },
    ]);
  });

  it('leave other organisations alone', async () => {
    const before = await rollupCount(otherOrg.id);
    const stranger = randomUUID();
    await insertInsights(orgId, [{ level: 'account', entityId: stranger, accountId: stranger, date: '2026-04-01', spend: '1.00', impressions: 1, reach: 1, clicks: 0 }]);
    expect(await rollupCount(otherOrg.id)).toBe(before);
    await expectRollupsMatchDaily(orgId);
  });
});

// The seeded rows run from 2 May to 30 June 2026.
describe.each([
  // Whole March and April from the monthly rollups, 21–28 February from the ten-day ones, 14–20 February
  // and 1–9 May from the daily rows.
  ['2026-02-14', '2026-05-09'],
  // The entity lists: April to June from the quarterly rollup, 25–31 March from the daily rows.
  ['2026-03-25', '2026-06-30'],
  // The entity lists: January to March from the quarterly rollup and April and May from the monthly one
  // after it; 21–31 December from the ten-day one, 14–20 December from the daily rows.
  ['2025-12-14', '2026-05-31'],
  // The entity lists: May and June from the monthly rollup before July to September from the quarterly one.
  ['2026-05-01', '2026-09-30'],
])('ads endpoints over ranges with partial months and quarters, %s to %s', (FROM, TO) => {
  let key: string;
  let insights: StoredInsight[];

  beforeAll(async () => {
    key = await mintKey({ orgId: org.id, scopes: ['ads:read'] });
    insights = await storedInsights(org.id);
  });

  it('lists each level with the figures of its daily rows', async () => {
    for (const level of ['campaign', 'adset', 'ad'] as const) {
      const response = await api(`/api/v1/ads/entities?level=${level}&from=${FROM}&to=${TO}`, { key });
      const body = await expectContract<{ data: AdsEntitiesData; meta: Meta }>(adsEntitiesOperation, response);
      const ofLevel = inRange(insights, FROM, TO).filter((r) => r.level === level);
      const ids = [...new Set(ofLevel.map((r) => r.entity_id))];
      const expected = ids
        .map((id) => {
          const own = ofLevel.filter((r) => r.entity_id === id);
          const impressions = own.reduce((n, r) => n + r.impressions, 0);
          const outcome = expectedResults(own);
          return {
            id,
            spend: sumMoney(own.map((r) => r.spend)),
            impressions,
            clicks: own.reduce((n, r) => n + r.clicks, 0),
            reach: Math.max(...own.map((r) => r.reach)),
            frequency: expect.closeTo(impressions / own.reduce((n, r) => n + r.reach, 0), 10),
            results: outcome.results,
            resultType: outcome.resultType,
          };
        })
        .sort((a, b) => b.spend - a.spend);
      expect(expected.length).toBeGreaterThan(1);
      const figures = body.data.rows.map((r) => ({
        id: r.id,
        spend: r.spend,
        impressions: r.impressions,
        clicks: r.clicks,
        reach: r.reach,
        frequency: r.frequency,
        results: r.results,
        resultType: r.resultType,
      }));
      // Ties in spend are ordered by name: compare as sets keyed by id, the order by spend separately.
      expect(new Map(figures.map((f) => [f.id, f]))).toEqual(new Map(expected.map((f) => [f.id, f])));
      expect(figures.map((f) => f.spend)).toEqual(expected.map((f) => f.spend));
    }
  });

  it('gives the overview KPIs, series, campaigns and widgets of the daily rows', async () => {
    const response = await api(`/api/v1/ads/overview?from=${FROM}&to=${TO}`, { key });
    const { data } = await expectContract<{ data: AdsOverviewData; meta: Meta }>(adsOverviewOperation, response);
    const accountRows = inRange(insights, FROM, TO).filter((r) => r.level === 'account');
    const campaignRows = inRange(insights, FROM, TO).filter((r) => r.level === 'campaign');
    const outcome = expectedResults(campaignRows);
    const reachByDay = new Map<string, number>();
    for (const r of accountRows) reachByDay.set(r.date, (reachByDay.get(r.date) ?? 0) + r.reach);
    expect({ spend: data.kpis.spend, impressions: data.kpis.impressions, reach: data.kpis.reach, results: data.kpis.results, resultType: data.kpis.resultType }).toEqual({
      spend: sumMoney(accountRows.map((r) => r.spend)),
      impressions: accountRows.reduce((n, r) => n + r.impressions, 0),
      reach: Math.max(...reachByDay.values()),
      results: outcome.results ?? 0,
      resultType: outcome.resultType,
    });
    const resultsOn = (date: string) =>
      campaignRows.filter((r) => r.date === date && r.result_type === outcome.resultType).reduce((n, r) => n + (r.results ?? 0), 0);
    const spendOn = (date: string) => sumMoney(accountRows.filter((r) => r.date === date).map((r) => r.spend));
    expect(data.series.map((p) => [p.date, p.spend, p.reach, p.results])).toEqual(
      data.series.map((p) => [p.date, spendOn(p.date), reachByDay.get(p.date) ?? 0, resultsOn(p.date)]),
    );
    expect(data.series[0]!.date).toBe(FROM);
    expect(data.series.at(-1)!.date).toBe(TO);

    const campaignSpend = new Map<string, number>();
    for (const id of new Set(campaignRows.map((r) => r.entity_id))) {
      campaignSpend.set(id, sumMoney(campaignRows.filter((r) => r.entity_id === id).map((r) => r.spend)));
    }
    expect(new Map(data.campaigns.map((c) => [c.id, c.spend]))).toEqual(campaignSpend);

    await expectAgeGenderOfDailyRows(data, org.id, FROM, TO);
  });
});

describe('the age and gender reach over ranges across a new year', () => {
  // Two accounts with rows from October 2025 to March 2026, the highest reach of a key in a different
  // month for each: whole months up to a new year, from one, both, and inside one year.
  let orgId: string;
  let key: string;

  beforeAll(async () => {
    orgId = await createOrg('Peaks Org');
    key = await mintKey({ orgId, scopes: ['ads:read'] });
    const accounts = [
      (await createAccount(orgId, { clientId: null, name: 'Peaks A', currency: 'INR' })).id,
      (await createAccount(orgId, { clientId: null, name: 'Peaks B', currency: 'INR' })).id,
    ];
    const days = ['2025-10-20', '2025-11-05', '2025-12-30', '2026-01-02', '2026-02-14', '2026-03-05'];
    for (const [a, account] of accounts.entries()) {
      for (const [d, date] of days.entries()) {
        for (const [k, [age, gender]] of [['25-34', 'female'], ['35-44', 'male']].entries()) {
          // A different peak day per account and key: reach 10-15, plus 50 on one day.
          const reach = 10 + d + (d === (a * 2 + k * 3) % days.length ? 50 : 0);
          await sql(
            `INSERT INTO ad_account_breakdowns_daily (org_id, account_id, breakdown, date, key1, key2, spend, impressions, clicks, reach)
             VALUES ($1, $2, 'age_gender', $3, $4, $5, '1.00', 100, 7, $6)`,
            [orgId, account, date, age, gender, reach],
          );
        }
      }
    }
  });

  afterAll(async () => {
    await dropOrg(orgId);
  });

  it('keeps the running peaks of its rows', async () => {
    await expectRollupsMatchDaily(orgId);
  });

  it.each([
    ['2025-11-01', '2026-02-28'],
    ['2025-10-14', '2026-03-09'],
    ['2025-12-01', '2025-12-31'],
    ['2026-01-01', '2026-01-31'],
    ['2026-02-01', '2026-03-31'],
    ['2025-10-01', '2026-09-30'],
  ])('gives the widget of the daily rows from %s to %s', async (from, to) => {
    const response = await api(`/api/v1/ads/overview?from=${from}&to=${to}`, { key });
    const { data } = await expectContract<{ data: AdsOverviewData; meta: Meta }>(adsOverviewOperation, response);
    await expectAgeGenderOfDailyRows(data, orgId, from, to);
  });
});

/** The age and gender widget: per key the spend summed, and the reach as each account's peak day summed over the accounts. */
async function expectAgeGenderOfDailyRows(data: AdsOverviewData, orgId: string, from: string, to: string) {
  const breakdowns = await sql<{ account_id: string; key1: string; key2: string; spend: string; reach: number }>(
    `SELECT account_id, key1, key2, spend::text, reach::float8 AS reach FROM ad_account_breakdowns_daily
      WHERE org_id = $1 AND breakdown = 'age_gender' AND date BETWEEN $2 AND $3`,
    [orgId, from, to],
  );
    const widget = new Map<string, { spend: number; reach: number }>();
    for (const k of new Set(breakdowns.map((b) => `${b.key1}/${b.key2}`))) {
      const of = breakdowns.filter((b) => `${b.key1}/${b.key2}` === k);
      const peaks = new Map<string, number>();
      for (const b of of) peaks.set(b.account_id, Math.max(peaks.get(b.account_id) ?? 0, b.reach));
      widget.set(k, { spend: sumMoney(of.map((b) => b.spend)), reach: [...peaks.values()].reduce((n, p) => n + p, 0) });
    }
  expect(widget.size).toBeGreaterThan(0);
  expect(new Map(data.widgets.ageGender.map((g) => [`${g.age}/${g.gender}`, { spend: g.spend, reach: g.reach }]))).toEqual(widget);
}
