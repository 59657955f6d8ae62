// The website endpoints' operations (path, scope, query and response schemas, what runs them), read by
// the REST routes and the OpenAPI document. REST only: the MCP tools cover ads and social. Their
// reference text is in descriptions.ts.
import { resolveReach } from '../../reach/reach';
import { defineOperation, type Operation } from '../../contract/operation';
import { comparedRangeQuery } from '../compare';
import { WEBSITE_DESCRIPTIONS } from './descriptions';
import { websiteOverviewSchema, websiteSearchSchema } from './schemas';
import { getWebsiteOverview } from './overview';
import { getWebsiteSearch } from './search';

export const websiteOverviewOperation = defineOperation({
  id: 'getWebsiteOverview',
  cacheable: true,
  path: '/website/overview',
  tag: 'Website',
  summary: WEBSITE_DESCRIPTIONS.getWebsiteOverview.summary,
  description: WEBSITE_DESCRIPTIONS.getWebsiteOverview.description,
  scope: 'web:read',
  query: comparedRangeQuery,
  data: websiteOverviewSchema,
  run: async (query, auth) => getWebsiteOverview(await resolveReach(auth, query.client), query),
});

export const websiteSearchOperation = defineOperation({
  id: 'getWebsiteSearch',
  cacheable: true,
  path: '/website/search',
  tag: 'Website',
  summary: WEBSITE_DESCRIPTIONS.getWebsiteSearch.summary,
  description: WEBSITE_DESCRIPTIONS.getWebsiteSearch.description,
  scope: 'web:read',
  query: comparedRangeQuery,
  data: websiteSearchSchema,
  run: async (query, auth) => getWebsiteSearch(await resolveReach(auth, query.client), query),
});

export const operations: Operation[] = [websiteOverviewOperation, websiteSearchOperation];
