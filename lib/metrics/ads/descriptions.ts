// The ads operations' reference text, keyed by operation id: the OpenAPI summary and description and
// the MCP tool's title and lead, read by operations.ts. Written from definitions.ts, the one place where
// the metric rules live.
import type { OperationDescription } from '../../contract/operation';
import { LIST_CAP } from '../definitions';
import { ADS_METRIC_DEFINITIONS, ADS_RULES, BREAKDOWN_REFETCH_AFTER_HOURS, RESTATEMENT_WINDOW_DAYS, TOP_CAMPAIGNS } from './definitions';

const metricTable = [
  '| Field | Unit | Definition | Over days and entities | Null when |',
  '|---|---|---|---|---|',
  ...ADS_METRIC_DEFINITIONS.map((m) => `| \`${m.name}\` | ${m.unit} | ${m.definition} | ${m.aggregation} | ${m.whenNull} |`),
].join('\n');

const commonRules = `## Rules
- ${ADS_RULES.days}
- ${ADS_RULES.notReported}
- ${ADS_RULES.reach}
- ${ADS_RULES.results}
- ${ADS_RULES.currency}
- ${ADS_RULES.freshness}
- ${ADS_RULES.cap}

## Metrics
${metricTable}`;

export const ADS_DESCRIPTIONS = {
  getAdsOverview: {
    summary: 'Ads KPIs, previous period, funds, daily series, campaigns and widgets',
    description: `The ads dashboard for the ad accounts in reach (one client with \`client\`), over \`from\`…\`to\`.

## Which rows
- ${ADS_RULES.levels}
- \`campaignId\`, \`adSetId\` and \`adId\` accept the entity's platform id or its internal id. Several may be given if they name one
  lineage; an ad set outside the given campaign, or an ad outside the given ad set or campaign, is 404, as is an id that does not
  exist or is outside the key's reach.
- With a filter, everything is narrowed consistently: \`kpis\`, \`previous\`, \`series\`, \`funnel\` and \`video\` come from the entity's own
  rows; \`campaigns\` and \`topCampaigns\` hold the campaign containing the entity, with the campaign's own figures; \`funds\`,
  \`lowBalance\`, \`meta.currency\` and \`meta.syncedAt\` are those of the entity's ad account.
- \`widgets.ageGender\`, \`platforms\` and \`placements\` are account-level daily breakdowns. They cannot be narrowed to a campaign,
  ad set or ad honestly, so they are empty arrays when an id filter is given; use /ads/breakdowns for one entity's breakdowns.
  Without a filter, their \`reach\` is, per account, the peak single-day reach of the age and gender, summed over the
  accounts (different accounts reach different people; one account's days largely the same ones): still never a sum over days.
- \`campaigns\` lists the campaigns with data in the range by spend (highest first) then name (in character-code order), at most ${LIST_CAP};
  \`meta.truncated\` is true when more had data. \`topCampaigns\` is its first ${TOP_CAMPAIGNS}.
- \`series\` has one point for every bucket of \`granularity\` (0 on days without data): \`day\` (default) an IST day, \`week\` an
  ISO week (Monday to Sunday), \`month\` a calendar month, the first and last buckets clipped to the range; a point's \`date\` is
  its bucket's first day in the range. Its \`results\` are those of \`kpis.resultType\`; its \`reach\` is the day's reach, and for
  a week or a month the peak day's (never a sum over days). \`kpis.reach\` is the highest daily reach, whatever the granularity.
- \`previous\` covers the same number of days ending the day before \`from\`; its \`results\` are of the same \`resultType\`.
- \`kpis.ctr\` and \`kpis.cpc\`, \`campaigns[].ctr\` and \`topCampaigns[].ctr\` are typed as numbers: they are 0 when the denominator
  is 0 (they are null in /ads/entities). \`kpis.results\` and \`funnel.results\` are 0 when no result was reported.
- \`funds\` are the current balance, lifetime spend and spending cap summed over the accounts that report them (null when
  none does); \`lowBalance\` lists the accounts whose balance is under their low-balance threshold.
- \`meta.from\`/\`meta.to\` echo the range; \`meta.truncated\` is true when \`campaigns\` (or \`lowBalance\`) was cut at ${LIST_CAP} rows.

${commonRules}`,
    tool: {
      title: 'Ads overview',
      lead: 'Ads dashboard for `from`…`to`: KPIs, previous period, funds, a series, top campaigns by spend, widgets (funnel, age × gender, platforms, placements, video). Narrow with `client`, `campaignId`, `adSetId` or `adId`. Long ranges come by week or month (`meta.granularity`). More campaigns: list_ad_entities `level` `campaign`, `offset` = `meta.nextOffset`.',
    },
  },
  listAdEntities: {
    summary: 'Campaigns, ad sets or ads with their figures and lineage',
    description: `One row per entity of \`level\` that has data (a daily insight row) in \`from\`…\`to\`, with its figures over the range
read from that level's own rows. An entity without any insight row in the range did not deliver and is not listed.

- Order: spend (highest first), then name in character-code order, then id. At most ${LIST_CAP} rows; \`data.truncated\` and \`meta.truncated\` are true when more
  entities matched. \`offset\` skips that many rows of the same order: \`offset=500\` lists the next ${LIST_CAP}.
- \`search\` keeps entities whose name contains the text, case-insensitively (\`%\` and \`_\` are plain characters), or whose
  platform id is exactly the text. It matches the entity at \`level\` only, not its campaign or ad set.
- Lineage: \`account\` and \`client\` are set on every row. \`client\` is \`{ id, name }\` of the account's client; for an account
  assigned to no client it is \`{ id: null, name: <the account's name> }\`, so grouping by \`client.name\` always works (such
  accounts are visible only to a key without a client list, called without \`client\`). \`campaign\` is set on ad-set and ad
  rows, \`adSet\` on ad rows; otherwise they are null. Every \`platformId\`/\`platformAccountId\` is the ads platform's own id.
- \`thumbnailUrl\` and \`imageUrl\` are present on ad rows only.
- \`currency\` is the row's account currency. \`meta.currency\` and \`meta.syncedAt\` cover the accounts of the rows returned
  (\`meta.currency\` null when they span several currencies or no row is returned; \`meta.syncedAt\` null when no row is returned).

${commonRules}`,
    tool: {
      title: 'List campaigns, ad sets or ads',
      lead: 'Campaigns, ad sets or ads (`level`) that delivered in `from`…`to`, highest spend first, with their figures and lineage. Find one by name with `search`. Read on with `offset` = `meta.nextOffset`. A row\'s `id` is the `campaignId`/`adSetId`/`adId` of get_ads_overview and the `entityId` of get_ad_breakdowns.',
    },
  },
  getAdBreakdowns: {
    summary: 'Cached breakdowns of one campaign, ad set or ad',
    description: `The breakdowns that the dashboard fetched on demand for one entity (\`entityId\`: its platform id or its id from
/ads/entities, at \`level\`) and exactly the range \`from\`…\`to\`. The service serves the dashboard's cache and never calls the
ads platform. A cache entry for another range is not used: breakdowns, reach above all, cannot be cut or combined across ranges.

## key1 and key2
| Breakdown | key1 | key2 |
|---|---|---|
| \`ageGender\` | age bracket (\`18-24\`, \`25-34\`, …, \`65+\`) | gender (\`female\`, \`male\`, \`unknown\`) |
| \`device\` | device platform (\`mobile_app\`, \`mobile_web\`, \`desktop\`) | \`""\` (unused) |
| \`platform\` | publisher platform (\`facebook\`, \`instagram\`, \`audience_network\`, \`messenger\`) | \`""\` (unused) |
| \`placement\` | publisher platform | position on it (\`feed\`, \`story\`, \`reels\`, …) |
| \`region\` | region (state or province) | its country (ISO 3166-1 alpha-2) |

Each list is ordered by spend (highest first), then key1 and key2, at most ${LIST_CAP} rows (\`meta.truncated\`). \`reach\` is
the platform's reach of the key over the whole range.

## Freshness and the stale rule
- \`syncedAt\` (and \`meta.syncedAt\`) is when the dashboard fetched the cached breakdown: the figures come from that fetch, not
  from a sync run.
- \`stale\` is true when the dashboard would refetch: the cache is more than ${BREAKDOWN_REFETCH_AFTER_HOURS} hour old (the sync
  interval) and was fetched less than ${RESTATEMENT_WINDOW_DAYS} days after the range's last IST day, because the ads platform
  restates the figures of a day for ${RESTATEMENT_WINDOW_DAYS} days. A range fetched ${RESTATEMENT_WINDOW_DAYS} or more days after
  it ended is final and never stale.
- Nothing cached for this entity and range is not an error: the answer is 200 with five empty lists, \`syncedAt: null\` and
  \`stale: true\` (the dashboard would fetch it; open the entity's breakdowns in the dashboard to fill the cache).
  \`meta.syncedAt\` is then null too.
- An entity that does not exist, or is outside the key's reach, is 404.
- \`meta.currency\` is the entity's account currency.

${ADS_RULES.notReported}`,
    tool: {
      title: 'Ad breakdowns of one entity',
      lead: 'Age × gender, device, platform, placement and region breakdowns of one campaign, ad set or ad (`level`, `entityId` from list_ad_entities) for exactly the `from`…`to` the dashboard cached; empty with `stale: true` when it never fetched that range.',
    },
  },
} satisfies Record<string, OperationDescription>;
