// Per key of each dimension, a range's figures as SQL: the part of the dimension tables' statements
// (queries/dimension-tables.ts) that reads the rollup rows of the range's whole months and ten-day
// blocks and the daily rows of its other days (../../range-parts.ts), per resource or, for a whole
// organisation, from its organisation rollups, and sums them per key (people counts as each resource's
// peak, summed over the resources).
import type { SqlParams } from '../../../db';
import type { DayRange } from '../../../time/day-range';
import { inPart, rangeParts, type RangePart } from '../../range-parts';
import { daysAsPeakStretches, monthsAsPeakStretches, type PeakStretch } from '../../range-split';
import { daysName, quote, rollupColumn, type DimensionSource, type OrgRollups, type WholeOrg } from '../repository';

/** A metric as the dimension statements read it: response name, daily-table expression, rollup column. */
type Column = [name: string, expression: string, column: string];

/** What every part of one key aggregate is built from: its source, parameters, range and row filters. */
interface KeyStatement {
  source: DimensionSource<string>;
  p: SqlParams;
  range: DayRange;
  /** A row alias's dimensions (and `narrow`). */
  inDimensions: (alias: string) => string;
  /** A row alias's resources and dimensions. */
  scope: (alias: string) => string;
  /** The additive figures: the summed metrics and each people count's sum of days. */
  summedColumns: Column[];
  /** The people counts: peaks. */
  peakColumns: Column[];
}

/** Where each kind of part is read, with its alias and the column of its latest day. */
type PartReadings = Record<'daily' | 'tenday' | 'monthly', { table: string; alias: string; lastDay: string }>;

const sumsOf = (of: Column[]) => of.map(([name]) => `SUM(${quote(name)}) AS ${quote(name)}`);
const maxOf = (of: Column[]) => of.map(([name]) => `MAX(${quote(name)}) AS ${quote(name)}`);

/**
 * The rollup rows of the range's whole months and ten-day blocks and the daily rows of its other days,
 * with the same columns (a day is a month of one day). `day`: the latest day of the row, or null to
 * leave it out (with `withResource` false, the resource).
 */
function select(k: KeyStatement, alias: string, day: string | null, of: Column[], withResource = true): string {
  return `SELECT ${withResource ? `${alias}.${k.source.resourceColumn} AS resource, ` : ''}${alias}.dimension, ${alias}.key${day ? `, ${day} AS last_day` : ''}${of
    .map(([name, expression, column]) => `, ${alias === 't' ? expression : `${alias}.${column}`} AS ${quote(name)}`)
    .join('')}`;
}

function between(p: SqlParams, part: DayRange): string {
  return `BETWEEN ${p.add(part.from)}::date AND ${p.add(part.to)}::date`;
}

function readingOf(readings: PartReadings, part: RangePart) {
  return readings[part.source.daily ? 'daily' : part.source.rollup === 'tenday' ? 'tenday' : 'monthly'];
}

/** Each part of the range as a SELECT of the columns `of` from where `readings` say, within `scope`. */
function partSelects(k: KeyStatement, readings: PartReadings, of: Column[], scope: (alias: string) => string, withResource = true): string[] {
  return rangeParts(k.p, k.range).map((part) => {
    const { table, alias, lastDay } = readingOf(readings, part);
    return `${select(k, alias, lastDay, of, withResource)} FROM ${table} ${alias} WHERE ${scope(alias)} AND ${inPart(part, alias)}`;
  });
}

/** A resource's own tables, as the parts read them. */
function resourceReadings(source: DimensionSource<string>): PartReadings {
  return {
    monthly: { table: source.monthlyTable, alias: 'm', lastDay: 'm.last_day' },
    tenday: { table: source.tenDayTable, alias: 'b', lastDay: 'b.last_day' },
    daily: { table: source.table, alias: 't', lastDay: 't.date' },
  };
}

/** Every resource's rows of the range with the columns `of` and their latest day. */
function rowsOf(k: KeyStatement, of: Column[]): string {
  return `(${partSelects(k, resourceReadings(k.source), of, k.scope).join('\n UNION ALL ')}) parts`;
}

function perResource(k: KeyStatement, of: Column[], aggregates: string[]): string {
  return `SELECT resource, dimension, key, MAX(last_day) AS last_day, ${aggregates.join(', ')} FROM ${rowsOf(k, of)} GROUP BY resource, dimension, key`;
}

/**
 * Each resource's peak of the people counts over the range, from its running peaks: a stretch of days
 * at an end of the range, or of months up to or from a new year, is one row per resource and key (its
 * `_until_end` row when it ends its block or year, its `_since_start` row when it starts it); whole
 * blocks are the ten-day rollup's rows, and the rare stretch inside one block or year its days or months.
 * The running peaks' rows are read index-only (migration 20261125161952_web_people_peaks_covering_indexes).
 * Without running peaks, the range's rollup and daily rows of each resource.
 */
function peaksPerResource(k: KeyStatement, { runningPeaks }: OrgRollups): string {
  const { source, p, peakColumns } = k;
  if (!runningPeaks) return perResource(k, peakColumns, maxOf(peakColumns));
  const running = (alias: string, table: string, period: string, { read, range: part }: PeakStretch) => {
    const suffix = read === 'untilEnd' ? '_until_end' : '_since_start';
    return `SELECT ${alias}.${source.resourceColumn} AS resource, ${alias}.dimension, ${alias}.key${peakColumns
      .map(([name, , column]) => `, ${alias}.${column}${suffix} AS ${quote(name)}`)
      .join('')} FROM ${table} ${alias} WHERE ${k.scope(alias)} AND ${alias}.${period} = ${p.add(read === 'untilEnd' ? part.from : part.to)}::date`;
  };
  const each = (alias: string, table: string, column: string, part: DayRange) =>
    `${select(k, alias, null, peakColumns)} FROM ${table} ${alias} WHERE ${k.scope(alias)} AND ${alias}.${column} ${between(p, part)}`;
  const parts = rangeParts(p, k.range).flatMap((part) => {
    if (part.source.daily) {
      return daysAsPeakStretches(part.range).map((stretch) =>
        stretch.read === 'each' ? each('t', source.table, 'date', stretch.range) : running('p', runningPeaks.blockTable, 'date', stretch),
      );
    }
    if (part.source.rollup === 'tenday') return [each('b', source.tenDayTable, 'block', part.range)];
    return monthsAsPeakStretches(part.range).map((stretch) =>
      stretch.read === 'each' ? each('m', source.monthlyTable, 'month', stretch.range) : running('y', runningPeaks.yearTable, 'month', stretch),
    );
  });
  return `SELECT resource, dimension, key, ${maxOf(peakColumns).join(', ')} FROM (${parts.join('\n UNION ALL ')}) parts GROUP BY resource, dimension, key`;
}

/**
 * A whole organisation: its sums come summed over its resources already (a month is a row per key,
 * not one per resource and key); only the people counts (each resource's peak, then summed) are read
 * per resource, from the running peaks. The same keys have rows in both (the organisation's rows are
 * sums of its resources' rows; a running peak's row has a key with a row in its block or year, and
 * a key without one in the range adds only nulls, which SUM ignores).
 */
function orgKeyAggregate(k: KeyStatement, org: WholeOrg): string {
  const { summedColumns, peakColumns } = k;
  const orgScope = (alias: string) => `${alias}.org_id = ${org.id}::uuid AND ${k.inDimensions(alias)}`;
  const orgReadings: PartReadings = {
    monthly: { table: org.rollups.monthlyTable, alias: 'm', lastDay: 'm.last_day' },
    tenday: { table: org.rollups.tenDayTable, alias: 'b', lastDay: 'b.last_day' },
    daily: { table: org.rollups.dailyTable, alias: 'd', lastDay: 'd.date' },
  };
  const orgParts = partSelects(k, orgReadings, summedColumns, orgScope, false);
  return `SELECT s.*, ${peakColumns.map(([name]) => `r.${quote(name)}`).join(', ')}
      FROM (SELECT dimension, key, MAX(last_day) AS last_day, ${sumsOf(summedColumns).join(', ')}
              FROM (${orgParts.join('\n UNION ALL ')}) parts GROUP BY dimension, key) s
      JOIN (SELECT dimension, key, ${sumsOf(peakColumns).join(', ')}
              FROM (${peaksPerResource(k, org.rollups)}) per_resource GROUP BY dimension, key) r
        ON r.dimension = s.dimension AND r.key = s.key`;
}

/**
 * Per key of each dimension, the range's figures as SQL (see dimensionTables); `narrow` is a condition on a
 * row alias. `org` is set when `resources` are every resource of that organisation.
 */
export function keyAggregate<D extends string>(
  source: DimensionSource<D>,
  p: SqlParams,
  resources: string,
  range: DayRange,
  narrow: (alias: string) => string = () => '',
  org: WholeOrg | null = null,
): string {
  const { metrics } = source;
  const dimensions = p.add(source.dimensions);
  const inDimensions = (alias: string) => `${alias}.dimension = ANY(${dimensions}::"${source.dimensionType}"[])${narrow(alias)}`;
  const k: KeyStatement = {
    source,
    p,
    range,
    inDimensions,
    scope: (alias) => `${alias}.${source.resourceColumn} = ANY(${resources}::uuid[]) AND ${inDimensions(alias)}`,
    summedColumns: [
      ...Object.entries(metrics.summed).map(([name, expression]): Column => [name, expression, rollupColumn(name)]),
      ...Object.entries(metrics.peak).map(([name, expression]): Column => [daysName(name), expression, `${rollupColumn(name)}_days`]),
    ],
    peakColumns: Object.entries(metrics.peak).map(([name, expression]): Column => [name, expression, rollupColumn(name)]),
  };
  const { summedColumns, peakColumns } = k;
  const columns = [...summedColumns, ...peakColumns];
  if (org && peakColumns.length) return orgKeyAggregate(k, org);
  if (!peakColumns.length) return `SELECT dimension, key, MAX(last_day) AS last_day, ${sumsOf(summedColumns).join(', ')} FROM ${rowsOf(k, columns)} GROUP BY dimension, key`;
  // People counts: each resource's peak, then summed over the resources. One pass over the range's rows,
  // grouped per resource and key (a few thousand groups in memory), then per key.
  return `SELECT dimension, key, MAX(last_day) AS last_day, ${sumsOf(columns).join(', ')}
    FROM (${perResource(k, columns, [...sumsOf(summedColumns), ...maxOf(peakColumns)])}) per_resource GROUP BY dimension, key`;
}
