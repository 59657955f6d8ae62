// The overview widgets' account-level breakdown sums over a range (age and gender, platform,
// placement), from the breakdown rollups and daily rows, with age and gender's reach as peaks.
import { readSql as sql, SqlParams } from '../../../db';
import { inPart, rangeParts } from '../../range-parts';
import { monthsAsPeakStretches } from '../../range-split';

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
  // The sums read the days of partial ten-day blocks as blocks less days where that reads fewer rows,
  // with the daily rows' count summed alongside: a key is listed only if it has rows in the range.
  const sumParts = rangeParts(p, { from, to }, { daysAsBlocks: true })
    .map((part) => {
      const { source, sign } = part;
      const minus = sign < 0 ? '-' : '';
      const where = breakdownsIn('b', ['age_gender', 'platform', 'placement']);
      const figures = (rowCount: string) =>
        `b.breakdown, b.key1, b.key2, ${minus}b.spend AS spend, ${minus}b.impressions AS impressions, ${minus}b.clicks AS clicks, ${minus}${rowCount} AS row_count`;
      if (source.daily) {
        return `SELECT ${figures('1')} FROM ad_account_breakdowns_daily b
             WHERE ${where}${inAccounts('b')} AND ${inPart(part, 'b')}`;
      }
      // The organisation's rollups have no account column: they serve only a request for every account.
      const [table, narrowing, rowCount] =
        accountIds === null ? [`org_${source.rollup}`, '', 'b.row_count'] : [source.rollup, inAccounts('b'), 'b.days'];
      return `SELECT ${figures(rowCount)} FROM ad_account_breakdowns_${table} b
             WHERE ${where}${narrowing} AND ${inPart(part, 'b')}`;
    })
    .join('\n UNION ALL\n');
  const reachOf = (table: string, reach: string, inRange: string) =>
    `SELECT b.account_id, b.key1, b.key2, ${reach} AS reach FROM ${table} b
             WHERE ${breakdownsIn('b', ['age_gender'])}${inAccounts('b')} AND ${inRange}`;
  // A peak cannot be subtracted: the reach reads the range's days as days.
  const reachParts = rangeParts(p, { from, to })
    .flatMap((part) => {
      const { source, range } = part;
      if (source.daily) return [reachOf('ad_account_breakdowns_daily', 'b.reach', inPart(part, 'b'))];
      if (source.rollup === 'tenday') return [reachOf('ad_account_breakdowns_tenday', 'b.reach_peak', inPart(part, 'b'))];
      return monthsAsPeakStretches(range).map(({ read, range: months }) => {
        if (read === 'each') return reachOf('ad_account_breakdowns_monthly', 'b.reach_peak', `b.month BETWEEN ${p.add(months.from)}::date AND ${p.add(months.to)}::date`);
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
