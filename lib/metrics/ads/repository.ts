// The SQL of the ads endpoints. Each function is one planned statement with its aggregates in the
// database (money is summed exactly there); numeric and bigint columns come back as strings and are
// parsed by mapping.ts. Every statement filters ad_insights_daily by org, level and date first, so that
// it runs on the (org_id, level, date), (account_id, level, date) or primary-key index.
// Figures over a range that need no daily detail are read from the rollups (ad_insights_quarterly,
// _monthly and _tenday, ad_account_breakdowns_monthly and _tenday, and for a whole organisation's breakdown
// sums ad_account_breakdowns_org_monthly and _org_tenday; kept exact by database triggers, see migrations
// 20261122100000_ads_rollups, 20261122130000_ads_tenday_rollups, 20261125042700_ads_breakdowns_org_rollups
// and 20261126020000_ads_quarterly_rollup): the whole IST months inside the range from the monthly rollup
// (for the entity lists, its whole calendar quarters from the quarterly one), the whole ten-day blocks of
// its partial months from the ten-day one, the other days from the daily table (see range-split.ts),
// UNION ALL, then aggregated per entity or key. Peaks (reach) are the max of the parts. The daily series of a whole
// organisation come from ad_insights_org_daily (same triggers).
import type { Reach } from '../../auth/reach';
import { reachCondition } from '../../auth/reach';
import { readSql as sql, SqlParams } from '../../db';
import { UUID_PATTERN } from '../../text/uuid';
import type { DayRange } from '../../time/day-range';
import { daysAsBlocks, monthsAsPeakStretches, monthsAsQuarters, splitRange } from '../range-split';
import type { AdLevel } from './schemas';

export type InsightLevel = 'account' | AdLevel;

/**
 * Which daily insight rows a figure is read from: one level, and either some entities' own rows (through
 * the primary key) or the rows of a set of accounts (`accountIds: null` = every account of the
 * organisation, which lets the statement run on the (org_id, level, date) index instead of
 * (account_id, level, date)).
 */
export type InsightRows = { orgId: string; level: InsightLevel } & ({ entityIds: string[] } | { accountIds: string[] | null });

/** The row filter as a condition on a table alias (the daily table and the rollups share the columns). */
function insightCondition(params: SqlParams, rows: InsightRows): (alias: string) => string {
  const org = params.add(rows.orgId);
  const level = params.add(rows.level);
  const [column, narrowing] =
    'entityIds' in rows
      ? ['entity_id', `= ANY(${params.add(rows.entityIds)}::uuid[])`]
      : rows.accountIds !== null
        ? ['account_id', `= ANY(${params.add(rows.accountIds)}::uuid[])`]
        : [null, ''];
  return (alias) => `${alias}.org_id = ${org}::uuid AND ${alias}.level = ${level}::"AdLevel"${column ? ` AND ${alias}.${column} ${narrowing}` : ''}`;
}

/** Where a part of a range is read: the daily table, or the ten-day, monthly or quarterly rollup with its period column. */
type PartSource = { daily: true } | { daily: false; rollup: 'tenday' | 'monthly' | 'quarterly'; period: 'block' | 'month' | 'quarter' };

interface RangePart {
  source: PartSource;
  /** The part's days (for a rollup, the first day of its first and of its last period). */
  range: DayRange;
  /**
   * Bounds as parameters (inclusive), added on first use: a statement that reads a part some other way
   * (the reach of whole months, from running peaks) leaves no parameter unused, which PostgreSQL could not type.
   */
  readonly from: string;
  readonly to: string;
  /** -1: rows to subtract (see daysAsBlocks). */
  sign: 1 | -1;
}

/**
 * The parts of a range as the rollups read it (see range-split.ts). With `daysAsBlocks`, for sums
 * only, the days of its partial blocks are read as blocks less days where that reads fewer rows. With
 * `quarters` (the insight rows only: ad_insights_quarterly has no breakdown counterpart), its whole
 * calendar quarters are read from the quarterly rollup and only the months around them month by month.
 */
function rangeParts(p: SqlParams, range: DayRange, options: { daysAsBlocks?: boolean; quarters?: boolean } = {}): RangePart[] {
  const split = splitRange(range);
  const tenDay: PartSource = { daily: false, rollup: 'tenday', period: 'block' };
  const monthly: PartSource = { daily: false, rollup: 'monthly', period: 'month' };
  const quarterly: PartSource = { daily: false, rollup: 'quarterly', period: 'quarter' };
  const part = (source: PartSource, range: DayRange, sign: 1 | -1 = 1): RangePart => {
    let from: string | undefined;
    let to: string | undefined;
    return {
      source,
      range,
      sign,
      get from() {
        return (from ??= p.add(range.from));
      },
      get to() {
        return (to ??= p.add(range.to));
      },
    };
  };
  const days = (stretch: DayRange | null): RangePart[] => {
    if (!stretch) return [];
    if (!options.daysAsBlocks) return [part({ daily: true }, stretch)];
    return daysAsBlocks(stretch).map(({ unit, range: read, sign }) => part(unit === 'block' ? tenDay : { daily: true }, read, sign));
  };
  const months = (stretch: DayRange | null): RangePart[] => {
    if (!stretch) return [];
    if (!options.quarters) return [part(monthly, stretch)];
    const { headMonths, quarters, tailMonths } = monthsAsQuarters(stretch);
    return [...(quarters ? [part(quarterly, quarters)] : []), ...[headMonths, tailMonths].flatMap((edge) => (edge ? [part(monthly, edge)] : []))];
  };
  return [
    ...months(split.months),
    ...[split.headBlocks, split.tailBlocks].flatMap((blocks) => (blocks ? [part(tenDay, blocks)] : [])),
    ...days(split.headDays),
    ...days(split.tailDays),
  ];
}

/** The accounts a request reads, as an insight-row filter: null when it reads the whole organisation. */
export function accountFilter(reach: Reach, accounts: { id: string }[]): string[] | null {
  return reach.clientIds === null ? null : accounts.map((account) => account.id);
}

// ───────────── accounts and entities in reach ─────────────

export interface AccountRow {
  id: string;
  platform_account_id: string;
  name: string;
  currency: string | null;
  client_id: string | null;
  client_name: string | null;
  balance: string | null;
  low_balance_threshold: string | null;
  /** The balance is under the account's low-balance threshold (both reported). */
  low_balance: boolean;
  /** Sums over all the returned accounts (window aggregates), exact. */
  total_balance: string | null;
  total_spent: string | null;
  total_cap: string | null;
}

/** The ad accounts in reach (optionally only one of them), with their funds summed exactly. Index: ad_accounts (org_id, client_id). */
export function accountsInReach(reach: Reach, onlyAccountId?: string): Promise<AccountRow[]> {
  return sql<AccountRow>(
    `SELECT a.id, a.platform_account_id, a.name, a.currency, a.client_id, c.name AS client_name,
            a.balance::text, a.low_balance_threshold::text,
            coalesce(a.balance < a.low_balance_threshold, false) AS low_balance,
            (sum(a.balance) OVER ())::text AS total_balance,
            (sum(a.amount_spent) OVER ())::text AS total_spent,
            (sum(a.spend_cap) OVER ())::text AS total_cap
       FROM ad_accounts a
       LEFT JOIN clients c ON c.id = a.client_id
      WHERE ${reachCondition('a', 1, 2)} AND ($3::uuid IS NULL OR a.id = $3::uuid)
      ORDER BY a.name, a.id`,
    [reach.orgId, reach.clientIds, onlyAccountId ?? null],
  );
}

/** The ids of the ad accounts a request reads, as an insight-row filter: null (no lookup) for a whole organisation. */
export async function accountIdsInReach(reach: Reach): Promise<string[] | null> {
  return reach.clientIds === null ? null : accountFilter(reach, await accountsInReach(reach));
}

const ENTITY_TABLES: Record<AdLevel, { table: string; campaign: string; adSet: string }> = {
  campaign: { table: 'campaigns', campaign: 'e.id', adSet: 'NULL::uuid' },
  adset: { table: 'ad_sets', campaign: 'e.campaign_id', adSet: 'e.id' },
  ad: { table: 'ads', campaign: 'e.campaign_id', adSet: 'e.ad_set_id' },
};

export interface EntityRef {
  id: string;
  level: AdLevel;
  account_id: string;
  campaign_id: string;
  ad_set_id: string | null;
}

/**
 * An entity of `level` by its platform id or internal id, if it is in reach (its account is).
 * Indexes: (org_id, platform_id) unique and the primary key.
 */
export async function findEntity(reach: Reach, level: AdLevel, idOrPlatformId: string): Promise<EntityRef | null> {
  const { table, campaign, adSet } = ENTITY_TABLES[level];
  const rows = await sql<EntityRef>(
    `SELECT e.id, $5::text AS level, e.account_id, ${campaign} AS campaign_id, ${adSet} AS ad_set_id
       FROM ${table} e
       JOIN ad_accounts a ON a.id = e.account_id
      WHERE e.org_id = $1 AND (e.platform_id = $3 OR e.id = $4::uuid) AND ${reachCondition('a', 1, 2)}
      ORDER BY (e.id = $4::uuid) DESC NULLS LAST
      LIMIT 1`,
    [reach.orgId, reach.clientIds, idOrPlatformId, UUID_PATTERN.test(idOrPlatformId) ? idOrPlatformId : null, level],
  );
  return rows[0] ?? null;
}

// ───────────── overview figures ─────────────

/**
 * Where per-day figures are read from. A whole organisation's account- or campaign-level rows come
 * from ad_insights_org_daily (already summed per day and result type; its "" result type is none);
 * anything narrower from ad_insights_daily through its indexes.
 */
function dailyRows(p: SqlParams, rows: InsightRows) {
  if (!('entityIds' in rows) && rows.accountIds === null && (rows.level === 'account' || rows.level === 'campaign')) {
    return {
      table: 'ad_insights_org_daily',
      where: `i.org_id = ${p.add(rows.orgId)}::uuid AND i.level = ${p.add(rows.level)}::"AdLevel"`,
      reach: 'i.reach_sum',
      resultType: "nullif(i.result_type, '')",
      reportedSpend: 'i.reported_spend',
    };
  }
  return {
    table: 'ad_insights_daily',
    where: insightCondition(p, rows)('i'),
    reach: 'i.reach',
    resultType: 'i.result_type',
    reportedSpend: 'CASE WHEN i.results IS NOT NULL THEN i.spend END',
  };
}

export interface PeriodSumsRow {
  /** null on the period's total row, the IST day on a daily row. */
  day: string | null;
  current: boolean;
  spend: string | null;
  impressions: string | null;
  reach: string | null;
  clicks: string | null;
  link_clicks: string | null;
  video_views: string | null;
  video_3s_views: string | null;
  thruplays: string | null;
  video_p25: string | null;
  video_p50: string | null;
  video_p75: string | null;
  video_p100: string | null;
  purchase_value: string | null;
}

/**
 * Sums per day and per period (current = from `from` on, previous = before it) over `[previousFrom, to]`,
 * in one scan. `reach` is the day's summed reach on daily rows (the period rows' reach is not used).
 */
export function periodSums(rows: InsightRows, range: { previousFrom: string; from: string; to: string }): Promise<PeriodSumsRow[]> {
  const p = new SqlParams();
  const source = dailyRows(p, rows);
  return sql<PeriodSumsRow>(
    `SELECT CASE WHEN GROUPING(r.day) = 0 THEN r.day::text END AS day, r.current,
            sum(r.spend)::text AS spend, sum(r.impressions)::text AS impressions, sum(r.reach)::text AS reach,
            sum(r.clicks)::text AS clicks, sum(r.link_clicks)::text AS link_clicks,
            sum(r.video_views)::text AS video_views, sum(r.video_3s_views)::text AS video_3s_views,
            sum(r.thruplays)::text AS thruplays, sum(r.video_p25)::text AS video_p25, sum(r.video_p50)::text AS video_p50,
            sum(r.video_p75)::text AS video_p75, sum(r.video_p100)::text AS video_p100,
            sum(r.purchase_value)::text AS purchase_value
       FROM (SELECT i.date AS day, i.date >= ${p.add(range.from)}::date AS current, i.spend, i.impressions, ${source.reach} AS reach,
                    i.clicks, i.link_clicks, i.video_views, i.video_3s_views, i.thruplays, i.video_p25, i.video_p50,
                    i.video_p75, i.video_p100, i.purchase_value
               FROM ${source.table} i
              WHERE ${source.where} AND i.date BETWEEN ${p.add(range.previousFrom)}::date AND ${p.add(range.to)}::date) r
      GROUP BY GROUPING SETS ((r.current, r.day), (r.current))`,
    p.values,
  );
}

export interface ResultSumsRow {
  day: string | null;
  current: boolean;
  result_type: string;
  results: string | null;
  spend: string;
  /** Spend of the rows whose results were reported: the numerator of cost per result. */
  reported_spend: string | null;
}

/**
 * The results of the reported result type over `[previousFrom, to]`: the type carrying the most spend
 * in the current period (else in the previous one; ties alphabetical), because results of different
 * types (a lead, a purchase) are never added together. Its total per period, and per day of the
 * current period; no rows when nothing reported results.
 */
export function resultSums(rows: InsightRows, range: { previousFrom: string; from: string; to: string }): Promise<ResultSumsRow[]> {
  const p = new SqlParams();
  const source = dailyRows(p, rows);
  return sql<ResultSumsRow>(
    `WITH r AS MATERIALIZED (
       SELECT i.date AS day, i.date >= ${p.add(range.from)}::date AS current, ${source.resultType} AS result_type,
              i.results, i.spend, ${source.reportedSpend} AS reported_spend
         FROM ${source.table} i
        WHERE ${source.where} AND ${source.resultType} IS NOT NULL
          AND i.date BETWEEN ${p.add(range.previousFrom)}::date AND ${p.add(range.to)}::date),
     reported AS (
       SELECT r.result_type FROM r GROUP BY r.current, r.result_type
        ORDER BY r.current DESC, sum(r.spend) DESC, r.result_type COLLATE "C" LIMIT 1)
     SELECT CASE WHEN GROUPING(r.day) = 0 THEN r.day::text END AS day, r.current, r.result_type,
            sum(r.results)::text AS results, sum(r.spend)::text AS spend, sum(r.reported_spend)::text AS reported_spend
       FROM r WHERE r.result_type = (SELECT result_type FROM reported)
      GROUP BY GROUPING SETS ((r.current, r.result_type, r.day), (r.current, r.result_type))
     HAVING GROUPING(r.day) = 1 OR r.current`,
    p.values,
  );
}

export interface BreakdownSumsRow {
  breakdown: 'age_gender' | 'platform' | 'placement';
  key1: string;
  key2: string;
  spend: string;
  impressions: string;
  clicks: string;
  /** age_gender only: per account the peak daily reach of the key, summed over the accounts (null otherwise). */
  reach: string | null;
}

/**
 * The overview widgets' account-level breakdowns over the range, summed per key: whole months and
 * ten-day blocks from the rollups, the other days from the daily table (index (org_id, breakdown, date)),
 * or for the sums, where that reads fewer rows, as their ten-day block less its other days (daysAsBlocks).
 * A whole organisation's sums come from ad_account_breakdowns_org_monthly and _org_tenday (already summed
 * over its accounts: a few dozen rows per month instead of one per account and key); a set of accounts'
 * from ad_account_breakdowns_monthly and _tenday (indexes (org_id, breakdown, month|block)). Age and
 * gender also report reach, which is never summed over days: first the peak per account and key (max of
 * the per-account parts), then summed over the accounts (different accounts reach different people, the
 * same account on different days largely the same ones). Its whole months up to or from a new year are
 * one row per account and key of the running peaks (ad_account_age_gender_year_peaks, migration
 * 20261125195440_ads_age_gender_year_peaks: a year of a whole organisation on the benchmark's data reads
 * 4,300 rows instead of 21,000); the rare stretch of months inside one year, from the monthly rollup.
 */
export function accountBreakdownSums(orgId: string, accountIds: string[] | null, from: string, to: string): Promise<BreakdownSumsRow[]> {
  const p = new SqlParams();
  const org = p.add(orgId);
  const accounts = p.add(accountIds);
  const breakdownsIn = (alias: string, breakdowns: BreakdownSumsRow['breakdown'][]) =>
    `${alias}.org_id = ${org}::uuid AND ${alias}.breakdown IN (${breakdowns.map((b) => `'${b}'`).join(', ')})`;
  const inAccounts = (alias: string) => ` AND (${accounts}::uuid[] IS NULL OR ${alias}.account_id = ANY(${accounts}::uuid[]))`;
  const between = (alias: string, column: string, partFrom: string, partTo: string) =>
    ` AND ${alias}.${column} BETWEEN ${partFrom}::date AND ${partTo}::date`;
  // The sums read the days of partial ten-day blocks as blocks less days where that reads fewer rows,
  // with the daily rows' count summed alongside: a key is listed only if it has rows in the range.
  const sumParts = rangeParts(p, { from, to }, { daysAsBlocks: true })
    .map(({ source, from: partFrom, to: partTo, sign }) => {
      const minus = sign < 0 ? '-' : '';
      const where = breakdownsIn('b', ['age_gender', 'platform', 'placement']);
      const figures = (rowCount: string) =>
        `b.breakdown, b.key1, b.key2, ${minus}b.spend AS spend, ${minus}b.impressions AS impressions, ${minus}b.clicks AS clicks, ${minus}${rowCount} AS row_count`;
      if (source.daily) {
        return `SELECT ${figures('1')} FROM ad_account_breakdowns_daily b
             WHERE ${where}${inAccounts('b')}${between('b', 'date', partFrom, partTo)}`;
      }
      // The organisation's rollups have no account column: they serve only a request for every account.
      const [table, narrowing, rowCount] =
        accountIds === null ? [`org_${source.rollup}`, '', 'b.row_count'] : [source.rollup, inAccounts('b'), 'b.days'];
      return `SELECT ${figures(rowCount)} FROM ad_account_breakdowns_${table} b
             WHERE ${where}${narrowing}${between('b', source.period, partFrom, partTo)}`;
    })
    .join('\n UNION ALL\n');
  const reachOf = (table: string, column: string, reach: string, partFrom: string, partTo: string) =>
    `SELECT b.account_id, b.key1, b.key2, ${reach} AS reach FROM ${table} b
             WHERE ${breakdownsIn('b', ['age_gender'])}${inAccounts('b')}${between('b', column, partFrom, partTo)}`;
  // A peak cannot be subtracted: the reach reads the range's days as days.
  const reachParts = rangeParts(p, { from, to })
    .flatMap((part) => {
      const { source, range } = part;
      if (source.daily) return [reachOf('ad_account_breakdowns_daily', 'date', 'b.reach', part.from, part.to)];
      if (source.rollup === 'tenday') return [reachOf('ad_account_breakdowns_tenday', 'block', 'b.reach_peak', part.from, part.to)];
      return monthsAsPeakStretches(range).map(({ read, range: months }) => {
        if (read === 'each') return reachOf('ad_account_breakdowns_monthly', 'month', 'b.reach_peak', p.add(months.from), p.add(months.to));
        const [column, month] = read === 'untilEnd' ? ['reach_until_end', months.from] : ['reach_since_start', months.to];
        return `SELECT b.account_id, b.key1, b.key2, b.${column} AS reach FROM ad_account_age_gender_year_peaks b
             WHERE b.org_id = ${org}::uuid${inAccounts('b')} AND b.month = ${p.add(month)}::date`;
      });
    })
    .join('\n UNION ALL\n');
  return sql<BreakdownSumsRow>(
    `SELECT s.breakdown::text AS breakdown, s.key1, s.key2, s.spend::text AS spend, s.impressions::text AS impressions,
            s.clicks::text AS clicks, r.reach::text AS reach
       FROM (SELECT x.breakdown, x.key1, x.key2, sum(x.spend) AS spend, sum(x.impressions) AS impressions, sum(x.clicks) AS clicks
               FROM (${sumParts}) x
              GROUP BY x.breakdown, x.key1, x.key2
             HAVING sum(x.row_count) > 0) s
       LEFT JOIN (SELECT a.key1, a.key2, sum(a.reach) AS reach
                    FROM (SELECT y.key1, y.key2, max(y.reach) AS reach FROM (${reachParts}) y GROUP BY y.account_id, y.key1, y.key2) a
                   GROUP BY a.key1, a.key2) r
         ON s.breakdown = 'age_gender' AND r.key1 = s.key1 AND r.key2 = s.key2
      ORDER BY s.breakdown, s.spend DESC, s.key1 COLLATE "C", s.key2 COLLATE "C"`,
    p.values,
  );
}

// ───────────── entity rows (/ads/entities, overview campaigns) ─────────────

export interface EntityAggregateRow {
  id: string;
  platform_id: string;
  name: string;
  status: string | null;
  effective_status: string | null;
  thumbnail_url: string | null;
  image_url: string | null;
  spend: string;
  impressions: string;
  clicks: string;
  link_clicks: string;
  reach_peak: string;
  reach_days: string;
  result_type: string | null;
  results: string | null;
  reported_spend: string | null;
  account_id: string;
  platform_account_id: string;
  account_name: string;
  currency: string | null;
  client_id: string | null;
  client_name: string | null;
  campaign_id: string | null;
  campaign_platform_id: string | null;
  campaign_name: string | null;
  campaign_objective: string | null;
  ad_set_id: string | null;
  ad_set_platform_id: string | null;
  ad_set_name: string | null;
}

const LINEAGE_JOINS: Record<AdLevel, string> = {
  campaign: '',
  adset: 'JOIN campaigns cp ON cp.id = e.campaign_id',
  ad: 'JOIN campaigns cp ON cp.id = e.campaign_id JOIN ad_sets s ON s.id = e.ad_set_id',
};

/** The columns a part selects: from the daily table (alias i) or a rollup (alias m); `minus` is '-' on rows to subtract. */
type PartColumns = (minus: string) => { daily: string; rollup: string };

/** A range's parts of the insight rows of `where`, each from the daily table or its rollup, as one UNION ALL. */
function insightParts(where: (alias: string) => string, list: RangePart[], columns: PartColumns, narrow = ''): string {
  return list
    .map(({ source, from, to, sign }) => {
      const select = columns(sign < 0 ? '-' : '');
      return source.daily
        ? `SELECT ${select.daily} FROM ad_insights_daily i WHERE ${where('i')} AND i.date BETWEEN ${from}::date AND ${to}::date${narrow}`
        : `SELECT ${select.rollup} FROM ad_insights_${source.rollup} m
              WHERE ${where('m')} AND m.${source.period} BETWEEN ${from}::date AND ${to}::date${narrow}`;
    })
    .join('\n UNION ALL\n');
}

/** `%` and `_` in a search are literal text, not wildcards. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * How far below the cut-off spend the float ranking still takes candidates: half a cent (two exact sums of
 * amounts with cents that differ, differ by a cent at least) plus a relative margin far above the rounding
 * error of a float sum of a year of daily amounts. The candidates are thus a superset of the exact top
 * `limit` and its ties, which are then ranked exactly.
 */
const RANKING_MARGIN = { absolute: 0.005, relative: 1e-9 } as const;

/**
 * The lowest float spend still taken as a candidate: the `cutoff` CTE's `column` (the `limit`-th spend)
 * less RANKING_MARGIN, or every entity when fewer than `limit` have rows (no cut-off).
 */
function candidateFloor(column: 'spend' | 'spend_float'): string {
  return `coalesce((SELECT c.${column} - ${RANKING_MARGIN.absolute} - abs(c.${column}) * ${RANKING_MARGIN.relative} FROM cutoff c), '-Infinity')`;
}

/**
 * One row per entity of `rows.level` that has insight rows in the range, with its sums and its peak and
 * summed daily reach, ordered by spend (highest first), name, id; at most `limit` rows after the first
 * `offset` (0 when absent) of that order. The figures come
 * from the rollup parts of the range (see the file header), in two passes:
 * 1. every entity's spend, summed as float8 from index-only scans of (org_id|account_id, level, period,
 *    entity_id, spend_float) of the rollups (spend_float: the spend as float8, generated by the database,
 *    because a cast at query time costs more than the grouping) and (…, date, entity_id, spend) of the
 *    daily table: a whole organisation has tens of thousands of ads, and a float sum and a bounded sort
 *    of floats cost a fraction of numeric ones. The days of the range's partial ten-day blocks are read
 *    as blocks less days where that reads fewer rows (daysAsBlocks). The entities whose float spend
 *    reaches the `limit`-th one (less RANKING_MARGIN) are the candidates;
 * 2. for the candidates only, re-read through the primary key (level, entity_id, period), the exact sums,
 *    the dominant result type (most spend; ties alphabetical) with that type's results, and the exact order
 *    with the names, looked up per candidate.
 */
export function entityAggregates(
  rows: InsightRows & { level: AdLevel },
  range: DayRange,
  options: { limit: number; offset?: number; search?: string },
): Promise<EntityAggregateRow[]> {
  const p = new SqlParams();
  const where = insightCondition(p, rows);
  const { table } = ENTITY_TABLES[rows.level];
  // Matching entities are found first (a scan of one entity table), then only their rows are read.
  let search = '';
  if (options.search !== undefined) {
    search = ` AND entity_id IN (SELECT x.id FROM ${table} x WHERE x.org_id = ${p.add(rows.orgId)}::uuid
            AND (x.name ILIKE ${p.add(containsPattern(options.search))} OR x.platform_id = ${p.add(options.search)}))`;
  }
  const spendParts = insightParts(
    where,
    rangeParts(p, range, { daysAsBlocks: true, quarters: true }),
    (minus) => ({ daily: `i.entity_id, (${minus}i.spend)::float8 AS spend`, rollup: `m.entity_id, ${minus}m.spend_float AS spend` }),
    search,
  );
  // The candidates' rows, re-read through the primary key: the ids are passed as an array so that the planner does so.
  const figureParts = insightParts(
    where,
    rangeParts(p, range, { quarters: true }),
    () => ({
      daily: `i.entity_id, i.result_type, i.spend, CASE WHEN i.results IS NOT NULL THEN i.spend END AS reported_spend,
              i.impressions, i.clicks, i.link_clicks, i.reach AS reach_peak, i.reach AS reach_sum, i.results`,
      rollup: `m.entity_id, nullif(m.result_type, '') AS result_type, m.spend, m.reported_spend, m.impressions, m.clicks,
               m.link_clicks, m.reach_peak, m.reach_sum, m.results`,
    }),
    ' AND entity_id = ANY(ARRAY(SELECT entity_id FROM candidates))',
  );
  const limit = `${p.add(options.limit)}::int`;
  // The candidates are those that may rank up to the last row asked for, skipped ones included.
  const offset = `${p.add(options.offset ?? 0)}::int`;
  const hasCampaign = rows.level !== 'campaign';
  const hasAdSet = rows.level === 'ad';
  return sql<EntityAggregateRow>(
    `WITH spend AS (
       SELECT parts.entity_id, sum(parts.spend) AS spend
         FROM (${spendParts}) parts
        GROUP BY parts.entity_id),
     cutoff AS (
       SELECT s.spend FROM spend s ORDER BY s.spend DESC OFFSET ${offset} + ${limit} - 1 LIMIT 1),
     candidates AS MATERIALIZED (
       SELECT s.entity_id FROM spend s
        WHERE s.spend >= ${candidateFloor('spend')}),
     by_type AS (
       SELECT parts.entity_id, parts.result_type, sum(parts.spend) AS spend, sum(parts.reported_spend) AS reported_spend,
              sum(parts.impressions) AS impressions, sum(parts.clicks) AS clicks, sum(parts.link_clicks) AS link_clicks,
              max(parts.reach_peak) AS reach_peak, sum(parts.reach_sum) AS reach_days, sum(parts.results) AS results
         FROM (${figureParts}) parts
        GROUP BY parts.entity_id, parts.result_type),
     -- The dominant result type (most spend; ties alphabetical) is picked in the same aggregate as the
     -- totals: a separate DISTINCT ON joined back was planned as a nested loop on the misestimated rows.
     totals AS (
       SELECT t.entity_id, sum(t.spend) AS spend, sum(t.impressions) AS impressions, sum(t.clicks) AS clicks,
              sum(t.link_clicks) AS link_clicks, max(t.reach_peak) AS reach_peak, sum(t.reach_days) AS reach_days,
              (array_agg(t.result_type ORDER BY t.spend DESC, t.result_type) FILTER (WHERE t.result_type IS NOT NULL))[1] AS result_type,
              (array_agg(t.results ORDER BY t.spend DESC, t.result_type) FILTER (WHERE t.result_type IS NOT NULL))[1] AS results,
              (array_agg(t.reported_spend ORDER BY t.spend DESC, t.result_type) FILTER (WHERE t.result_type IS NOT NULL))[1] AS reported_spend
         FROM by_type t
        GROUP BY t.entity_id),
     -- The name of each candidate by its primary key (a scalar subquery: a join was planned as a hash of
     -- the whole entity table), once (unmaterialised, it was looked up again after the sort).
     named AS MATERIALIZED (
       SELECT f.*, (SELECT x.name FROM ${table} x WHERE x.id = f.entity_id) AS name FROM totals f),
     listed AS MATERIALIZED (
       SELECT * FROM named n ORDER BY n.spend DESC, n.name COLLATE "C", n.entity_id OFFSET ${offset} LIMIT ${limit})
     SELECT e.id, e.platform_id, e.name, e.status, e.effective_status,
            ${rows.level === 'ad' ? 'e.thumbnail_url, e.image_url' : 'NULL::text AS thumbnail_url, NULL::text AS image_url'},
            l.spend::text, l.impressions::text, l.clicks::text, l.link_clicks::text,
            l.reach_peak::text, l.reach_days::text,
            l.result_type, l.results::text, l.reported_spend::text,
            a.id AS account_id, a.platform_account_id, a.name AS account_name, a.currency,
            a.client_id, cl.name AS client_name,
            ${hasCampaign ? 'cp.id' : 'NULL::uuid'} AS campaign_id,
            ${hasCampaign ? 'cp.platform_id' : 'NULL::text'} AS campaign_platform_id,
            ${hasCampaign ? 'cp.name' : 'NULL::text'} AS campaign_name,
            ${hasCampaign ? 'cp.objective' : 'NULL::text'} AS campaign_objective,
            ${hasAdSet ? 's.id' : 'NULL::uuid'} AS ad_set_id,
            ${hasAdSet ? 's.platform_id' : 'NULL::text'} AS ad_set_platform_id,
            ${hasAdSet ? 's.name' : 'NULL::text'} AS ad_set_name
       FROM listed l
       JOIN ${table} e ON e.id = l.entity_id
       JOIN ad_accounts a ON a.id = e.account_id
       LEFT JOIN clients cl ON cl.id = a.client_id
       ${LINEAGE_JOINS[rows.level]}
      ORDER BY l.spend DESC, l.name COLLATE "C", l.entity_id`,
    p.values,
  );
}

export type EntityTotalsRow = Pick<
  EntityAggregateRow,
  | 'id'
  | 'platform_id'
  | 'name'
  | 'status'
  | 'effective_status'
  | 'spend'
  | 'impressions'
  | 'clicks'
  | 'account_id'
  | 'platform_account_id'
  | 'account_name'
  | 'currency'
  | 'client_id'
  | 'client_name'
>;

/**
 * Like entityAggregates, for a list that needs only spend, impressions and clicks (the overview's
 * campaigns): the same rows in the same order (spend, name, id), at most `limit`, with the account
 * lineage. One pass with exact sums over the parts of the range, instead of a float ranking and a
 * re-read of the candidates, which pay off where every figure of a few hundred out of tens of thousands
 * of entities is needed (/ads/entities). Only the entities whose spend reaches the limit-th one (less
 * RANKING_MARGIN, compared as the float8 of each exact sum: a numeric sort of every entity cost more
 * than the rest of the ordering) are named, each looked up once, and ordered exactly.
 */
export function entityTotals(rows: InsightRows & { level: AdLevel }, range: DayRange, options: { limit: number }): Promise<EntityTotalsRow[]> {
  const p = new SqlParams();
  // The days of partial ten-day blocks are read as blocks less days where that reads fewer rows; the
  // rows' count (`days`) is summed with the same signs, so that only entities with rows in the range are listed.
  const parts = insightParts(insightCondition(p, rows), rangeParts(p, range, { daysAsBlocks: true, quarters: true }), (minus) => ({
    daily: `i.entity_id, ${minus}i.spend AS spend, ${minus}i.impressions AS impressions, ${minus}i.clicks AS clicks, ${minus}1 AS days`,
    rollup: `m.entity_id, ${minus}m.spend AS spend, ${minus}m.impressions AS impressions, ${minus}m.clicks AS clicks, ${minus}m.days AS days`,
  }));
  const limit = `${p.add(options.limit)}::int`;
  const { table } = ENTITY_TABLES[rows.level];
  return sql<EntityTotalsRow>(
    `WITH totals AS (
       SELECT parts.entity_id, sum(parts.spend) AS spend, sum(parts.spend)::float8 AS spend_float,
              sum(parts.impressions) AS impressions, sum(parts.clicks) AS clicks
         FROM (${parts}) parts
        GROUP BY parts.entity_id
       HAVING sum(parts.days) > 0),
     cutoff AS (
       SELECT t.spend_float FROM totals t ORDER BY t.spend_float DESC OFFSET ${limit} - 1 LIMIT 1),
     named AS MATERIALIZED (
       SELECT t.*, (SELECT x.name FROM ${table} x WHERE x.id = t.entity_id) AS name
         FROM totals t
        WHERE t.spend_float >= ${candidateFloor('spend_float')}),
     listed AS MATERIALIZED (
       SELECT * FROM named n ORDER BY n.spend DESC, n.name COLLATE "C", n.entity_id LIMIT ${limit})
     SELECT e.id, e.platform_id, e.name, e.status, e.effective_status,
            l.spend::text, l.impressions::text, l.clicks::text,
            a.id AS account_id, a.platform_account_id, a.name AS account_name, a.currency,
            a.client_id, cl.name AS client_name
       FROM listed l
       JOIN ${table} e ON e.id = l.entity_id
       JOIN ad_accounts a ON a.id = e.account_id
       LEFT JOIN clients cl ON cl.id = a.client_id
      ORDER BY l.spend DESC, l.name COLLATE "C", l.entity_id`,
    p.values,
  );
}

// ───────────── breakdown cache (/ads/breakdowns) ─────────────

export interface BreakdownCacheRow {
  fetched_at: Date;
  /** null when the cache entry has no rows at all. */
  breakdown: 'age_gender' | 'device' | 'platform' | 'placement' | 'region' | null;
  key1: string | null;
  key2: string | null;
  spend: string | null;
  impressions: string | null;
  clicks: string | null;
  reach: string | null;
}

/**
 * The cached breakdowns of one entity for exactly this range (no rows: nothing cached).
 * Indexes: ad_breakdown_cache (level, entity_id, date_from, date_to) unique; rows by primary key (cache_id, …).
 */
export function cachedBreakdowns(orgId: string, level: AdLevel, entityId: string, from: string, to: string): Promise<BreakdownCacheRow[]> {
  return sql<BreakdownCacheRow>(
    `SELECT c.fetched_at, r.breakdown::text AS breakdown, r.key1, r.key2,
            r.spend::text AS spend, r.impressions::text AS impressions, r.clicks::text AS clicks, r.reach::text AS reach
       FROM ad_breakdown_cache c
       LEFT JOIN ad_breakdown_cache_rows r ON r.cache_id = c.id
      WHERE c.level = $2::"AdLevel" AND c.entity_id = $3::uuid AND c.date_from = $4::date AND c.date_to = $5::date AND c.org_id = $1::uuid
      ORDER BY r.breakdown, r.spend DESC, r.key1 COLLATE "C", r.key2 COLLATE "C"`,
    [orgId, level, entityId, from, to],
  );
}
