// Each request's record, kept by the production server (scripts/server.mjs) for as long as the request
// runs: the socket's address when it arrived, and what the app learns of the request on the way (which
// route or MCP operation answered it, its request id, its organisation and credential,
// its rate-limit state). Once the answer is sent, the server turns the record into the request's log
// line and its sample of the duration histogram (lib/telemetry/server.ts).
//
// The store is an AsyncLocalStorage shared by the whole process (lib/process-wide.ts): Next.js bundles
// lib/ into each route separately, and only a global is the same object for every bundle and the server.
// Nothing a caller sends can write to it. Where no server of ours runs the request (`next dev`), there
// is no record and annotating it does nothing.
import { AsyncLocalStorage } from 'node:async_hooks';
import { processWide } from '../process-wide.ts';

/** Which door a request came through: the REST API, the MCP endpoint, OAuth, a page; `other` for health checks and assets. */
export type Door = 'rest' | 'mcp' | 'oauth' | 'page' | 'other';

export interface RequestRecord {
  /** The socket's remote address (lib/http/client-address.ts). */
  readonly address: string | undefined;
  /** A route template or an MCP operation (`mcp:<tool>`): a bounded set, never a raw path. */
  route?: string;
  requestId?: string;
  orgId?: string;
  /** What names the credential without being it: an API key's public prefix, an OAuth grant's id. */
  credential?: string;
  rateLimit?: { limit: number; remaining: number; limited: boolean };
}

const sharedStorage = processWide('request', () => new AsyncLocalStorage<RequestRecord>());

export function requestStorage(): AsyncLocalStorage<RequestRecord> {
  return sharedStorage();
}

/** Adds what the app knows of the current request to its record (nothing outside the server). */
export function annotateRequest(fields: Omit<RequestRecord, 'address'>): void {
  const record = requestStorage().getStore();
  if (record) Object.assign(record, fields);
}
