// Next.js 16's proxy (Node runtime), in front of two things:
// - /api/v1: authenticates the key and applies the rate limit before any route code runs, then hands
//   the verified context to the route in a signed header. Routes do not depend on it for safety:
//   without a valid hand-off they authenticate the key themselves.
// - the pages' form posts (server actions): one from another origin is refused with 403 here, before
//   Next.js's own origin check answers it with a 500 and a logged error. The actions still run their
//   own checks (lib/session/current.ts); this only makes the refusal clean.
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
import { isSameOriginRequest } from './lib/session/origin';
import { FORM_MAX_BYTES, readBoundedBody } from './lib/http/body';

const BASE_PATH = '/api/v1';
/** The machine-readable description needs no key and is not limited. */
const UNGATED_PATHS = new Set([`${BASE_PATH}/openapi.json`]);
/** Every documented endpoint; anything else under /api/v1 is a problem+json 404, not an HTML page. */
const KNOWN_PATHS = new Set(allOperations().map((operation) => BASE_PATH + operation.path));

// Pages: everything but the other APIs (the OAuth endpoints take cross-origin posts by design; the
// consent form's route checks its Origin itself), Next.js's assets and the metadata documents.
export const config = { matcher: ['/api/v1/:path*', '/((?!api/|oauth/|consent/|_next/|\\.well-known/).*)'] };

export async function proxy(request: NextRequest): Promise<Response> {
  return request.nextUrl.pathname.startsWith(`${BASE_PATH}/`) || request.nextUrl.pathname === BASE_PATH ? gateApi(request) : gatePage(request);
}

function refusedFormPost(status: 400 | 403 | 413, message: string): Response {
  return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/**
 * Whether a form post's body is what its content type says: form data that parses, or (a server
 * action called from a script) the JSON text of its arguments. Next.js answers one that is not with a
 * 500 and a logged parse error; an unknown or malformed action id it answers itself (409, 400).
 */
async function formBodyParses(request: NextRequest, body: string): Promise<boolean> {
  const type = request.headers.get('content-type') ?? '';
  if (/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) {
    return request.clone().formData().then(() => true, () => false);
  }
  if (request.headers.has('next-action') && /^text\/plain\b/i.test(type)) {
    try {
      JSON.parse(body);
      return true;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * A page's form post (a server action) whose Origin names another site is 403; one over the action
 * body limit, or not received in time, 413; one whose body does not parse, 400. Next.js would answer
 * each with a 500 and a logged error. A post without Origin goes on to the action, which refuses it (403).
 */
async function gatePage(request: NextRequest): Promise<Response> {
  if (request.method !== 'POST') return NextResponse.next();
  if (request.headers.has('origin') && !isSameOriginRequest(request.headers)) {
    return refusedFormPost(403, 'Cross-origin form submission refused: nothing was changed.');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  const body = declared > FORM_MAX_BYTES ? null : request.body ? await readBoundedBody(request.clone().body!, FORM_MAX_BYTES) : '';
  if (body === null) return refusedFormPost(413, `A form post must be at most ${FORM_MAX_BYTES / 1024} KiB, sent without pause: nothing was changed.`);
  if (!(await formBodyParses(request, body))) return refusedFormPost(400, 'The form could not be read: nothing was changed.');
  return NextResponse.next();
}

async function gateApi(request: NextRequest): Promise<Response> {
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
    // A header set here wins over the route's own. The routes' GET (and HEAD) answers set their
    // Cache-Control themselves (by size, see apiHeaders; the post thumbnail its own caching), so it
    // is set here only on what Next.js answers by itself (OPTIONS, 405): API responses are never cached.
    const routeAnswers = request.method === 'GET' || request.method === 'HEAD';
    for (const [name, value] of Object.entries(routeAnswers ? headers : { ...API_HEADERS, ...headers })) response.headers.set(name, value);
    return response;
  } catch (error) {
    return errorResponse(error, requestId, headers);
  }
}
