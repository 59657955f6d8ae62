// Response schema of /store/overview (strict: no key beyond these).
import { z } from 'zod';
import { compareRangeSchema } from '../compare';
import { dimensionRowSchema, nullableNumbers } from '../dimension-tables/schemas';
import { STORE_METRICS, STORE_TABLES } from './definitions';

const day = z.iso.date();

export const storeMetricSetSchema = nullableNumbers(STORE_METRICS).describe('Store metric set over a range.');

export const storeDayPointSchema = z
  .strictObject({
    date: day,
    netSales: z.number().nullable(),
    grossSales: z.number().nullable(),
    orders: z.number().nullable(),
    unitsSold: z.number().nullable(),
    returns: z.number().nullable(),
    newCustomers: z.number().nullable(),
  })
  .describe('One bucket of `granularity` (a day by default; every bucket of the range is listed, dated by its first day in the range; a bucket with no data has null figures).');

const storeDimensionRow = dimensionRowSchema(storeMetricSetSchema);

const storeTables = Object.fromEntries(
  Object.keys(STORE_TABLES).map((table) => [table, z.array(storeDimensionRow).describe('Dimension rows sorted by netSales, descending, then key; at most `limit`.')]),
) as Record<keyof typeof STORE_TABLES, z.ZodArray<typeof storeDimensionRow>>;

export const commerceStoreSchema = z.strictObject({
  id: z.string().describe('The internal id of the store.'),
  shopDomain: z.string(),
  shopName: z.string().nullable(),
  timezone: z.string().nullable().describe("The store's timezone: its days are calendar days there."),
  lastSyncedAt: z.iso.datetime().nullable().describe('End of the latest successful sync of this store; null when it never synced.'),
  hasAllOrdersScope: z
    .boolean()
    .describe('Whether the store granted access to all its orders. When false the platform only gives the last 60 days of orders, so older days may be missing or incomplete.'),
});

export const storeOverviewSchema = z.strictObject({
  from: day,
  to: day,
  compare: compareRangeSchema,
  store: z
    .strictObject({
      stores: z.array(commerceStoreSchema).describe('Every store in reach, by shop domain.'),
      currency: z.string().nullable().describe('The currency of every store; null when they differ (money figures then mix currencies) or none is known.'),
      totals: storeMetricSetSchema,
      previous: storeMetricSetSchema.nullable().describe('The compare range; null when `compare` is `none`.'),
      series: z.array(storeDayPointSchema),
      previousSeries: z.array(storeDayPointSchema).describe("The compare range's buckets of `granularity`; empty when `compare` is `none`."),
      ...storeTables,
    })
    .nullable()
    .describe('null when no store is in reach.'),
});

export type StoreOverview = z.infer<typeof storeOverviewSchema>;
