// The REST door: turns an operation into the Next.js route handlers of its path. Every request to
// /api/v1 (but the OpenAPI document) passes the gate first (lib/operations/gate.ts), in the route
// itself, with the key as its only credential (only in the Authorization header). The shared step
// (lib/operations/invoke.ts) does the rest; the envelope becomes JSON with its ETag (or a 304) and
// every failure a problem document. Route files stay one line.
//
// Why not in proxy.ts, Next.js's middleware: running it rebuilds the request and hands its verdict on in
// a header, which cost a small endpoint like /me much of its throughput (measured in
// docs/performance/round-02-web-layer-web-dimension-org-rollups.md#the-web-layer). Here the gate runs
// once, in the process and bundle that answers, and there is no hand-off for a caller to forge.
import { authenticate } from '../auth/authenticate';
import { ApiError } from '../contract/errors';
import type { Operation } from '../contract/operation';
import { API_HEADERS } from '../http/headers';
import { toApiError } from '../operations/failures';
import { admit, type Admitted, type Door } from '../operations/gate';
import { invokeJson } from '../operations/invoke';
import { problemResponse } from '../operations/problems';
import { answerResponse } from './responses';

type Handler = (request: Request) => Promise<Response>;
/** Every method a route file exports: GET (Next.js answers HEAD with it), the preflight and the refused writes. */
type Handlers = Record<'GET' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler>;

/** The read-only API's methods, as a 405 and a preflight state them. */
const ALLOW = 'GET, HEAD, OPTIONS';

/**
 * REST takes API keys only: OAuth access tokens are bound to the MCP endpoint. `endpoint` is what the
 * request log and the usage charts call the route: an operation's path, or one name for every path
 * that has none (a caller chooses those, and they must not each become a line of the charts).
 */
function restDoor(endpoint: string): Door {
  return { credential: authenticate, noun: 'key', names: { endpoint } };
}

/** A handler that runs `then` for the requests the gate lets through. */
function behindGate(door: Door, then: (request: Request, admitted: Admitted) => Promise<Response> | Response): Handler {
  return async (request) => {
    const admitted = await admit(request, door);
    return admitted instanceof Response ? admitted : admitted.answered(await then(request, admitted));
  };
}

/** The route handlers of an operation's path. */
export function restRoute(operation: Operation): Handlers {
  const door = restDoor(`/api/v1${operation.path}`);
  const answer = behindGate(door, async (request, { auth, requestId, headers }) => {
    try {
      const result = await invokeJson(operation, auth, { kind: 'query', params: new URL(request.url).searchParams }, request);
      if (result instanceof Response) {
        for (const [name, value] of Object.entries(headers)) result.headers.set(name, value);
        return result;
      }
      return answerResponse(result, request, headers);
    } catch (error) {
      return problemResponse(toApiError(error, requestId), headers);
    }
  });
  // No Access-Control-* header, on purpose: keys are for servers, and browsers are not served.
  const preflight = behindGate(door, (_, { headers }) => new Response(null, { status: 204, headers: { ...API_HEADERS, ...headers, Allow: ALLOW } }));
  const refused = behindGate(door, (_, { headers }) => new Response(null, { status: 405, headers: { ...API_HEADERS, ...headers, Allow: ALLOW } }));
  return { GET: answer, OPTIONS: preflight, POST: refused, PUT: refused, PATCH: refused, DELETE: refused };
}

/** The request log's name of every path under /api/v1 that has no operation. */
export const UNKNOWN_ENDPOINT = '/api/v1 (no such endpoint)';

/** The route handlers of every other path under /api/v1, whatever the method: a problem, not an HTML page, past the gate. */
export function unknownEndpointRoute(): Handlers {
  const notFound = behindGate(restDoor(UNKNOWN_ENDPOINT), (request, { headers }) => {
    const path = new URL(request.url).pathname;
    return problemResponse(new ApiError('not_found', `There is no endpoint at ${path}; see /api/v1/openapi.json.`), headers);
  });
  return { GET: notFound, OPTIONS: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound };
}
