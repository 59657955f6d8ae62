// The one place where the ads metrics are defined. The operation descriptions (and so the OpenAPI
// document) are written from this module, and the MCP `describe_metrics` tool can return
// `ADS_METRIC_DEFINITIONS` and `ADS_RULES` as they are: plain data, no functions.

import { LIST_CAP, type MetricDefinition } from '../definitions';

/** How many campaigns `widgets.topCampaigns` of /ads/overview lists (the highest spend first). */
export const TOP_CAMPAIGNS = 10;

/** A cached breakdown younger than this is never stale: the dashboard does not refetch within the sync interval. */
export const BREAKDOWN_REFETCH_AFTER_HOURS = 1;

/** The ads platform restates a day's figures for up to this many days (the weekly 28-day re-pull). */
export const RESTATEMENT_WINDOW_DAYS = 28;

export const ADS_RULES = {
  notReported:
    '`null` means "not reported by the platform" and is never zero. A sum over rows that are all unreported is null; a sum over some reported rows is the sum of the reported ones. Where a field is typed as a plain number (not nullable), an all-unreported sum is given as 0 and its description says so.',
  days: 'Ads days are calendar days in IST (Asia/Kolkata). `from` and `to` are included. `previous` is the period of the same length that ends the day before `from`.',
  levels:
    'The ads platform reports each level (account, campaign, ad set, ad) on its own; figures are read from the rows of one level and never added up from the level below (reach, above all, does not add up). Without an id filter, /ads/overview reads account-level rows; with `campaignId`, `adSetId` or `adId` it reads the rows of that entity (the most specific filter given).',
  reach:
    'Reach over a range is the PEAK single-day reach, never a sum over days. It is a lower bound of the unique people reached: summing days would count a person once per day they were reached. For several accounts, `kpis.reach` of /ads/overview is the peak over days of the day\'s reach summed over the accounts; the age × gender widget sums over the accounts each account\'s own peak day of that age and gender (so that it can be read from monthly rollups). Ratios that divide by reach use the SUM of the daily reach (person-days), so `frequency` means impressions per person per day.',
  results:
    'Campaigns optimise for different results (purchases, leads, link clicks, ...), and results of different types are never added together. The result type that carries the most spend in the range is reported (ties: alphabetical), with only the results of that type; `costPerResult` is the spend of the rows of that type whose results were reported, divided by those results. Rows of other types count in spend, impressions and clicks but not in `results`. Without an id filter the results of /ads/overview are read from campaign-level rows, the level at which the optimisation goal is set.',
  currency:
    'Amounts are in the ad account\'s currency, summed exactly. `meta.currency` is that currency when every account the response covers has the same one; it is null when they span several (or one is unknown). Amounts aggregated over several currencies are then NOT an amount in any currency: compare them only per row, using each row\'s `currency`.',
  freshness:
    '`meta.syncedAt` is the oldest last successful sync among the ad accounts the response covers (accounts never synced successfully contributed no data and are ignored); null when none has synced. The service never calls the ads platform.',
  cap: `Every list holds at most ${LIST_CAP} rows; \`truncated: true\` says the cap applied. Narrow the range or filter by client to avoid it.`,
} as const;

export const ADS_METRIC_DEFINITIONS: readonly MetricDefinition[] = [
  {
    name: 'spend',
    kind: 'amount',
    unit: 'account currency',
    definition: 'Amount spent on delivery.',
    aggregation: 'Sum over days and entities (exact decimal sum).',
    whenNull: 'Never: the platform always reports spend (0 when nothing was delivered).',
  },
  {
    name: 'impressions',
    kind: 'count',
    unit: 'impressions',
    definition: 'Times an ad was shown.',
    aggregation: 'Sum.',
    whenNull: 'Never.',
  },
  {
    name: 'reach',
    kind: 'count',
    unit: 'people',
    definition: 'People who saw an ad at least once, as the platform reports it per day.',
    aggregation: 'Peak single-day value over the range (see the reach rule); never summed over days.',
    whenNull: 'Never.',
  },
  {
    name: 'clicks',
    kind: 'count',
    unit: 'clicks',
    definition: 'All clicks on the ad.',
    aggregation: 'Sum.',
    whenNull: 'Never.',
  },
  {
    name: 'linkClicks',
    kind: 'count',
    unit: 'clicks',
    definition: 'Clicks on links that lead to the advertiser\'s destination.',
    aggregation: 'Sum.',
    whenNull: 'Never.',
  },
  {
    name: 'ctr',
    kind: 'ratio',
    unit: 'percent',
    definition: 'Click-through rate in percent: clicks / impressions × 100 (2.5 means 2.5 %).',
    aggregation: 'Ratio of the sums.',
    whenNull: 'When impressions are 0. Where the field is typed as a plain number (the /ads/overview KPIs and campaign lists) it is 0 instead.',
  },
  {
    name: 'cpc',
    kind: 'ratio',
    unit: 'account currency per click',
    definition: 'Cost per click: spend / clicks.',
    aggregation: 'Ratio of the sums.',
    whenNull: 'When clicks are 0. In the /ads/overview KPIs, typed as a plain number, it is 0 instead.',
  },
  {
    name: 'results',
    kind: 'count',
    unit: 'results of `resultType`',
    definition: 'Conversions of the type the campaign optimises for (purchases, leads, ...).',
    aggregation: 'Sum of the results of the reported result type only (see the results rule).',
    whenNull: 'When no row of the reported type reported results. In the /ads/overview KPIs, funnel and series, typed as plain numbers, it is 0 instead.',
  },
  {
    name: 'resultType',
    kind: 'label',
    unit: 'result type',
    definition: 'The type of `results`: the result type carrying the most spend in the range.',
    aggregation: 'One type; types are never mixed.',
    whenNull: 'When no row has a result type.',
  },
  {
    name: 'costPerResult',
    kind: 'ratio',
    unit: 'account currency per result',
    definition: 'Spend of the rows of the reported result type whose results were reported, divided by those results.',
    aggregation: 'Ratio of the sums.',
    whenNull: 'When results are 0 or not reported.',
  },
  {
    name: 'frequency',
    kind: 'ratio',
    unit: 'impressions per person per day',
    definition: 'impressions / Σ daily reach (person-days).',
    aggregation: 'Ratio of the sums.',
    whenNull: 'When the summed daily reach is 0.',
  },
  {
    name: 'videoViews',
    kind: 'count',
    unit: 'views',
    definition: 'Video plays as the platform counts them.',
    aggregation: 'Sum of the reported days; 0 when no day reported it.',
    whenNull: 'Never in /ads/overview (typed as a number).',
  },
  {
    name: 'purchaseValue',
    kind: 'amount',
    unit: 'account currency',
    definition: 'Conversion value of purchases attributed to the ads.',
    aggregation: 'Sum of the reported days; 0 when no day reported it.',
    whenNull: 'Never in /ads/overview (typed as a number).',
  },
  {
    name: 'views3s',
    kind: 'count',
    unit: 'views',
    definition: 'Video plays of at least 3 seconds. `thruplay`: plays to completion or at least 15 seconds. `p25`…`p100`: plays reaching 25 %, 50 %, 75 %, 100 % of the video.',
    aggregation: 'Sum of the reported days; 0 when no day reported it.',
    whenNull: 'Never in /ads/overview (typed as a number).',
  },
  {
    name: 'balance',
    kind: 'amount',
    unit: 'account currency',
    definition: '`funds.balance`: prepaid balance left on the accounts; `funds.spent`: the accounts\' lifetime amount spent; `funds.cap`: their spending caps. Current values, not figures of the range.',
    aggregation: 'Sum over the accounts that report it.',
    whenNull: 'When no account covered reports it.',
  },
];
