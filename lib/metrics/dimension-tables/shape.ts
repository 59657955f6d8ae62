// From what queries/ reads to the spec's shapes: daily points, Dimension rows and the response's named
// tables. Pure functions; each surface passes its own metric set (its rates derived from the sums).
import type { IsoDay } from '../../time/days';
import type { DimensionRow, PeriodAggregate, Sums } from './repository';

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
