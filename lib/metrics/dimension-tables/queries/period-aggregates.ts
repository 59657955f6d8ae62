// Totals and series of a range and its compare range over the daily tables of a web-analytics,
// search-console or store source (or a whole organisation's daily rows), in one statement, with the
// people counts of each week or month of a series read by a second (bucketPeaks).
import { readSql as sql, SqlParams } from '../../../db';
import { bucketsOf, type Granularity } from '../../../time/buckets';
import type { DayRange } from '../../../time/day-range';
import type { IsoDay } from '../../../time/days';
import { num } from '../../ratios';
import { daySumsOf, daysName, emptySums, metricNames, quote, rollupColumn, sumsOf, type DailySource, type MetricColumns, type PeriodAggregate, type Sums } from '../repository';

/**
 * `aggregate(...)` once per range, as a UNION ALL tagged with `period` ('current', 'previous'). Each range is
 * aggregated on its own, straight from the tables (index range scans on the primary keys, with the
 * column statistics the planner needs to pick a hash aggregate), and only then combined. `aggregate`
 * receives the SQL references of the range's parameters, `params` gives their values.
 */
function perPeriod<P>(
  current: P,
  previous: P | null,
  params: (range: P | null) => unknown[],
  firstParam: number,
  aggregate: (refs: string[]) => string,
): { text: string; values: unknown[] } {
  const currentValues = params(current);
  const refs = (offset: number) => currentValues.map((_, i) => `$${firstParam + offset + i}`);
  return {
    text: `SELECT 'current' AS period, current_range.* FROM (${aggregate(refs(0))}) current_range
     UNION ALL
     SELECT 'previous' AS period, previous_range.* FROM (${aggregate(refs(currentValues.length))}) previous_range`,
    values: [...currentValues, ...params(previous)],
  };
}

/** The column of a people count's peak per resource (summed over resources into the range's count). */
const peakName = (name: string) => `${name}Peak`;

type PeriodRow = Record<string, string | null> & { period: string; date: string | null; covered: string };

/** What the SQL of each range reads: the source, and the SQL references of the parameters every range shares. */
interface RangeRowsOf {
  source: DailySource;
  /** The organisation's daily table when it is read (a whole organisation), else null. */
  orgDaily: string | null;
  org: string | null;
  resources: string | null;
  /** The granularity, when not days. */
  unit: string | null;
}

/**
 * One range's rows as SQL: per bucket, its sums and number of rows (from the organisation's daily rows
 * or the resources'), and, with people counts, per resource its peak day.
 */
function rangeRows({ source, orgDaily, org, resources, unit }: RangeRowsOf, from: string, to: string): string {
  const { metrics } = source;
  const summed = { ...metrics.summed, ...metrics.peak };
  const peakNames = Object.keys(metrics.peak);
  const resource = `t.${source.resourceColumn}`;
  const nulls = (names: string[]) => names.map((name) => `, NULL AS ${quote(name)}`).join('');
  const bucket = (alias: string) => (unit ? bucketStart(unit, `${alias}.date`, from) : `${alias}.date`);
  const days = orgDaily
    ? unit
      ? `SELECT ${bucket('d')} AS date, NULL::uuid AS resource, SUM(d.resources) AS covered
             ${Object.keys(summed).map((name) => `, SUM(d.${rollupColumn(name)}) AS ${quote(name)}`).join('')}${nulls(peakNames.map(peakName))}
           FROM ${orgDaily} d
           WHERE d.org_id = ${org}::uuid AND d.date BETWEEN ${from}::date AND ${to}::date
           GROUP BY 1`
      : `SELECT d.date, NULL::uuid AS resource, d.resources AS covered
             ${Object.keys(summed).map((name) => `, d.${rollupColumn(name)} AS ${quote(name)}`).join('')}${nulls(peakNames.map(peakName))}
           FROM ${orgDaily} d
           WHERE d.org_id = ${org}::uuid AND d.date BETWEEN ${from}::date AND ${to}::date`
    : `SELECT ${bucket('t')} AS date, NULL::uuid AS resource, COUNT(*) AS covered
           ${Object.entries(summed).map(([name, expression]) => `, SUM(${expression}) AS ${quote(name)}`).join('')}${nulls(peakNames.map(peakName))}
         FROM ${source.table} t
         WHERE ${resource} = ANY(${resources}::uuid[]) AND t.date BETWEEN ${from}::date AND ${to}::date
         GROUP BY 1`;
  if (!peakNames.length) return days;
  return `${days}
      UNION ALL
      SELECT NULL::date, ${resource}, NULL${nulls(Object.keys(summed))}
        ${Object.entries(metrics.peak).map(([name, expression]) => `, MAX(${expression}) AS ${quote(peakName(name))}`).join('')}
      FROM ${source.table} t
      WHERE ${resource} = ANY(${resources}::uuid[]) AND t.date BETWEEN ${from}::date AND ${to}::date
      GROUP BY ${resource}`;
}

/** Both ranges' rows (`periods`) as one row per bucket and one totals row (date null) per period. */
function bucketsAndTotals(periods: string, metrics: MetricColumns): string {
  const peakNames = Object.keys(metrics.peak);
  return `WITH grouped AS (${periods})
       SELECT period, to_char(date, 'YYYY-MM-DD') AS date, covered,
         ${[...metricNames(metrics).map(quote), ...peakNames.map((name) => `NULL::numeric AS ${quote(daysName(name))}`)].join(', ')}
       FROM grouped WHERE date IS NOT NULL
       UNION ALL
       SELECT period, NULL, SUM(covered),
         ${[
           ...Object.keys(metrics.summed).map((name) => `SUM(${quote(name)})`),
           ...peakNames.map((name) => `SUM(${quote(peakName(name))})`),
           ...peakNames.map((name) => `SUM(${quote(name)})`),
         ].join(', ')}
       FROM grouped GROUP BY period`;
}

/**
 * Totals and series of `resourceIds` over `current` and, when given, `previous`: one statement.
 * Per range, its rows grouped per bucket of `granularity` (the series; the totals are the sums of the
 * buckets) and, for the people counts, per resource (each resource's peak day, summed over the
 * resources). A week or a month is a range of its own: its people counts follow the same rule, read by
 * bucketPeaks. `wholeOrgId`: the organisation when `resourceIds` are all of its resources; a source
 * with an organisation daily table then reads its days there (one row a day instead of one per
 * resource and day).
 */
export async function aggregatePeriods(
  source: DailySource,
  resourceIds: string[],
  current: DayRange,
  previous: DayRange | null,
  wholeOrgId: string | null = null,
  granularity: Granularity = 'day',
): Promise<{ current: PeriodAggregate; previous: PeriodAggregate | null }> {
  const peakNames = Object.keys(source.metrics.peak);
  const orgDaily = source.orgDailyTable && wholeOrgId !== null ? source.orgDailyTable : null;
  // The parameters every range reads (a statement may not pass one it does not read); the ranges' bounds follow.
  const shared = new SqlParams();
  const resources = !orgDaily || peakNames.length ? shared.add(resourceIds) : null;
  const org = orgDaily ? shared.add(wholeOrgId) : null;
  const unit = granularity === 'day' ? null : shared.add(granularity);
  const periods = perPeriod(current, previous, (range) => [range?.from ?? null, range?.to ?? null], shared.values.length + 1, ([from, to]) =>
    rangeRows({ source, orgDaily, org, resources, unit }, from!, to!),
  );
  const peaksOf = (range: DayRange | null) =>
    range && unit && peakNames.length ? bucketPeaks(source, resourceIds, range, granularity) : Promise.resolve(new Map<IsoDay, Sums>());
  const [rows, currentPeaks, previousPeaks] = await Promise.all([
    sql<PeriodRow>(bucketsAndTotals(periods.text, source.metrics), [...shared.values, ...periods.values]),
    peaksOf(current),
    peaksOf(previous),
  ]);
  const ofPeriod = (period: 'current' | 'previous', range: DayRange, peaks: Map<IsoDay, Sums>) =>
    periodAggregate(rows.filter((row) => row.period === period), source.metrics, range, granularity, peaks);
  return {
    current: ofPeriod('current', current, currentPeaks),
    previous: previous ? ofPeriod('previous', previous, previousPeaks) : null,
  };
}

/** A period's totals and series from its rows; `peaks`: each week's or month's people counts (none for days). */
function periodAggregate(rows: PeriodRow[], metrics: MetricColumns, range: DayRange, granularity: Granularity, peaks: Map<IsoDay, Sums>): PeriodAggregate {
  const totalsRow = rows.find((row) => row.date === null);
  const byBucket = new Map(rows.filter((row) => row.date !== null).map((row) => [row.date!, row]));
  const peakNames = Object.keys(metrics.peak);
  return {
    totals: totalsRow ? sumsOf(totalsRow, metrics) : emptySums(metrics),
    // A week's or month's people counts are its peaks; a day's are the day's own values.
    series: bucketsOf(range.from, range.to, granularity).map(({ from: date }) => ({
      date,
      sums: { ...daySumsOf(byBucket.get(date), metrics), ...(granularity !== 'day' ? peakSums(peaks.get(date), peakNames) : {}) },
    })),
    coveredDays: Number(totalsRow?.covered ?? 0),
  };
}

/**
 * The first day within the range of the bucket of `date` (SQL): ISO weeks from Monday and calendar
 * months (PostgreSQL's `date_trunc`, on a timestamp without zone so that no session zone moves the
 * day), clipped to `from` as lib/time/buckets.ts clips them.
 */
function bucketStart(unit: string, date: string, from: string): string {
  return `GREATEST(date_trunc(${unit}::text, ${date}::timestamp)::date, ${from}::date)`;
}

function peakSums(row: Sums | undefined, peakNames: string[]): Sums {
  return Object.fromEntries(peakNames.map((name) => [name, row?.[name] ?? null]));
}

/**
 * The people counts of each week or month of `range`, by the range rule: each resource's peak day
 * within the bucket, summed over the resources (read from the daily table even for a whole
 * organisation, as the range's peaks are). Keyed by the bucket's first day within the range.
 */
async function bucketPeaks(source: DailySource, resourceIds: string[], range: DayRange, granularity: Granularity): Promise<Map<IsoDay, Sums>> {
  const p = new SqlParams();
  const resources = p.add(resourceIds);
  const from = p.add(range.from);
  const to = p.add(range.to);
  const bucket = bucketStart(p.add(granularity), 't.date', from);
  const peaks = Object.entries(source.metrics.peak);
  const rows = await sql<Record<string, string | null> & { date: string }>(
    `SELECT to_char(bucket, 'YYYY-MM-DD') AS date, ${peaks.map(([name]) => `SUM(${quote(name)}) AS ${quote(name)}`).join(', ')}
       FROM (SELECT ${bucket} AS bucket${peaks.map(([name, expression]) => `, MAX(${expression}) AS ${quote(name)}`).join('')}
               FROM ${source.table} t
              WHERE t.${source.resourceColumn} = ANY(${resources}::uuid[]) AND t.date BETWEEN ${from}::date AND ${to}::date
              GROUP BY 1, t.${source.resourceColumn}) per_resource
      GROUP BY bucket`,
    p.values,
  );
  return new Map(rows.map((row) => [row.date, Object.fromEntries(peaks.map(([name]) => [name, num(row[name])]))]));
}
