// Verifies the API key of a request: the gate of every /api/v1 route (lib/rest/route.ts, through lib/operations/gate.ts), and the MCP
// endpoint's when it is called with a key.
import { gateSql } from '../db';
import { BODY_TIMEOUT_MS, MAX_BODY_BYTES, readBoundedBody } from '../http/body';
import { ApiError, INVALID_KEY_DETAIL } from '../contract/errors';
import { KEY_PREFIX } from '../key-format';
import type { ApiKeyContext } from '../contract/credential';
import { recordKeyUse } from './last-used';
import { lookupLane, rememberOrg } from './org-hints';
import { isScope } from '../contract/scopes';
import { presentedKeyHash, type Bearer } from './bearer';

const BEARER_CHALLENGE = 'Bearer realm="metrics-api"';
function unauthorized(detail: string, error?: 'invalid_request' | 'invalid_token'): ApiError {
  const challenge = error ? `${BEARER_CHALLENGE}, error="${error}"` : BEARER_CHALLENGE;
  return new ApiError('unauthorized', detail, { headers: { 'WWW-Authenticate': challenge } });
}

const MISPLACED_KEY = unauthorized(
  'An API key was sent in the query string, a cookie or the body. Send it only as the header `Authorization: Bearer <key>`, and revoke that key: it may have been logged.',
  'invalid_request',
);

// The API takes no request body; one is read only to look for a misplaced key. A body that cannot be
// checked (see lib/http/body.ts) is refused as if it held a key: otherwise a key in it would pass.
const UNCHECKED_BODY = unauthorized(
  `This API takes no request body, and a body that cannot be checked for an API key is refused: one on a GET or HEAD request, one over ${MAX_BODY_BYTES / 1024} KiB, or one not received within ${BODY_TIMEOUT_MS / 1000} s. Send no body, and the key only as the header \`Authorization: Bearer <key>\`.`,
  'invalid_request',
);

/** Throws 401 when the request carries a key anywhere but the Authorization header, or a body that cannot be checked. */
async function refuseKeyOutsideHeader(request: Request): Promise<void> {
  const url = new URL(request.url);
  for (const [name, value] of url.searchParams) {
    if (name.includes(KEY_PREFIX) || value.includes(KEY_PREFIX)) throw MISPLACED_KEY;
  }
  if ((request.headers.get('cookie') ?? '').includes(KEY_PREFIX)) throw MISPLACED_KEY;
  const declaresBody = request.headers.has('transfer-encoding') || Number(request.headers.get('content-length') ?? 0) > 0;
  if (!declaresBody) return;
  // Next.js hands the body of a GET or HEAD to neither the gate nor the route, so it cannot be read.
  if (!request.body) throw UNCHECKED_BODY;
  const body = await readBoundedBody(request.clone().body!);
  if (body === null) throw UNCHECKED_BODY;
  if (body.includes(KEY_PREFIX)) throw MISPLACED_KEY;
}

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  retires_at: Date | null;
  org_id: string;
  org_name: string;
  client_ids: string[] | null;
}

// On every request, on the gate's connections (see gateSql): prepared once per pooled connection.
const KEY_LOOKUP = `
  SELECT k.id, k.name, k.prefix, k.scopes, k.expires_at, k.revoked_at, k.retires_at, o.id AS org_id, o.name AS org_name,
         CASE WHEN k.restricted_to_clients THEN
           ARRAY(SELECT c.client_id::text FROM api_key_clients c WHERE c.api_key_id = k.id ORDER BY c.client_id)
         END AS client_ids
    FROM api_keys k
    JOIN organizations o ON o.id = k.org_id
   WHERE k.hash = $1`;

/** When a key stops working: its expiry, or the end of its rotation overlap if that comes first. */
function stopsAt(expiresAt: Date | null, retiresAt: Date | null): Date | null {
  if (!expiresAt || !retiresAt) return expiresAt ?? retiresAt;
  return expiresAt < retiresAt ? expiresAt : retiresAt;
}

/** Returns the credential's context or throws 401 `unauthorized`; `bearer` is the request's Authorization header, read (bearerOf). */
export async function authenticate(request: Request, bearer: Bearer): Promise<ApiKeyContext> {
  await refuseKeyOutsideHeader(request);
  if (bearer.kind === 'none') throw unauthorized('Send your API key as the header `Authorization: Bearer <key>`.');
  const hash = presentedKeyHash(bearer);
  if (hash === null) {
    throw unauthorized(`The Authorization header must be \`Bearer <key>\`, where the key is ${KEY_PREFIX} followed by 43 characters.`, 'invalid_request');
  }
  const [row] = await gateSql<KeyRow>(KEY_LOOKUP, [hash], lookupLane(hash));
  if (row) rememberOrg(hash, row.org_id);
  const now = Date.now();
  const ended = (at: Date | null) => at !== null && at.getTime() <= now;
  if (!row || row.revoked_at || ended(row.expires_at) || ended(row.retires_at)) {
    // One answer for unknown, revoked, expired and retired (rotated, past its overlap) keys: nothing
    // about a key's history is disclosed.
    throw unauthorized(INVALID_KEY_DETAIL, 'invalid_token');
  }
  void recordKeyUse(row.id);
  return {
    kind: 'api_key',
    keyId: row.id,
    keyName: row.name,
    keyPrefix: row.prefix,
    expiresAt: stopsAt(row.expires_at, row.retires_at)?.toISOString() ?? null,
    orgId: row.org_id,
    orgName: row.org_name,
    scopes: row.scopes.filter(isScope),
    clientIds: row.client_ids,
  };
}
