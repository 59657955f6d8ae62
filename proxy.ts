// The gate of /api/v1 (Next.js 16's proxy, Node runtime): authenticates the key and applies the rate
// limit before any route code runs, then hands the verified context to the route in a signed header.
// Routes do not depend on it for safety: without a valid hand-off they authenticate the key themselves.
import { randomUUID } from 'node:crypto';
import { NextResponse, type NextRequest } from 'next/server';
import { authenticate } from './lib/auth/authenticate';
import type { AuthContext } from './lib/auth/context';
import { AUTH_HANDOFF_HEADER, sealAuthContext } from './lib/auth/handoff';
import { ApiError } from './lib/http/errors';
import { API_HEADERS, problemResponse } from './lib/http/responses';
import { errorResponse, REQUEST_ID_HEADER } from './lib/http/route';
import { allOperations } from './lib/openapi/document';
import { rateLimitHeaders, rateLimiter } from './lib/ratelimit';
import { rateLimitIdentity } from './lib/ratelimit/identity';
import { RATE_LIMIT } from './lib/ratelimit/policy';

const BASE_PATH = '/api/v1';
/** The machine-readable description needs no key and is not limited. */
const UNGATED_PATHS = new Set([`${BASE_PATH}/openapi.json`]);
/** Every documented endpoint; anything else under /api/v1 is a problem+json 404, not an HTML page. */
const KNOWN_PATHS = new Set(allOperations().map((operation) => BASE_PATH + operation.path));
/** Endpoints answering bytes set their own Cache-Control (the post thumbnail may be cached privately). */
const OWN_CACHING_PATHS = new Set(allOperations().filter((operation) => operation.binary).map((operation) => BASE_PATH + operation.path));

export const config = { matcher: '/api/v1/:path*' };

export async function proxy(request: NextRequest): Promise<Response> {
  if (UNGATED_PATHS.has(request.nextUrl.pathname)) return NextResponse.next();
  // Always our own id: a caller-chosen one would end up in our logs.
  const requestId = randomUUID();
  let headers: Record<string, string> = { 'X-Request-Id': requestId };
  try {
    let auth: AuthContext | null = null;
    let authFailure: unknown = null;
    try {
      auth = await authenticate(request);
    } catch (error) {
      authFailure = error;
    }
    const decision = await rateLimiter().limit(rateLimitIdentity(auth, request.headers));
    headers = { ...headers, ...rateLimitHeaders(decision) };
    if (!decision.allowed) {
      const who = auth ? 'this key' : 'requests without a valid key from this address';
      return problemResponse(
        new ApiError('rate_limited', `More than ${RATE_LIMIT.limit} requests in ${RATE_LIMIT.windowSeconds} s for ${who}. Retry after the seconds in Retry-After.`),
        headers,
      );
    }
    if (!auth) return errorResponse(authFailure, requestId, headers);
    if (!KNOWN_PATHS.has(request.nextUrl.pathname)) {
      return problemResponse(new ApiError('not_found', `There is no endpoint at ${request.nextUrl.pathname}; see ${BASE_PATH}/openapi.json.`), headers);
    }

    // The caller's own copy of the hand-off header (if any) is replaced, never passed on.
    const forwarded = new Headers(request.headers);
    forwarded.set(AUTH_HANDOFF_HEADER, sealAuthContext(auth));
    forwarded.set(REQUEST_ID_HEADER, requestId);
    const response = NextResponse.next({ request: { headers: forwarded } });
    // Also on what Next.js answers by itself (OPTIONS, 405): API responses are never cached.
    const passed = OWN_CACHING_PATHS.has(request.nextUrl.pathname) ? headers : { ...API_HEADERS, ...headers };
    for (const [name, value] of Object.entries(passed)) response.headers.set(name, value);
    return response;
  } catch (error) {
    return errorResponse(error, requestId, headers);
  }
}
