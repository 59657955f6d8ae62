// The store endpoint's operation (path, scope, query and response schemas, what runs it), read by the
// REST route and the OpenAPI document. REST only: the MCP tools cover ads and social. Its reference
// text is in descriptions.ts.
import { resolveReach } from '../../reach/reach';
import { defineOperation, type Operation } from '../../contract/operation';
import { comparedRangeQuery } from '../compare';
import { STORE_DESCRIPTIONS } from './descriptions';
import { storeOverviewSchema } from './schemas';
import { getStoreOverview } from './overview';

export const storeOverviewOperation = defineOperation({
  id: 'getStoreOverview',
  cacheable: true,
  path: '/store/overview',
  tag: 'Store',
  summary: STORE_DESCRIPTIONS.getStoreOverview.summary,
  description: STORE_DESCRIPTIONS.getStoreOverview.description,
  scope: 'store:read',
  query: comparedRangeQuery,
  data: storeOverviewSchema,
  run: async (query, auth) => getStoreOverview(await resolveReach(auth, query.client), query),
});

export const operations: Operation[] = [storeOverviewOperation];
