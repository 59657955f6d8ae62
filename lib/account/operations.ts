// The account endpoints' operations (/me, /clients): what they answer and what runs them, read by the
// REST routes, the MCP tools and the OpenAPI document.
import { z } from 'zod';
import { defineOperation, type Operation } from '../contract/operation';
import { listClients } from './clients';
import { describeKey } from './me';
import { clientSchema, meSchema } from './schemas';

/** Neither endpoint takes a parameter: any parameter is an unknown one (400). */
const noParameters = z.object({});

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
  run: (_query, auth) => listClients(auth),
  tool: {
    name: 'list_clients',
    title: 'List clients',
    lead: 'Call this first (after describe_metrics): it names every client you can read and gives the `id` that the other tools take as `client`, with each client’s ad accounts (and their currencies), social pages, analytics properties, search-console sites and stores.',
  },
});

export const operations: Operation[] = [meOperation, clientsOperation];
