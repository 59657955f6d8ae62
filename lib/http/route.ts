// The REST door: turns an operation into the Next.js route handlers of its path. Every request to
// /api/v1 (but the OpenAPI document) passes the gate first, in the route itself: the key (only in the
// Authorization header), then the rate limit, whose headers every answer carries, errors included.
// The shared step (invoke.ts) does the rest; the envelope becomes JSON with its ETag (or a 304) and
// every failure a problem document. Route files stay one line.
//
// Why not in proxy.ts, Next.js's middleware: running it costs a request about as much as the whole
// liveness route (the request is rebuilt for it and its verdict handed on in a header), which halved
// the throughput of a small endpoint like /me. Here the gate runs once, in the process and bundle that
// answers, and there is no hand-off for a caller to forge.
import { randomUUID } from 'node:crypto';
import { authenticate } from '../auth/authenticate';
import type { AuthContext } from '../auth/context';
import { rateLimiter, rateLimitHeaders, uncountedHeaders } from '../ratelimit';
import { rateLimitIdentity } from '../ratelimit/identity';
import { ApiError, rateLimited, toApiError } from './errors';
import { invokeJson } from './invoke';
import type { Operation } from './operation';
import { API_HEADERS, answerResponse, problemResponse } from './responses';
import { isUnavailable } from './unavailable';

type Handler = (request: Request) => Promise<Response>;
/** Every method a route file exports: GET (Next.js answers HEAD with it), the preflight and the refused writes. */
type Handlers = Record<'GET' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler>;

/** The read-only API's methods, as a 405 and a preflight state them. */
const ALLOW = 'GET, HEAD, OPTIONS';

/** A request the gate let through: its credential, and the headers every answer to it carries. */
interface Admitted {
  auth: AuthContext;
  requestId: string;
  headers: Record<string, string>;
}

/**
 * The gate. A request without a valid key still counts, per client address, so that key guessing is
 * throttled; it is refused only after counting, so its 401 carries the limit headers too. A key that
 * cannot be checked because the database is unreachable counts nowhere (see uncountedHeaders). Returns
 * the answer itself when the request goes no further.
 */
async function admit(request: Request): Promise<Admitted | Response> {
  // Always our own id: a caller-chosen one would end up in our logs.
  const requestId = randomUUID();
  let headers: Record<string, string> = { 'X-Request-Id': requestId };
  try {
    let auth: AuthContext | null = null;
    let authFailure: unknown = null;
    try {
      auth = await authenticate(request);
    } catch (error) {
      // A key that cannot be checked is neither valid nor invalid: 503, counted in no window.
      if (isUnavailable(error)) return errorResponse(error, requestId, { ...headers, ...(await uncountedHeaders(request.headers)) });
      authFailure = error;
    }
    const decision = await rateLimiter().limit(rateLimitIdentity(auth, request.headers));
    headers = { ...headers, ...rateLimitHeaders(decision) };
    if (!decision.allowed) {
      return problemResponse(rateLimited(auth ? 'this key' : 'requests without a valid key from this address'), headers);
    }
    if (!auth) return errorResponse(authFailure, requestId, headers);
    return { auth, requestId, headers };
  } catch (error) {
    return errorResponse(error, requestId, headers);
  }
}

/** A handler that runs `then` for the requests the gate lets through. */
function behindGate(then: (request: Request, admitted: Admitted) => Promise<Response> | Response): Handler {
  return async (request) => {
    const admitted = await admit(request);
    return admitted instanceof Response ? admitted : then(request, admitted);
  };
}

/** The route handlers of an operation's path. */
export function restRoute(operation: Operation): Handlers {
  const answer = behindGate(async (request, { auth, requestId, headers }) => {
    try {
      const result = await invokeJson(operation, auth, { kind: 'query', params: new URL(request.url).searchParams }, request);
      if (result instanceof Response) {
        for (const [name, value] of Object.entries(headers)) result.headers.set(name, value);
        return result;
      }
      return answerResponse(result, request, headers);
    } catch (error) {
      return errorResponse(error, requestId, headers);
    }
  });
  // No Access-Control-* header, on purpose: keys are for servers, and browsers are not served.
  const preflight = behindGate((_, { headers }) => new Response(null, { status: 204, headers: { ...API_HEADERS, ...headers, Allow: ALLOW } }));
  const refused = behindGate((_, { headers }) => new Response(null, { status: 405, headers: { ...API_HEADERS, ...headers, Allow: ALLOW } }));
  return { GET: answer, OPTIONS: preflight, POST: refused, PUT: refused, PATCH: refused, DELETE: refused };
}

/** The route handlers of every other path under /api/v1, whatever the method: a problem, not an HTML page, past the gate. */
export function unknownEndpointRoute(): Handlers {
  const notFound = behindGate((request, { headers }) => {
    const path = new URL(request.url).pathname;
    return problemResponse(new ApiError('not_found', `There is no endpoint at ${path}; see /api/v1/openapi.json.`), headers);
  });
  return { GET: notFound, OPTIONS: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound };
}

/** Maps anything thrown to a problem document; unexpected failures disclose nothing but the request id. */
export function errorResponse(error: unknown, requestId: string, headers: Record<string, string> = {}): Response {
  return problemResponse(toApiError(error, requestId), headers);
}
