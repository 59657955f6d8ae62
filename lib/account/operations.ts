// The account endpoints' operations (/me, /clients): what they answer and what runs them, read by the
// REST routes, the MCP tools and the OpenAPI document. Their reference text is in descriptions.ts.
import { z } from 'zod';
import { defineOperation, offsetCut, type Operation } from '../contract/operation';
import { offsetParam, toolLimit } from '../contract/query';
import { listClients } from './clients';
import { ACCOUNT_DESCRIPTIONS } from './descriptions';
import { describeKey } from './me';
import { clientSchema, meSchema } from './schemas';

/** Neither endpoint takes a parameter: any parameter is an unknown one (400). */
const noParameters = z.object({});

/** Most clients one list_clients call may ask for (each costs a model about 350 tokens). */
const CLIENTS_TOOL_CAP = 50;

export const meOperation = defineOperation({
  id: 'getMe',
  path: '/me',
  tag: 'Account',
  summary: ACCOUNT_DESCRIPTIONS.getMe.summary,
  description: ACCOUNT_DESCRIPTIONS.getMe.description,
  scope: null,
  query: noParameters,
  data: meSchema,
  // REST only: it describes an API key, and MCP callers may hold an OAuth grant instead.
  run: async (_query, auth) => describeKey(auth),
});

export const clientsOperation = defineOperation({
  id: 'listClients',
  cacheable: true,
  path: '/clients',
  tag: 'Account',
  summary: ACCOUNT_DESCRIPTIONS.listClients.summary,
  description: ACCOUNT_DESCRIPTIONS.listClients.description,
  scope: null,
  query: noParameters,
  data: z.array(clientSchema),
  run: async (query: { limit?: number; offset?: number }, auth) => {
    const answer = await listClients(auth);
    if (query.limit === undefined) return answer;
    // The MCP tool's page of the list (REST lists every client): `truncated` when more follow.
    const offset = query.offset ?? 0;
    const data = answer.data.slice(offset, offset + query.limit);
    // `meta.truncated` only when more follow: a whole list is the REST answer itself.
    return answer.data.length > offset + query.limit ? { data, meta: { ...answer.meta, truncated: true } } : { ...answer, data };
  },
  tool: {
    name: 'list_clients',
    ...ACCOUNT_DESCRIPTIONS.listClients.tool,
    query: noParameters.safeExtend({ limit: toolLimit(CLIENTS_TOOL_CAP, 'clients', 10), offset: offsetParam('clients') }),
    cuts: [offsetCut('clients', (data: unknown[]) => [data])],
  },
});

export const operations: Operation[] = [meOperation, clientsOperation];
