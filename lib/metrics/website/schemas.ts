// Response schemas of /website/overview and /website/search (strict: no key beyond these).
import { z } from 'zod';
import { compareRangeSchema } from '../compare';
import { dimensionRowSchema, nullableNumbers } from '../dimension-tables/schemas';
import { SEARCH_METRICS, SEARCH_TABLES, WEB_METRICS, WEB_TABLES } from './definitions';

const day = z.iso.date();
const syncedAt = z.iso.datetime().nullable().describe('End of the latest successful sync of this source; null when it never synced.');

// ───────────────────────── /website/overview ─────────────────────────

export const webMetricSetSchema = nullableNumbers(WEB_METRICS).describe('Web-analytics metric set over a range.');

export const webDayPointSchema = z
  .strictObject({
    date: day,
    sessions: z.number().nullable(),
    totalUsers: z.number().nullable().describe("The bucket's total users: each property's peak day within it (for a day, that day's), summed over properties."),
    newUsers: z.number().nullable(),
    engagedSessions: z.number().nullable(),
    keyEvents: z.number().nullable(),
    totalRevenue: z.number().nullable(),
  })
  .describe('One bucket of `granularity` (a day by default; every bucket of the range is listed, dated by its first day in the range; a bucket with no data has null figures).');

const webDimensionRow = dimensionRowSchema(webMetricSetSchema);

const webTables = Object.fromEntries(
  Object.keys(WEB_TABLES).map((table) => [table, z.array(webDimensionRow).describe('Dimension rows sorted by sessions, descending, then key; at most `limit`.')]),
) as Record<keyof typeof WEB_TABLES, z.ZodArray<typeof webDimensionRow>>;

export const analyticsPropertySchema = z.strictObject({
  id: z.string().describe('The internal id of the property.'),
  name: z.string(),
  timezone: z.string().nullable().describe("The property's timezone: its days are calendar days there."),
  lastSyncedAt: syncedAt,
});

export const websiteOverviewSchema = z.strictObject({
  from: day,
  to: day,
  compare: compareRangeSchema,
  analytics: z
    .strictObject({
      properties: z.array(analyticsPropertySchema).describe('Every property in reach, by name.'),
      currency: z.string().nullable().describe('The currency of every property; null when they differ (money figures then mix currencies) or none is known.'),
      totals: webMetricSetSchema,
      previous: webMetricSetSchema.nullable().describe('The compare range; null when `compare` is `none`.'),
      series: z.array(webDayPointSchema),
      previousSeries: z.array(webDayPointSchema).describe("The compare range's buckets of `granularity`; empty when `compare` is `none`."),
      ...webTables,
      partial: z
        .boolean()
        .describe('true when at least one property in reach has no daily row for some day of the range (not synced yet, a gap, or a day in the future); the compare range is not checked.'),
    })
    .nullable()
    .describe('null when no analytics property is in reach.'),
});

// ───────────────────────── /website/search ─────────────────────────

export const searchMetricSetSchema = nullableNumbers(SEARCH_METRICS).describe('Search-console metric set over a range.');

export const searchDayPointSchema = z
  .strictObject({ date: day, ...searchMetricSetSchema.shape })
  .describe('One bucket of `granularity` (a day by default; every bucket of the range is listed, dated by its first day in the range; a bucket with no data has null figures).');

export const searchRowSchema = z.strictObject({
  key: z.string().describe('The query, page URL, country code, device or search appearance, as the search console reports it.'),
  totals: searchMetricSetSchema,
  previous: searchMetricSetSchema
    .nullable()
    .describe('The same key over the compare range; null when `compare` is `none`. Every figure is null when the key had no rows then.'),
});

const searchTables = Object.fromEntries(
  Object.keys(SEARCH_TABLES).map((table) => [table, z.array(searchRowSchema).describe('Rows sorted by clicks, descending, then key; at most `limit`.')]),
) as Record<keyof typeof SEARCH_TABLES, z.ZodArray<typeof searchRowSchema>>;

export const searchSiteSchema = z.strictObject({
  id: z.string().describe('The internal id of the site.'),
  siteUrl: z.string(),
  timezone: z.string().nullable().describe('The zone whose calendar days the search console reports for this site.'),
  lastSyncedAt: syncedAt,
});

export const websiteSearchSchema = z.strictObject({
  from: day,
  to: day,
  compare: compareRangeSchema,
  search: z
    .strictObject({
      sites: z.array(searchSiteSchema).describe('Every search-console site in reach, by URL.'),
      totals: searchMetricSetSchema,
      previous: searchMetricSetSchema.nullable().describe('The compare range; null when `compare` is `none`.'),
      series: z.array(searchDayPointSchema),
      previousSeries: z.array(searchDayPointSchema).describe("The compare range's buckets of `granularity`; empty when `compare` is `none`."),
      ...searchTables,
      partial: z.boolean().describe('true when at least one site in reach has no daily row for some day of the range (the search console reports with a delay of a few days).'),
    })
    .nullable()
    .describe('null when no search-console site is in reach.'),
});

export type WebsiteOverview = z.infer<typeof websiteOverviewSchema>;
export type WebsiteSearch = z.infer<typeof websiteSearchSchema>;
