// Range aggregates over the daily tables of the web-analytics, search-console and store sources, as
// SQL: totals and a daily series for the requested range and its compare range, and the dimension
// tables (top keys of each dimension with their figures in both ranges). One implementation for the
// three surfaces; each describes its tables and metric columns and derives its rates from these sums
// (shape.ts turns them into the spec's shapes; schemas.ts and wording.ts describe them).
// Why people counts are each resource's peak day, summed, and which rollups and indexes a range reads:
// docs/architecture.md, "Range aggregates of the web, search-console and store sources".
import { readSql as sql, SqlParams } from '../../db';
import { bucketsOf, type Granularity } from '../../time/buckets';
import type { DayRange } from '../../time/day-range';
import type { IsoDay } from '../../time/days';
import { num } from '../ratios';
import { daysAsPeakStretches, monthsAsPeakStretches, splitRange, type PeakStretch } from '../range-split';

/**
 * The metric columns of a source, as SQL expressions over the source row `t`. Names are the
 * response's field names. Expressions are constants of the code, never caller input.
 */
export interface MetricColumns {
  /** Additive figures: summed over resources and days. */
  summed: Record<string, string>;
  /**
   * Counts of people (non-additive over days): the range reports as `<name>` the peak day of each
   * resource summed over the resources, and as `<name>Days` the sum of the daily values (person-days).
   * A day of the daily series reports the day's value summed over the resources.
   */
  peak: Record<string, string>;
}

export interface DailySource {
  /** The daily table, keyed by (resource column, date). */
  table: string;
  resourceColumn: string;
  metrics: MetricColumns;
  /**
   * Its rows summed over a whole organisation's resources, when it has them: keyed by (org_id, date),
   * with `resources` (the number of resource rows of the day) and each metric's daily sum in the column
   * of the daily table it reads (each metric's expression is `t.<its name in snake_case>`). A whole
   * organisation's sums and series are read there, and only its people counts' peaks per resource.
   */
  orgDailyTable?: string;
}

export interface DimensionSource<D extends string> {
  /** The per-dimension daily table, keyed by (resource column, dimension, date, key). */
  table: string;
  /**
   * Its monthly rollup, keyed by (resource column, dimension, month, key), with `last_day` and one
   * column per metric named as the metric in snake_case (`sessions`, `position_weight`): the month's
   * sum, or for a people count the month's peak day, with its sum of days in `<column>_days`.
   */
  monthlyTable: string;
  /** Its ten-day rollup: the same columns per ten-day block, keyed by (resource column, dimension, block, key). */
  tenDayTable: string;
  /**
   * Its rows summed over a whole organisation's resources, when it has them: per day (keyed by (org_id,
   * dimension, date, key), with the day's `label` and `detail` when `labelled`: those of the row with the
   * greatest label), month and ten-day block (keyed as the rollups, by org_id, with `last_day`), with the
   * additive columns only (the summed metrics and `<people>_days`). A whole organisation's sums and labels
   * are read there, and only its people counts per resource: from the running peaks below when the source
   * has them, otherwise from its own rollups and daily rows (two MAXes instead of every figure).
   */
  orgRollups?: {
    dailyTable: string;
    monthlyTable: string;
    tenDayTable: string;
    /**
     * The people counts' running peaks per resource, from which a whole organisation's are read: per day
     * within its ten-day block (`blockTable`, keyed as the daily table) and per month within its year
     * (`yearTable`, keyed as the monthly rollup), with `<column>_since_start` and `<column>_until_end` for
     * each people count.
     */
    runningPeaks?: { blockTable: string; yearTable: string };
  };
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

type OrgRollups = NonNullable<DimensionSource<string>['orgRollups']>;

/** A whole organisation, read from its source's organisation rollups: its id (in a statement, the SQL reference of its id). */
interface WholeOrg {
  id: string;
  rollups: OrgRollups;
}

/** Sums over a range: each metric of the source (null when every row left it unreported), and `<peak>Days`. */
export type Sums = Record<string, number | null>;

export interface PeriodAggregate {
  totals: Sums;
  /**
   * Every bucket of the range (days unless a granularity is given), in order, dated by its first day in
   * the range; a bucket without rows has every figure null.
   */
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

const quote = (name: string) => `"${name}"`;
const daysName = (name: string) => `${name}Days`;
/** The rollup column of a metric: its name in snake_case. */
const rollupColumn = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function metricNames(metrics: MetricColumns): string[] {
  return [...Object.keys(metrics.summed), ...Object.keys(metrics.peak)];
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
  const { metrics } = source;
  const summed = { ...metrics.summed, ...metrics.peak };
  const peakNames = Object.keys(metrics.peak);
  const resource = `t.${source.resourceColumn}`;
  const peakName = (name: string) => `${name}Peak`;
  const orgDaily = source.orgDailyTable && wholeOrgId !== null ? source.orgDailyTable : null;
  // The parameters every range reads (a statement may not pass one it does not read); the ranges' bounds follow.
  const shared = new SqlParams();
  const resources = !orgDaily || peakNames.length ? shared.add(resourceIds) : null;
  const org = orgDaily ? shared.add(wholeOrgId) : null;
  const unit = granularity === 'day' ? null : shared.add(granularity);
  const nulls = (names: string[]) => names.map((name) => `, NULL AS ${quote(name)}`).join('');
  const periods = perPeriod(current, previous, (range) => [range?.from ?? null, range?.to ?? null], shared.values.length + 1, ([from, to]) => {
    const bucket = (alias: string) => (unit ? bucketStart(unit, `${alias}.date`, from!) : `${alias}.date`);
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
  });
  const peaksOf = (range: DayRange | null) =>
    range && unit && peakNames.length ? bucketPeaks(source, resourceIds, range, granularity) : Promise.resolve(new Map<IsoDay, Sums>());
  const [rows, currentPeaks, previousPeaks] = await Promise.all([
    sql<Record<string, string | null> & { period: string; date: string | null; covered: string }>(
      `WITH grouped AS (${periods.text})
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
       FROM grouped GROUP BY period`,
      [...shared.values, ...periods.values],
    ),
    peaksOf(current),
    peaksOf(previous),
  ]);

  const aggregate = (period: 'current' | 'previous', range: DayRange, peaks: Map<IsoDay, Sums>): PeriodAggregate => {
    const mine = rows.filter((row) => row.period === period);
    const totalsRow = mine.find((row) => row.date === null);
    const byBucket = new Map(mine.filter((row) => row.date !== null).map((row) => [row.date!, row]));
    return {
      totals: totalsRow ? sumsOf(totalsRow, metrics) : emptySums(metrics),
      // A week's or month's people counts are its peaks; a day's are the day's own values.
      series: bucketsOf(range.from, range.to, granularity).map(({ from: date }) => ({
        date,
        sums: { ...daySumsOf(byBucket.get(date), metrics), ...(unit ? peakSums(peaks.get(date), peakNames) : {}) },
      })),
      coveredDays: Number(totalsRow?.covered ?? 0),
    };
  };
  return {
    current: aggregate('current', current, currentPeaks),
    previous: previous ? aggregate('previous', previous, previousPeaks) : null,
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

/** A metric as the dimension statements read it: response name, daily-table expression, rollup column. */
type Column = [name: string, expression: string, column: string];

/**
 * How many keys per dimension the compare range's statement returns, per key listed: its own highest
 * ranked ones. A key listed for the range is almost always among them; one that is not, in a dimension
 * with more keys than that, is read by a third statement.
 */
const COMPARED_KEYS_PER_LISTED = 4;

/** A key's figures in a range (see keyAggregate). */
interface FigureRow extends Record<string, string | null> {
  dimension: string;
  key: string;
}

/** A ranked key (see rankedKeys). */
interface KeyRow extends FigureRow {
  label: string | null;
  detail: string | null;
  /** Number of keys of the dimension in the range. */
  keys: string;
}

/**
 * Per key of each dimension, the range's figures as SQL (see dimensionTables); `narrow` is a condition on a
 * row alias. `org` is set when `resources` are every resource of that organisation.
 */
function keyAggregate<D extends string>(
  source: DimensionSource<D>,
  p: SqlParams,
  resources: string,
  range: DayRange,
  narrow: (alias: string) => string = () => '',
  org: WholeOrg | null = null,
): string {
  const { metrics } = source;
  const resource = source.resourceColumn;
  const dimensions = p.add(source.dimensions);
  const inDimensions = (alias: string) => `${alias}.dimension = ANY(${dimensions}::"${source.dimensionType}"[])${narrow(alias)}`;
  const scope = (alias: string) => `${alias}.${resource} = ANY(${resources}::uuid[]) AND ${inDimensions(alias)}`;
  const summedColumns: Column[] = [
    ...Object.entries(metrics.summed).map(([name, expression]): Column => [name, expression, rollupColumn(name)]),
    ...Object.entries(metrics.peak).map(([name, expression]): Column => [daysName(name), expression, `${rollupColumn(name)}_days`]),
  ];
  const peakColumns = Object.entries(metrics.peak).map(([name, expression]): Column => [name, expression, rollupColumn(name)]);
  const columns = [...summedColumns, ...peakColumns];
  // The rollup rows of the range's whole months and ten-day blocks and the daily rows of its other
  // days, with the same columns (a day is a month of one day).
  // `day`: the latest day of the row, or null to leave it out (with `withResource` false, the resource).
  const select = (alias: string, day: string | null, of: Column[], withResource = true) =>
    `SELECT ${withResource ? `${alias}.${resource} AS resource, ` : ''}${alias}.dimension, ${alias}.key${day ? `, ${day} AS last_day` : ''}${of
      .map(([name, expression, column]) => `, ${alias === 't' ? expression : `${alias}.${column}`} AS ${quote(name)}`)
      .join('')}`;
  const split = splitRange(range);
  const between = (part: DayRange) => `BETWEEN ${p.add(part.from)}::date AND ${p.add(part.to)}::date`;
  const blocks = [split.headBlocks, split.tailBlocks].filter((part): part is DayRange => part !== null);
  const days = [split.headDays, split.tailDays].filter((part): part is DayRange => part !== null);
  const sumsOf = (of: Column[]) => of.map(([name]) => `SUM(${quote(name)}) AS ${quote(name)}`);
  const maxOf = (of: Column[]) => of.map(([name]) => `MAX(${quote(name)}) AS ${quote(name)}`);
  // Every resource's rows of the range with the columns `of` and their latest day.
  const rowsOf = (of: Column[]) =>
    `(${[
      split.months && `${select('m', 'm.last_day', of)} FROM ${source.monthlyTable} m WHERE ${scope('m')} AND m.month ${between(split.months)}`,
      ...blocks.map((part) => `${select('b', 'b.last_day', of)} FROM ${source.tenDayTable} b WHERE ${scope('b')} AND b.block ${between(part)}`),
      ...days.map((part) => `${select('t', 't.date', of)} FROM ${source.table} t WHERE ${scope('t')} AND t.date ${between(part)}`),
    ]
      .filter((part): part is string => Boolean(part))
      .join('\n UNION ALL ')}) parts`;
  const perResource = (of: Column[], aggregates: string[]) =>
    `SELECT resource, dimension, key, MAX(last_day) AS last_day, ${aggregates.join(', ')} FROM ${rowsOf(of)} GROUP BY resource, dimension, key`;
  // Each resource's peak of the people counts over the range, from its running peaks: a stretch of days
  // at an end of the range, or of months up to or from a new year, is one row per resource and key (its
  // `_until_end` row when it ends its block or year, its `_since_start` row when it starts it); whole
  // blocks are the ten-day rollup's rows, and the rare stretch inside one block or year its days or months.
  // The running peaks' rows are read index-only (migration 20261125161952_web_people_peaks_covering_indexes).
  // Without running peaks, the range's rollup and daily rows of each resource.
  const peaksPerResource = ({ runningPeaks }: OrgRollups) => {
    if (!runningPeaks) return perResource(peakColumns, maxOf(peakColumns));
    const running = (alias: string, table: string, period: string, { read, range: part }: PeakStretch) => {
      const suffix = read === 'untilEnd' ? '_until_end' : '_since_start';
      return `SELECT ${alias}.${resource} AS resource, ${alias}.dimension, ${alias}.key${peakColumns
        .map(([name, , column]) => `, ${alias}.${column}${suffix} AS ${quote(name)}`)
        .join('')} FROM ${table} ${alias} WHERE ${scope(alias)} AND ${alias}.${period} = ${p.add(read === 'untilEnd' ? part.from : part.to)}::date`;
    };
    const parts = [
      ...(split.months ? monthsAsPeakStretches(split.months) : []).map((stretch) =>
        stretch.read === 'each'
          ? `${select('m', null, peakColumns)} FROM ${source.monthlyTable} m WHERE ${scope('m')} AND m.month ${between(stretch.range)}`
          : running('y', runningPeaks.yearTable, 'month', stretch),
      ),
      ...blocks.map((part) => `${select('b', null, peakColumns)} FROM ${source.tenDayTable} b WHERE ${scope('b')} AND b.block ${between(part)}`),
      ...days.flatMap(daysAsPeakStretches).map((stretch) =>
        stretch.read === 'each'
          ? `${select('t', null, peakColumns)} FROM ${source.table} t WHERE ${scope('t')} AND t.date ${between(stretch.range)}`
          : running('p', runningPeaks.blockTable, 'date', stretch),
      ),
    ];
    return `SELECT resource, dimension, key, ${maxOf(peakColumns).join(', ')} FROM (${parts.join('\n UNION ALL ')}) parts GROUP BY resource, dimension, key`;
  };
  if (org && peakColumns.length) {
    // A whole organisation: its sums come summed over its resources already (a month is a row per key,
    // not one per resource and key); only the people counts (each resource's peak, then summed) are read
    // per resource, from the running peaks. The same keys have rows in both (the organisation's rows are
    // sums of its resources' rows; a running peak's row has a key with a row in its block or year, and
    // a key without one in the range adds only nulls, which SUM ignores).
    const orgScope = (alias: string) => `${alias}.org_id = ${org.id}::uuid AND ${inDimensions(alias)}`;
    const orgParts = [
      split.months &&
        `${select('m', 'm.last_day', summedColumns, false)} FROM ${org.rollups.monthlyTable} m WHERE ${orgScope('m')} AND m.month ${between(split.months)}`,
      ...blocks.map(
        (part) => `${select('b', 'b.last_day', summedColumns, false)} FROM ${org.rollups.tenDayTable} b WHERE ${orgScope('b')} AND b.block ${between(part)}`,
      ),
      ...days.map(
        (part) => `${select('d', 'd.date', summedColumns, false)} FROM ${org.rollups.dailyTable} d WHERE ${orgScope('d')} AND d.date ${between(part)}`,
      ),
    ].filter((part): part is string => Boolean(part));
    return `SELECT s.*, ${peakColumns.map(([name]) => `r.${quote(name)}`).join(', ')}
      FROM (SELECT dimension, key, MAX(last_day) AS last_day, ${sumsOf(summedColumns).join(', ')}
              FROM (${orgParts.join('\n UNION ALL ')}) parts GROUP BY dimension, key) s
      JOIN (SELECT dimension, key, ${sumsOf(peakColumns).join(', ')}
              FROM (${peaksPerResource(org.rollups)}) per_resource GROUP BY dimension, key) r
        ON r.dimension = s.dimension AND r.key = s.key`;
  }
  if (!peakColumns.length) return `SELECT dimension, key, MAX(last_day) AS last_day, ${sumsOf(summedColumns).join(', ')} FROM ${rowsOf(columns)} GROUP BY dimension, key`;
  // People counts: each resource's peak, then summed over the resources. One pass over the range's rows,
  // grouped per resource and key (a few thousand groups in memory), then per key.
  return `SELECT dimension, key, MAX(last_day) AS last_day, ${sumsOf(columns).join(', ')}
    FROM (${perResource(columns, [...sumsOf(summedColumns), ...maxOf(peakColumns)])}) per_resource GROUP BY dimension, key`;
}

/**
 * The `limit` keys of each dimension with the most of `sortBy` in `range` (descending, then key in byte
 * order), in that order, with their figures, the number of keys of their dimension and, when `labelled`,
 * their label and detail: those of the key's latest day in the range (when several resources report the
 * key that day, the row with the greatest label), looked up in the daily table for the listed keys only,
 * by the full primary key, so that no text is carried through the aggregation.
 */
function rankedKeys<D extends string>(
  source: DimensionSource<D>,
  resourceIds: string[],
  whole: WholeOrg | null,
  range: DayRange,
  limit: number,
  labelled: boolean,
): Promise<KeyRow[]> {
  const p = new SqlParams();
  const resources = p.add(resourceIds);
  const org = whole && { id: p.add(whole.id), rollups: whole.rollups };
  const keyed = keyAggregate(source, p, resources, range, undefined, org);
  const withLabels = labelled && source.labelled;
  // A whole organisation's label of a key on a day is kept with its daily sums.
  const labels = !withLabels
    ? ''
    : org
      ? `LEFT JOIN ${org.rollups.dailyTable} l ON l.org_id = ${org.id}::uuid AND l.dimension = r.dimension AND l.date = r.last_day AND l.key = r.key`
      : `LEFT JOIN LATERAL (
         SELECT l.label, l.detail FROM ${source.table} l
          WHERE l.${source.resourceColumn} = ANY(${resources}::uuid[]) AND l.dimension = r.dimension AND l.date = r.last_day AND l.key = r.key
          ORDER BY l.label DESC LIMIT 1
       ) l ON true`;
  return sql<KeyRow>(
    `WITH keyed AS (${keyed})
     SELECT r.*, ${withLabels ? 'l.label, l.detail' : 'r.key AS label, NULL AS detail'}
       FROM (SELECT k.*, count(*) OVER (PARTITION BY k.dimension) AS keys,
                    ROW_NUMBER() OVER (PARTITION BY k.dimension ORDER BY k.${quote(source.sortBy)} DESC NULLS LAST, k.key COLLATE "C") AS rank
               FROM keyed k) r
       ${labels}
      WHERE r.rank <= ${p.add(limit)}
      ORDER BY r.dimension, r.rank`,
    p.values,
  );
}

/** The figures in `range` of the given keys (no row for a key without rows in the range). */
function keyFigures<D extends string>(
  source: DimensionSource<D>,
  resourceIds: string[],
  whole: WholeOrg | null,
  range: DayRange,
  keys: FigureRow[],
): Promise<FigureRow[]> {
  const p = new SqlParams();
  const resources = p.add(resourceIds);
  const org = whole && { id: p.add(whole.id), rollups: whole.rollups };
  const wanted = `(SELECT * FROM unnest(${p.add(keys.map((row) => row.dimension))}::"${source.dimensionType}"[], ${p.add(keys.map((row) => row.key))}::text[]))`;
  return sql<FigureRow>(keyAggregate(source, p, resources, range, (alias) => ` AND (${alias}.dimension, ${alias}.key) IN ${wanted}`, org), p.values);
}

/** Rows by dimension and key. */
function byDimensionAndKey(rows: FigureRow[]): Map<string, Map<string, FigureRow>> {
  const map = new Map<string, Map<string, FigureRow>>();
  for (const row of rows) {
    if (!map.has(row.dimension)) map.set(row.dimension, new Map());
    map.get(row.dimension)!.set(row.key, row);
  }
  return map;
}

/**
 * The dimension tables of `resourceIds`: for each dimension, the `limit` keys with the most of
 * `sortBy` in `current` (descending, then key in byte order), each with its figures in `previous`
 * too. Per range, the rollup rows of its whole months and ten-day blocks and the daily rows of its
 * other days (UNION ALL, same columns), aggregated per resource and key (sums, person-days, latest day,
 * peaks) and then per key (peaks summed over resources). The two ranges are read by two statements side
 * by side: the range's ranking with labels, and the compare range's own highest ranked keys
 * (COMPARED_KEYS_PER_LISTED per listed key), which almost always hold every listed key; the listed keys
 * of a dimension that had more keys in the compare range and are not among them are read afterwards.
 * `wholeOrgId`: the organisation when `resourceIds` are all of its resources (every client and the
 * unassigned ones); a source with organisation rollups then reads its sums there.
 */
export async function dimensionTables<D extends string>(
  source: DimensionSource<D>,
  resourceIds: string[],
  current: DayRange,
  previous: DayRange | null,
  limit: number,
  wholeOrgId: string | null = null,
): Promise<Record<D, DimensionRow[]>> {
  const { metrics } = source;
  const whole = source.orgRollups && wholeOrgId !== null ? { id: wholeOrgId, rollups: source.orgRollups } : null;
  const comparedLimit = limit * COMPARED_KEYS_PER_LISTED;
  const [listed, compared] = await Promise.all([
    rankedKeys(source, resourceIds, whole, current, limit, true),
    previous ? rankedKeys(source, resourceIds, whole, previous, comparedLimit, false) : Promise.resolve([]),
  ]);
  const before = byDimensionAndKey(compared);
  if (previous) {
    const cut = new Set(compared.filter((row) => Number(row.keys) > comparedLimit).map((row) => row.dimension));
    const unread = listed.filter((row) => cut.has(row.dimension) && !before.get(row.dimension)?.has(row.key));
    if (unread.length > 0) {
      for (const [dimension, rows] of byDimensionAndKey(await keyFigures(source, resourceIds, whole, previous, unread))) {
        for (const [key, row] of rows) before.get(dimension)!.set(key, row);
      }
    }
  }

  const tables = Object.fromEntries(source.dimensions.map((dimension) => [dimension, [] as DimensionRow[]])) as Record<D, DimensionRow[]>;
  for (const row of listed) {
    const then = before.get(row.dimension)?.get(row.key);
    tables[row.dimension as D].push({
      key: row.key,
      // A listed row always has its label (its key has a row on its latest day).
      label: row.label!,
      detail: row.detail,
      totals: sumsOf(row, metrics),
      // A key without rows in the compare range: every figure null.
      previous: previous ? (then ? sumsOf(then, metrics) : emptySums(metrics)) : null,
    });
  }
  return tables;
}
