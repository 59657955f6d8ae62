// Range aggregates over the daily tables of the web-analytics, search-console and store sources:
// totals and a daily series for the requested range and its compare range, and the dimension tables
// (top keys of each dimension with their figures in both ranges). One implementation for the three
// surfaces; each describes its tables and metric columns and derives its rates from these sums.
//
// Index use: every statement filters on `<resource>_id = ANY($ids)` and a date range, which the primary
// keys (resource id, date) and (resource id, dimension, date, key) serve as index range scans; the
// dimension statement also pins `dimension = ANY(...)`, the key's second column, and looks labels up
// by the whole key. Measured at the `large` shape (60 properties × 400 days × 95 keys a day, 2.3M
// dimension rows) on a loaded 2-CPU machine: one client's 30 days ≈ 0.1 s, its year ≈ 1 s; all 60
// properties, 30 days ≈ 1.3 s, a year ≈ 5 s (the people-count peaks need a per-key-and-day step).
import { z } from 'zod';
import { sql } from '../db';
import { eachDay, type IsoDay } from '../time/days';
import type { MetricDefinition } from './ads/definitions';
import type { DayRange } from './compare';
import { num } from './ratios';

export const tableLimitParam = z.coerce
  .number()
  .int()
  .min(1)
  .max(100)
  .default(25)
  .describe('Rows per table (1 to 100, default 25): the top keys of each dimension.');

/**
 * The metric columns of a source, as SQL expressions over the source row `t`. Names are the
 * response's field names. Expressions are constants of the code, never caller input.
 */
export interface MetricColumns {
  /** Additive figures: summed over resources and days. */
  summed: Record<string, string>;
  /**
   * Counts of people (non-additive over days): summed over resources for each day, then the range
   * reports the peak day as `<name>` and the sum of the daily values (person-days) as `<name>Days`.
   */
  peak: Record<string, string>;
}

export interface DailySource {
  /** The daily table, keyed by (resource column, date). */
  table: string;
  resourceColumn: string;
  metrics: MetricColumns;
}

export interface DimensionSource<D extends string> {
  /** The per-dimension daily table, keyed by (resource column, dimension, date, key). */
  table: string;
  resourceColumn: string;
  /** The PostgreSQL enum type of the `dimension` column. */
  dimensionType: string;
  dimensions: readonly D[];
  /** Whether rows carry `label` and `detail` columns (otherwise the label is the key). */
  labelled: boolean;
  metrics: MetricColumns;
  /** Tables are sorted by this summed metric, descending, then by key. */
  sortBy: string;
}

/** Sums over a range: each metric of the source (null when every row left it unreported), and `<peak>Days`. */
export type Sums = Record<string, number | null>;

export interface PeriodAggregate {
  totals: Sums;
  /** Every day of the range, in order; a day without rows has every figure null. */
  series: Array<{ date: IsoDay; sums: Sums }>;
  /** Number of (resource, day) rows in the range: equal to resources × days when no day is missing. */
  coveredDays: number;
}

export interface DimensionRow {
  key: string;
  label: string;
  detail: string | null;
  totals: Sums;
  /** null without a compare range; every figure null when the key had no rows in the compare range. */
  previous: Sums | null;
}

/** Positional parameters $2..$5: the two ranges (the caller's resource ids are $1). */
function periodParams(current: DayRange, previous: DayRange | null): unknown[] {
  return [current.from, current.to, previous?.from ?? null, previous?.to ?? null];
}

/**
 * `aggregate(from, to)` once per range, as a UNION ALL tagged with `period` ('current', 'previous'). Each range is
 * aggregated on its own, straight from the table (one index range scan on the primary key per range,
 * with the column statistics the planner needs to pick a hash aggregate), and only then combined.
 */
function perPeriod(aggregate: (from: string, to: string) => string): string {
  return `SELECT 'current' AS period, current_range.* FROM (${aggregate('$2::date', '$3::date')}) current_range
     UNION ALL
     SELECT 'previous' AS period, previous_range.* FROM (${aggregate('$4::date', '$5::date')}) previous_range`;
}

const quote = (name: string) => `"${name}"`;
const daysName = (name: string) => `${name}Days`;

function metricNames(metrics: MetricColumns): string[] {
  return [...Object.keys(metrics.summed), ...Object.keys(metrics.peak)];
}

/** Per (group, day): every metric summed over the resources. */
function perDayColumns(metrics: MetricColumns): string {
  return Object.entries({ ...metrics.summed, ...metrics.peak })
    .map(([name, expression]) => `SUM(${expression}) AS ${quote(name)}`)
    .join(',\n    ');
}

/** Per group over the days: additive metrics summed, people counts as peak day and person-days. */
function overDaysColumns(metrics: MetricColumns): string {
  return [
    ...Object.keys(metrics.summed).map((name) => `SUM(${quote(name)}) AS ${quote(name)}`),
    ...Object.keys(metrics.peak).map((name) => `MAX(${quote(name)}) AS ${quote(name)}`),
    ...Object.keys(metrics.peak).map((name) => `SUM(${quote(name)}) AS ${quote(daysName(name))}`),
  ].join(',\n    ');
}

function sumsOf(row: Record<string, unknown>, metrics: MetricColumns): Sums {
  const sums: Sums = {};
  for (const name of Object.keys(metrics.summed)) sums[name] = num(row[name] as string | null);
  for (const name of Object.keys(metrics.peak)) {
    sums[name] = num(row[name] as string | null);
    sums[daysName(name)] = num(row[daysName(name)] as string | null);
  }
  return sums;
}

/** A day's figures: each metric as reported that day (summed over resources), people counts included. */
function daySumsOf(row: Record<string, unknown> | undefined, metrics: MetricColumns): Sums {
  return Object.fromEntries(metricNames(metrics).map((name) => [name, num((row?.[name] ?? null) as string | null)]));
}

function emptySums(metrics: MetricColumns): Sums {
  return sumsOf({}, metrics);
}

/**
 * Totals and daily series of `resourceIds` over `current` and, when given, `previous`: one statement
 * (per-day sums, then the range totals of those days).
 */
export async function aggregatePeriods(
  source: DailySource,
  resourceIds: string[],
  current: DayRange,
  previous: DayRange | null,
): Promise<{ current: PeriodAggregate; previous: PeriodAggregate | null }> {
  const { metrics } = source;
  const dayColumns = metricNames(metrics).map(quote).join(', ');
  const noDays = Object.keys(metrics.peak)
    .map((name) => `NULL::numeric AS ${quote(daysName(name))}`)
    .join(', ');
  const rows = await sql<Record<string, string | null> & { period: string; date: string | null; covered: string }>(
    `WITH per_day AS (
       ${perPeriod(
         (from, to) => `SELECT t.date, COUNT(*) AS covered,
           ${perDayColumns(metrics)}
           FROM ${source.table} t
           WHERE t.${source.resourceColumn} = ANY($1::uuid[]) AND t.date BETWEEN ${from} AND ${to}
           GROUP BY t.date`,
       )}
     )
     SELECT period, to_char(date, 'YYYY-MM-DD') AS date, covered, ${dayColumns}${noDays ? `, ${noDays}` : ''} FROM per_day
     UNION ALL
     SELECT period, NULL, SUM(covered),
       ${overDaysColumns(metrics)}
     FROM per_day GROUP BY period`,
    [resourceIds, ...periodParams(current, previous)],
  );

  const aggregate = (period: 'current' | 'previous', range: DayRange): PeriodAggregate => {
    const mine = rows.filter((row) => row.period === period);
    const totalsRow = mine.find((row) => row.date === null);
    const byDay = new Map(mine.filter((row) => row.date !== null).map((row) => [row.date!, row]));
    return {
      totals: totalsRow ? sumsOf(totalsRow, metrics) : emptySums(metrics),
      series: eachDay(range.from, range.to).map((date) => ({ date, sums: daySumsOf(byDay.get(date), metrics) })),
      coveredDays: Number(totalsRow?.covered ?? 0),
    };
  };
  return { current: aggregate('current', current), previous: previous ? aggregate('previous', previous) : null };
}

/**
 * The dimension tables of `resourceIds`: for each dimension, the `limit` keys with the most of
 * `sortBy` in `current` (descending, then key in byte order), each with its figures in `previous`
 * too. One statement: per key and range, additive sums and person-days (hash aggregate) and the peak
 * day of each people count (per key and day, summed over resources); then the ranking per dimension.
 * The label and detail of a key are those of its latest day in `current` (when several resources
 * report the key that day, the row with the greatest label), looked up for the listed keys only, by
 * the full primary key, so that no text is carried through the aggregation.
 */
export async function dimensionTables<D extends string>(
  source: DimensionSource<D>,
  resourceIds: string[],
  current: DayRange,
  previous: DayRange | null,
  limit: number,
): Promise<Record<D, DimensionRow[]>> {
  const { metrics } = source;
  const peakNames = Object.keys(metrics.peak);
  const scope = (from: string, to: string) =>
    `t.${source.resourceColumn} = ANY($1::uuid[]) AND t.dimension = ANY($6::"${source.dimensionType}"[]) AND t.date BETWEEN ${from} AND ${to}`;
  // Per key: additive sums and person-days, and the key's latest day (for its label).
  const sums = (from: string, to: string) =>
    `SELECT t.dimension, t.key, MAX(t.date) AS last_day,
       ${[
         ...Object.entries(metrics.summed).map(([name, expression]) => `SUM(${expression}) AS ${quote(name)}`),
         ...Object.entries(metrics.peak).map(([name, expression]) => `SUM(${expression}) AS ${quote(daysName(name))}`),
       ].join(',\n       ')}
     FROM ${source.table} t WHERE ${scope(from, to)}
     GROUP BY t.dimension, t.key`;
  // Per key: the peak day of each people count, summed over resources per day.
  const peaks = (from: string, to: string) =>
    `SELECT dimension, key, ${peakNames.map((name) => `MAX(${quote(name)}) AS ${quote(name)}`).join(', ')}
     FROM (
       SELECT t.dimension, t.key, t.date, ${Object.entries(metrics.peak).map(([name, expression]) => `SUM(${expression}) AS ${quote(name)}`).join(', ')}
       FROM ${source.table} t WHERE ${scope(from, to)}
       GROUP BY t.dimension, t.key, t.date
     ) per_day
     GROUP BY dimension, key`;
  const keyed = peakNames.length
    ? (from: string, to: string) =>
        `SELECT s.*, ${peakNames.map((name) => `p.${quote(name)}`).join(', ')}
         FROM (${sums(from, to)}) s JOIN (${peaks(from, to)}) p ON p.dimension = s.dimension AND p.key = s.key`
    : sums;
  const labels = source.labelled
    ? `LEFT JOIN LATERAL (
         SELECT l.label, l.detail FROM ${source.table} l
          WHERE l.${source.resourceColumn} = ANY($1::uuid[]) AND l.dimension = r.dimension AND l.date = r.last_day AND l.key = r.key
          ORDER BY l.label DESC LIMIT 1
       ) l ON k.period = 'current'`
    : '';
  const rows = await sql<Record<string, string | null> & { period: string; dimension: D; key: string; label: string | null; detail: string | null }>(
    `WITH keyed AS (
       ${perPeriod(keyed)}
     ),
     listed AS (
       SELECT * FROM (
         SELECT dimension, key, last_day,
           ROW_NUMBER() OVER (PARTITION BY dimension ORDER BY ${quote(source.sortBy)} DESC NULLS LAST, key COLLATE "C") AS rank
         FROM keyed WHERE period = 'current'
       ) ranked
       WHERE rank <= $7
     )
     SELECT k.*, ${source.labelled ? 'l.label, l.detail' : 'k.key AS label, NULL AS detail'}
     FROM listed r
     JOIN keyed k ON k.dimension = r.dimension AND k.key = r.key
     ${labels}
     ORDER BY r.dimension, r.rank, k.period`,
    [resourceIds, ...periodParams(current, previous), source.dimensions, limit],
  );

  const tables = Object.fromEntries(source.dimensions.map((dimension) => [dimension, [] as DimensionRow[]])) as Record<D, DimensionRow[]>;
  for (const row of rows) {
    const table = tables[row.dimension];
    if (row.period === 'current') {
      // A current row always has its label (its key has a row on its latest day).
      table.push({ key: row.key, label: row.label!, detail: row.detail, totals: sumsOf(row, metrics), previous: previous ? emptySums(metrics) : null });
    } else {
      // Rows come ordered by rank then period, so the key's current row is the last one pushed.
      table[table.length - 1]!.previous = sumsOf(row, metrics);
    }
  }
  return tables;
}

/** The one currency of a set of sources, or null when they differ (or none is known). */
export function singleCurrency(currencies: Array<string | null>): string | null {
  const distinct = new Set(currencies);
  return distinct.size === 1 ? [...distinct][0]! : null;
}

/** Builds a metric definition (the team's shape, returned as data by describe_metrics) keeping the literal name. */
export function metric<N extends string>(name: N, fields: Omit<MetricDefinition, 'name'>): MetricDefinition & { name: N } {
  return { name, ...fields };
}

/** The text a response schema gives a metric field. */
export function describeMetric(definition: MetricDefinition): string {
  return `${definition.definition} Unit: ${definition.unit}. ${definition.aggregation} Null: ${definition.whenNull}`;
}

/** A strict object of `number|null` fields, one per definition, in their order, each described by it. */
export function nullableNumbers<N extends string>(definitions: ReadonlyArray<MetricDefinition & { name: N }>) {
  const shape = Object.fromEntries(definitions.map((definition) => [definition.name, z.number().nullable().describe(describeMetric(definition))])) as Record<
    N,
    z.ZodNullable<z.ZodNumber>
  >;
  return z.strictObject(shape);
}

/** The spec's Dimension row around a surface's metric set. */
export function dimensionRowSchema<M extends z.ZodType>(metricSet: M) {
  return z.strictObject({
    key: z.string().describe("The source's own key of the row (e.g. a channel name, a page path, a country code)."),
    label: z.string().describe('Display name of the key, as of the latest day the key was reported in the range.'),
    detail: z.string().optional().describe('Extra text about the key (e.g. a page title), as of the same day; absent when none.'),
    totals: metricSet,
    previous: metricSet
      .nullable()
      .describe('The same key over the compare range; null when `compare` is `none`. Every figure is null when the key had no rows in the compare range.'),
  });
}

/** A daily series as the spec's daily points: the date and the chosen figures of each day. */
export function dailyPoints<F extends string>(aggregate: PeriodAggregate, fields: readonly F[]): Array<{ date: IsoDay } & Record<F, number | null>> {
  return aggregate.series.map(({ date, sums }) => ({
    date,
    ...(Object.fromEntries(fields.map((field) => [field, sums[field] ?? null])) as Record<F, number | null>),
  }));
}

/** Dimension rows in the spec's shape, each range's sums turned into the surface's metric set. */
export function dimensionRows<M>(rows: DimensionRow[], metricSet: (sums: Sums) => M) {
  return rows.map((row) => ({
    key: row.key,
    label: row.label,
    ...(row.detail === null ? {} : { detail: row.detail }),
    totals: metricSet(row.totals),
    previous: row.previous && metricSet(row.previous),
  }));
}

/** The response's tables by name (e.g. `landingPages`) from the tables by dimension (e.g. `landing_page`). */
export function namedTables<N extends string, D extends string, R>(
  names: Record<N, D>,
  tables: Record<D, DimensionRow[]>,
  toRows: (rows: DimensionRow[]) => R[],
): Record<N, R[]> {
  return Object.fromEntries(Object.entries<D>(names).map(([name, dimension]) => [name, toRows(tables[dimension])])) as Record<N, R[]>;
}

// ───────────────────────── shared wording of the operation descriptions ─────────────────────────

/** A markdown list of a metric set's definitions. */
export function definitionList(definitions: readonly MetricDefinition[]): string {
  return definitions.map((definition) => `- \`${definition.name}\`: ${describeMetric(definition)}`).join('\n');
}

/** How these surfaces count days and freshness; `source` names the resource (property, site, store). */
export function sourceDaysNote(source: string): string {
  return `Days are the ${source}'s own calendar days (its timezone, listed with it): \`from\` and \`to\` select those
days directly, so a response over several ${source}s adds days that each ${source} counted in its own zone.
\`meta.syncedAt\` is the oldest last successful sync among the ${source}s in reach (null when none has synced);
\`meta.timezone\` is the API-wide constant and does not describe these days.`;
}

export const NULL_RULES = `\`null\` is "not reported", never zero: a sum over rows that all left a figure unreported is null; a sum over
some reported rows is the sum of those. A rate whose denominator is 0 or null is null. Rates are derived from the
range's sums, never averaged from daily rates.`;
