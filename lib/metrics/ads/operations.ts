// The ads endpoints' operations (path, scope, query and response schemas, what runs them, their MCP
// tools), read by the REST routes, the MCP server and the OpenAPI document. Their reference text is
// in descriptions.ts.
import { resolveReach } from '../../reach/reach';
import { defineOperation, offsetCut, seriesCut, type Operation } from '../../contract/operation';
import { keepsSeries, toolLimit, type SeriesChoice } from '../../contract/query';
import { getAdBreakdowns } from './breakdowns';
import { listAdEntities } from './entities';
import { coarsenAdsSeries, getAdsOverview } from './overview';
import type { Envelope } from '../../contract/envelope';
import type { Granularity } from '../../time/buckets';
import { LIST_CAP } from '../definitions';
import { ADS_DESCRIPTIONS } from './descriptions';
import {
  adsBreakdownsData,
  adsBreakdownsQuery,
  adsEntitiesData,
  type AdsEntitiesData,
  type AdsOverviewData,
  adsEntitiesQuery,
  adsOverviewData,
  adsOverviewQuery,
  adsOverviewToolQuery,
  type AdsEntitiesQuery,
  type AdsOverviewQuery,
} from './schemas';

/** The overview's series, which the MCP door may coarsen and the answer budget may cut. */
const adsSeries = (data: AdsOverviewData) => [data.series];

export const adsOverviewOperation = defineOperation({
  id: 'getAdsOverview',
  cacheable: true,
  path: '/ads/overview',
  tag: 'Ads',
  summary: ADS_DESCRIPTIONS.getAdsOverview.summary,
  description: ADS_DESCRIPTIONS.getAdsOverview.description,
  scope: 'ads:read',
  query: adsOverviewQuery,
  data: adsOverviewData,
  run: async (query: AdsOverviewQuery & { limit?: number; series?: SeriesChoice }, auth) => {
    const answer = await getAdsOverview(await resolveReach(auth, query.client), query);
    return keepsSeries(query) ? answer : { ...answer, data: { ...answer.data, series: [] } };
  },
  tool: {
    name: 'get_ads_overview',
    ...ADS_DESCRIPTIONS.getAdsOverview.tool,
    query: adsOverviewToolQuery,
    series: adsSeries,
    coarsen: (answer: Envelope<AdsOverviewData>, granularity: Granularity) => {
      const { from, to } = answer.meta;
      if (!from || !to) throw new Error('an ads overview names its range in meta');
      return { ...answer, data: { ...answer.data, series: coarsenAdsSeries(answer.data.series, from, to, granularity) } };
    },
    cuts: [
      {
        what: 'campaigns',
        lists: (data: AdsOverviewData) => [data.campaigns],
        // The campaigns are list_ad_entities' first campaign rows: the rest continue there, whatever this tool's arguments.
        nextOffset: (kept) => kept,
        next: (kept) => `the rest are list_ad_entities rows (same order) with \`"level": "campaign"\`, the same \`from\`, \`to\` and \`client\`, and \`"offset": ${kept}\``,
      },
      seriesCut(adsSeries),
    ],
  },
});

export const adsEntitiesOperation = defineOperation({
  id: 'listAdEntities',
  cacheable: true,
  path: '/ads/entities',
  tag: 'Ads',
  summary: ADS_DESCRIPTIONS.listAdEntities.summary,
  description: ADS_DESCRIPTIONS.listAdEntities.description,
  scope: 'ads:read',
  query: adsEntitiesQuery,
  data: adsEntitiesData,
  run: async (query: AdsEntitiesQuery & { limit?: number }, auth) => listAdEntities(await resolveReach(auth, query.client), query),
  tool: {
    name: 'list_ad_entities',
    ...ADS_DESCRIPTIONS.listAdEntities.tool,
    query: adsEntitiesQuery.safeExtend({ limit: toolLimit(LIST_CAP, 'entities', 10) }),
    cuts: [offsetCut('rows', (data: AdsEntitiesData) => [data.rows])],
  },
});

export const adsBreakdownsOperation = defineOperation({
  id: 'getAdBreakdowns',
  path: '/ads/breakdowns',
  tag: 'Ads',
  summary: ADS_DESCRIPTIONS.getAdBreakdowns.summary,
  description: ADS_DESCRIPTIONS.getAdBreakdowns.description,
  scope: 'ads:read',
  query: adsBreakdownsQuery,
  data: adsBreakdownsData,
  // No `client` parameter: the entity is looked up within everything the credential can read.
  run: async (query, auth) => getAdBreakdowns(await resolveReach(auth), query),
  tool: {
    name: 'get_ad_breakdowns',
    ...ADS_DESCRIPTIONS.getAdBreakdowns.tool,
  },
});

export const operations: Operation[] = [adsOverviewOperation, adsEntitiesOperation, adsBreakdownsOperation];
