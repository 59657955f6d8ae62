// Query and response schemas of the ads endpoints: they parse queries, check our responses in tests and
// generate the OpenAPI document. Field meanings come from definitions.ts.
import { z } from 'zod';
import { boundedText, checkDateRange, clientParam, dateRange, granularityParam, offsetParam, toolGranularity, toolLimit, toolSeries, whenDatesAreReal } from '../../contract/query';
import { LIST_CAP } from '../definitions';
import { RESTATEMENT_WINDOW_DAYS, BREAKDOWN_REFETCH_AFTER_HOURS } from './definitions';

// ───────────── queries ─────────────

export const AD_LEVELS = ['campaign', 'adset', 'ad'] as const;
export type AdLevel = (typeof AD_LEVELS)[number];

/** Entity ids (platform ids or our ids) are at most 64 characters, as the spec caps `campaignId`. */
const ENTITY_ID_MAX_LENGTH = 64;
const SEARCH_MAX_LENGTH = 100;

const entityId = boundedText(ENTITY_ID_MAX_LENGTH);

const entityIdFilter = (what: string) =>
  entityId
    .optional()
    .describe(
      `Only this ${what}: its platform id or its id from /ads/entities (1 to ${ENTITY_ID_MAX_LENGTH} characters). Outside the key's reach or not found: 404.`,
    );

const adsOverviewFields = {
  client: clientParam,
  ...dateRange,
  campaignId: entityIdFilter('campaign'),
  adSetId: entityIdFilter('ad set'),
  adId: entityIdFilter('ad'),
  granularity: granularityParam,
};

export const adsOverviewQuery = z.object(adsOverviewFields).superRefine(checkDateRange, whenDatesAreReal);

/**
 * The get_ads_overview tool's arguments: the REST query's, with `granularity` left for the MCP door to
 * choose when absent (a refined object cannot have a field replaced, so it is built from the same fields).
 */
export const adsOverviewToolQuery = z
  .object({ ...adsOverviewFields, granularity: toolGranularity(), limit: toolLimit(LIST_CAP, 'campaigns', 10), series: toolSeries() })
  .superRefine(checkDateRange, whenDatesAreReal);

export const adsEntitiesQuery = z
  .object({
    level: z.enum(AD_LEVELS).describe('Which entities to list: campaigns, ad sets or ads.'),
    client: clientParam,
    ...dateRange,
    search: boundedText(SEARCH_MAX_LENGTH)
      .optional()
      .describe(
        `Keep entities whose name contains this text (case-insensitive) or whose platform id is exactly this text (1 to ${SEARCH_MAX_LENGTH} characters).`,
      ),
    offset: offsetParam('entities'),
  })
  .superRefine(checkDateRange, whenDatesAreReal);

export const adsBreakdownsQuery = z
  .object({
    level: z.enum(AD_LEVELS).describe('The level of the entity.'),
    entityId: entityId.describe(`The entity: its platform id or its id from /ads/entities (1 to ${ENTITY_ID_MAX_LENGTH} characters).`),
    ...dateRange,
  })
  .superRefine(checkDateRange, whenDatesAreReal);

export type AdsOverviewQuery = z.infer<typeof adsOverviewQuery>;
export type AdsEntitiesQuery = z.infer<typeof adsEntitiesQuery>;
export type AdsBreakdownsQuery = z.infer<typeof adsBreakdownsQuery>;

// ───────────── shared pieces ─────────────

const count = (description: string) => z.number().describe(description);
const nullableNumber = (description: string) => z.number().nullable().describe(description);

const accountRef = z
  .object({
    id: z.string().describe('Internal id of the ad account.'),
    platformAccountId: z.string().describe("The ads platform's own account id."),
    name: z.string(),
  })
  .strict();

const clientRef = z
  .object({
    id: z.string().nullable().describe('The client id; null when the account is assigned to no client.'),
    name: z.string().describe("The client's name, or the account's own name when the account is assigned to no client (so grouping by name always works)."),
  })
  .strict();

const campaignRef = z
  .object({
    id: z.string(),
    platformId: z.string().describe("The ads platform's own campaign id."),
    name: z.string(),
    objective: z.string().nullable(),
  })
  .strict();

const adSetRef = z
  .object({
    id: z.string(),
    platformId: z.string().describe("The ads platform's own ad-set id."),
    name: z.string(),
  })
  .strict();

const resultType = z.string().nullable().describe('The result type of `results`: the one carrying the most spend; null when no row has one.');

// ───────────── /ads/overview ─────────────

export const adsOverviewData = z
  .object({
    kpis: z
      .object({
        spend: count('Amount spent (see `meta.currency`).'),
        impressions: count('Impressions.'),
        reach: count('Peak single-day reach over the range (day totals summed over the entities read).'),
        clicks: count('All clicks.'),
        ctr: count('clicks / impressions × 100 (percent); 0 when there were no impressions (typed as a number).'),
        cpc: count('spend / clicks; 0 when there were no clicks (typed as a number).'),
        videoViews: count('Video views; 0 when not reported.'),
        purchaseValue: count('Purchase conversion value; 0 when not reported.'),
        results: count('Results of `resultType` only; 0 when none were reported.'),
        resultType,
        costPerResult: nullableNumber('Spend of the rows of `resultType` whose results were reported / their results; null when there are none.'),
      })
      .strict(),
    previous: z
      .object({
        spend: z.number(),
        results: z.number().describe('Results of the same `resultType` as `kpis` (0 when none).'),
        impressions: z.number(),
        clicks: z.number(),
        reach: z.number().describe('Peak single-day reach of the previous period.'),
      })
      .strict()
      .describe('The period of the same length that ends the day before `from`, read from the same rows.'),
    funds: z
      .object({
        balance: nullableNumber('Sum of the prepaid balances the accounts report; null when none reports one.'),
        spent: nullableNumber("Sum of the accounts' lifetime amount spent; null when none reports it."),
        cap: nullableNumber("Sum of the accounts' spending caps; null when none has a cap."),
      })
      .strict()
      .describe('Current funds of the accounts covered (all accounts in reach, or the account of the filtered entity), not figures of the range.'),
    lowBalance: z
      .array(
        z
          .object({
            accountName: z.string(),
            balance: z.number(),
            threshold: z.number(),
            currency: z.string().nullable(),
          })
          .strict(),
      )
      .describe('Accounts whose balance is under their low-balance threshold, by name.'),
    series: z
      .array(
        z
          .object({
            date: z.string().describe('The first IST day of the point\'s bucket within the range (the day itself by `day`).'),
            spend: z.number(),
            impressions: z.number(),
            clicks: z.number(),
            reach: z.number().describe("The peak daily reach within the bucket (a day's reach summed over the entities read); never summed over days."),
            results: z.number().describe('Results of `kpis.resultType` within the bucket.'),
          })
          .strict(),
      )
      .describe('One point per bucket of `granularity` (day, ISO week, calendar month; the first and last clipped to the range), every bucket present, days without data as 0.'),
    campaigns: z
      .array(
        z
          .object({
            id: z.string().describe('Internal campaign id (accepted by `campaignId`).'),
            name: z.string(),
            status: z.string().nullable(),
            effectiveStatus: z.string().nullable(),
            spend: z.number(),
            impressions: z.number(),
            clicks: z.number(),
            ctr: z.number().describe('Percent; 0 when there were no impressions.'),
            account: accountRef.nullable(),
            client: clientRef.nullable(),
          })
          .strict(),
      )
      .describe(`Campaigns that have data in the range, by spend (highest first) then name, at most ${LIST_CAP} (\`meta.truncated\`).`),
    widgets: z
      .object({
        funnel: z
          .object({
            impressions: z.number(),
            reach: z.number(),
            clicks: z.number(),
            linkClicks: z.number(),
            results: z.number(),
            resultType,
          })
          .strict()
          .describe('The same figures as `kpis`, plus link clicks.'),
        topCampaigns: z
          .array(
            z
              .object({
                platformId: z.string(),
                name: z.string(),
                spend: z.number(),
                results: z.number().nullable(),
                resultType,
                costPerResult: z.number().nullable(),
                ctr: z.number(),
                status: z.string().nullable(),
              })
              .strict(),
          )
          .describe('The first campaigns of `campaigns` (highest spend), with their own result type.'),
        ageGender: z.array(
          z.object({ age: z.string(), gender: z.string(), impressions: z.number(), clicks: z.number(), spend: z.number(), reach: z.number() }).strict(),
        ),
        platforms: z.array(z.object({ platform: z.string(), impressions: z.number(), spend: z.number(), clicks: z.number() }).strict()),
        placements: z.array(
          z.object({ platform: z.string(), position: z.string(), impressions: z.number(), spend: z.number(), clicks: z.number() }).strict(),
        ),
        video: z
          .object({ views3s: z.number(), thruplay: z.number(), p25: z.number(), p50: z.number(), p75: z.number(), p100: z.number() })
          .strict()
          .describe('Video plays (0 when not reported), from the same rows as `kpis`.'),
      })
      .strict(),
  })
  .strict();

// ───────────── /ads/entities ─────────────

export const adEntityRow = z
  .object({
    id: z.string().describe('Internal id.'),
    platformId: z.string().describe("The ads platform's own id."),
    name: z.string(),
    status: z.string().nullable(),
    effectiveStatus: z.string().nullable(),
    currency: z.string().nullable().describe("The account's currency: the currency of this row's amounts."),
    spend: z.number(),
    impressions: z.number(),
    reach: z.number().describe('Peak single-day reach over the range.'),
    clicks: z.number(),
    linkClicks: z.number(),
    results: z.number().nullable(),
    resultType,
    ctr: z.number().nullable().describe('clicks / impressions × 100; null when there were no impressions.'),
    cpc: z.number().nullable().describe('spend / clicks; null when there were no clicks.'),
    costPerResult: z.number().nullable(),
    frequency: z.number().nullable().describe('impressions / Σ daily reach; null when reach is 0.'),
    thumbnailUrl: z.string().nullable().optional().describe('Ad rows only.'),
    imageUrl: z.string().nullable().optional().describe('Ad rows only.'),
    account: accountRef.nullable(),
    client: clientRef.nullable(),
    campaign: campaignRef.nullable().describe('Set on ad-set and ad rows; null on campaign rows.'),
    adSet: adSetRef.nullable().describe('Set on ad rows; null otherwise.'),
  })
  .strict();

export type AdEntityRow = z.infer<typeof adEntityRow>;

export const adsEntitiesData = z
  .object({
    rows: z.array(adEntityRow),
    truncated: z.boolean().describe(`true when more than ${LIST_CAP} entities matched and the list was cut.`),
  })
  .strict();

// ───────────── /ads/breakdowns ─────────────

const breakdownRow = z
  .object({
    key1: z.string(),
    key2: z.string(),
    spend: z.number(),
    impressions: z.number(),
    clicks: z.number(),
    reach: z.number().describe('Reach of the key over the whole range, as the platform reported it for that range.'),
  })
  .strict()
  // Named: the five breakdowns share it, and a schema states it once (OpenAPI components, MCP \`$defs\`).
  .meta({ id: 'AdBreakdownRow' });

export const adsBreakdownsData = z
  .object({
    ageGender: z.array(breakdownRow).describe('key1: age bracket (e.g. "25-34"); key2: gender ("female", "male", "unknown").'),
    device: z.array(breakdownRow).describe('key1: device platform ("mobile_app", "mobile_web", "desktop"); key2: "" (unused).'),
    platform: z.array(breakdownRow).describe('key1: publisher platform ("facebook", "instagram", "audience_network", "messenger"); key2: "" (unused).'),
    placement: z.array(breakdownRow).describe('key1: publisher platform; key2: position on it ("feed", "story", "reels", ...).'),
    region: z.array(breakdownRow).describe('key1: region (state or province) name, e.g. "Maharashtra"; key2: its ISO 3166-1 alpha-2 country, e.g. "IN".'),
    syncedAt: z.iso.datetime().nullable().describe('When the dashboard fetched this breakdown; null when nothing is cached for the range.'),
    stale: z
      .boolean()
      .describe(
        `true when the dashboard would refetch: nothing is cached for the range, or the cache is more than ${BREAKDOWN_REFETCH_AFTER_HOURS} hour old and was fetched less than ${RESTATEMENT_WINDOW_DAYS} days after the range's last day (the platform may still have restated those days).`,
      ),
  })
  .strict();

export type AdsOverviewData = z.infer<typeof adsOverviewData>;
export type AdsEntitiesData = z.infer<typeof adsEntitiesData>;
export type AdsBreakdownsData = z.infer<typeof adsBreakdownsData>;
