// Range aggregates over the daily tables of the web-analytics, search-console and store sources, as
// SQL: totals and a daily series for the requested range and its compare range, and the dimension
// tables (top keys of each dimension with their figures in both ranges). One implementation for the
// three surfaces; each describes its tables and metric columns and derives its rates from these sums
// (shape.ts turns them into the spec's shapes; schemas.ts and wording.ts describe them).
// Why people counts are each resource's peak day, summed, and which rollups and indexes a range reads:
// docs/architecture.md, "Range aggregates of the web, search-console and store sources".
// This file: how a source describes its tables and metrics, and the sums the statements return; the
// statements are one file per query in queries/ (period-aggregates, dimension-tables, and key-aggregate,
// the per-key part of the latter).
import type { IsoDay } from '../../time/days';
import { num } from '../ratios';

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

export type OrgRollups = NonNullable<DimensionSource<string>['orgRollups']>;

/** A whole organisation, read from its source's organisation rollups: its id (in a statement, the SQL reference of its id). */
export interface WholeOrg {
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

export const quote = (name: string) => `"${name}"`;
export const daysName = (name: string) => `${name}Days`;
/** The rollup column of a metric: its name in snake_case. */
export const rollupColumn = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export function metricNames(metrics: MetricColumns): string[] {
  return [...Object.keys(metrics.summed), ...Object.keys(metrics.peak)];
}

export function sumsOf(row: Record<string, unknown>, metrics: MetricColumns): Sums {
  const sums: Sums = {};
  for (const name of Object.keys(metrics.summed)) sums[name] = num(row[name] as string | null);
  for (const name of Object.keys(metrics.peak)) {
    sums[name] = num(row[name] as string | null);
    sums[daysName(name)] = num(row[daysName(name)] as string | null);
  }
  return sums;
}

/** A day's figures: each metric as reported that day (summed over resources), people counts included. */
export function daySumsOf(row: Record<string, unknown> | undefined, metrics: MetricColumns): Sums {
  return Object.fromEntries(metricNames(metrics).map((name) => [name, num((row?.[name] ?? null) as string | null)]));
}

export function emptySums(metrics: MetricColumns): Sums {
  return sumsOf({}, metrics);
}
