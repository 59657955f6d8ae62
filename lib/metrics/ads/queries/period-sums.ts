// The overview's sums per day and per period, and of its reported result type, over the daily insight
// rows (or a whole organisation's per-day rows): two statements, each one scan of the current and
// previous periods.
import { readSql as sql, SqlParams } from '../../../db';
import { insightCondition, type InsightRows } from '../repository';

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
