// What every surface's metric definitions share: the list cap and the shape of a definition. Each
// surface lists its metrics as plain data (no functions), so the operation descriptions and an MCP
// `describe_metrics` tool can both be written from them.

/** Every list is capped at this many rows; `truncated: true` says the cap applied. */
export const LIST_CAP = 500;

export interface MetricDefinition {
  /** The field name, as it appears in responses. */
  name: string;
  /** `amount` is money in the source's currency; `count` an integer; `ratio` a derived figure. */
  kind: 'amount' | 'count' | 'ratio' | 'label';
  unit: string;
  definition: string;
  /** How it is computed over several days or entities. */
  aggregation: string;
  /** When the value is null (not reported). */
  whenNull: string;
}

/** Builds a metric definition (the team's shape, returned as data by describe_metrics) keeping the literal name. */
export function metric<N extends string>(name: N, fields: Omit<MetricDefinition, 'name'>): MetricDefinition & { name: N } {
  return { name, ...fields };
}

/** How an overview's series is bucketed (`granularity`), for both surfaces that have one. */
export const SERIES_BUCKETS_RULE =
  'A series point is a day, an ISO week (Monday to Sunday) or a calendar month (`granularity`), the first and last clipped to the range, dated by its first day in the range. A week or a month is a range of its own: its figures follow the range rules (sums of the days; reach the peak day, never a sum; followers each page\'s last level within it, summed over the pages).';
