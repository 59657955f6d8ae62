// The account endpoints' operations (/me, /clients): what they answer and what runs them, read by the
// REST routes, the MCP tools and the OpenAPI document.
import { z } from 'zod';
import { defineOperation, offsetCut, type Operation } from '../contract/operation';
import { offsetParam, toolLimit } from '../contract/query';
import { listClients } from './clients';
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
  summary: 'The calling key',
  description:
    'Describes the key that made the request: its name, display prefix and expiry, its organisation, its scopes and its client list (`clientIds: null` when the key reads every client). `meta.syncedAt` is null: nothing synced is read.',
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
  summary: 'The clients this key can read',
  description:
    'Every client this key can read (all clients of the organisation for a key without a client list, else only the listed ones), ordered by name, each with its ad accounts, pages, analytics properties, search-console sites and stores. Resources assigned to no client are not listed here. `lastSyncedAt` is the end of the resource’s latest successful sync; `meta.syncedAt` is the oldest of them (null when none has synced).',
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
    title: 'List clients',
    lead: 'Call first: the clients you can read, by name, with the `id` other tools take as `client`, and each client’s ad accounts (with currencies), social pages, analytics properties, search-console sites and stores. Read on with `offset` = `meta.nextOffset`.',
    query: noParameters.safeExtend({ limit: toolLimit(CLIENTS_TOOL_CAP, 'clients', 10), offset: offsetParam('clients') }),
    cuts: [offsetCut('clients', (data: unknown[]) => [data])],
  },
});

export const operations: Operation[] = [meOperation, clientsOperation];
