// The account operations' reference text, keyed by operation id: the OpenAPI summary and description and
// the MCP tool's title and lead, read by operations.ts.
import type { OperationDescription } from '../contract/operation';

export const ACCOUNT_DESCRIPTIONS = {
  getMe: {
    summary: 'The calling key',
    description:
      'Describes the key that made the request: its name, display prefix and expiry, its organisation, its scopes and its client list (`clientIds: null` when the key reads every client). `meta.syncedAt` is null: nothing synced is read.',
  },
  listClients: {
    summary: 'The clients this key can read',
    description:
      'Every client this key can read (all clients of the organisation for a key without a client list, else only the listed ones), ordered by name, each with its ad accounts, pages, analytics properties, search-console sites and stores. Resources assigned to no client are not listed here. `lastSyncedAt` is the end of the resource’s latest successful sync; `meta.syncedAt` is the oldest of them (null when none has synced).',
    tool: {
      title: 'List clients',
      lead: 'Call first: the clients you can read, by name, with the `id` other tools take as `client`, and each client’s ad accounts (with currencies), social pages, analytics properties, search-console sites and stores. Read on with `offset` = `meta.nextOffset`.',
    },
  },
} satisfies Record<string, OperationDescription>;
