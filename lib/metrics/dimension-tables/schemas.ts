// The zod pieces of the dimension-table surfaces (website overview and search, store): the `limit`
// parameter, a metric set as an object of nullable numbers, and the spec's Dimension row.
import { z } from 'zod';
import { boundedCount } from '../../contract/query';
import type { MetricDefinition } from '../definitions';
import { describeMetric } from './wording';

export const tableLimitParam = boundedCount(100, 25).describe('Rows per table (1 to 100, default 25): the top keys of each dimension.');

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
