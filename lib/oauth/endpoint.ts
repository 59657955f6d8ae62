// The OAuth endpoints under /oauth: the provider behind the bridge, plus what we add in front of it:
// only our four endpoints (and the authorization resume step) are reachable; every query and form
// parameter within our input rules (see parameterProblem); CORS for browser-based clients on token,
// revoke and register; registration limited per client address and its metadata checked and
// normalised (see parseClientMetadata); a refresh's scope reduced to the scopes we offer.
import { MAX_BODY_BYTES, readBoundedBody } from '../http/body';
import { trustedClientAddress } from '../http/client-address';
import { RATE_LIMIT_HEADER_NAMES, rateLimiter, rateLimitHeaders, type RateLimitDecision } from '../ratelimit';
import { annotateRequest } from '../telemetry/request';
import { rateLimitIdentity } from '../ratelimit/identity';
import { nodeExchange } from './bridge';
import { oauthErrorPage } from './error-page';
import { OAUTH_ROUTES, oauthProvider } from './provider';
import { parameterProblem, parseClientMetadata, refreshFormWithOfferedScopes } from './request-rules';

const CORS_PATHS = new Set<string>([OAUTH_ROUTES.token, OAUTH_ROUTES.revocation, OAUTH_ROUTES.registration]);
const RESUME_PATH = new RegExp(`^${OAUTH_ROUTES.authorization}/[A-Za-z0-9_-]+$`);

/** Any origin, never credentials: these endpoints take no cookies. */
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, MCP-Protocol-Version',
  'Access-Control-Max-Age': '600',
} as const;

function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error, error_description: description }, { status, headers: { 'Cache-Control': 'no-store', ...headers } });
}

function isServedPath(path: string): boolean {
  return path === OAUTH_ROUTES.authorization || RESUME_PATH.test(path) || CORS_PATHS.has(path);
}

const FORM_BODY = /^application\/x-www-form-urlencoded\b/i;

/**
 * The 400 for a query or form parameter outside our input rules, or null. An authorization request
 * is answered with the error page, as the provider answers one it cannot send back: its redirect URI
 * is not yet known to be the client's. The other endpoints answer JSON.
 */
function parameterRefusal(request: Request, path: string, body: string): Response | null {
  const lists = [new URL(request.url).searchParams];
  if (FORM_BODY.test(request.headers.get('content-type') ?? '')) lists.push(new URLSearchParams(body));
  const problem = lists.map(parameterProblem).find((found) => found !== null);
  if (!problem) return null;
  if (!CORS_PATHS.has(path)) return oauthErrorPage({ error: 'invalid_request', error_description: problem });
  return oauthError(400, path === OAUTH_ROUTES.registration ? 'invalid_client_metadata' : 'invalid_request', problem);
}

/** A registration's body as the provider should see it, or the error answer. */
function registrationBody(text: string): Uint8Array<ArrayBuffer> | Response {
  const result = parseClientMetadata(text);
  if ('error' in result) return oauthError(400, result.error, result.error_description);
  return new TextEncoder().encode(JSON.stringify(result.metadata));
}

async function providerResponse(request: Request, path: string): Promise<Response> {
  const text = request.body ? await readBoundedBody(request.body) : '';
  if (text === null) return oauthError(400, 'invalid_request', `the request body must be at most ${MAX_BODY_BYTES / 1024} KiB, sent without pause`);
  const refusal = parameterRefusal(request, path, text);
  if (refusal) return refusal;
  let body = new TextEncoder().encode(text);
  if (path === OAUTH_ROUTES.token && FORM_BODY.test(request.headers.get('content-type') ?? '')) {
    body = new TextEncoder().encode(refreshFormWithOfferedScopes(text));
  }
  if (path === OAUTH_ROUTES.registration && request.method === 'POST') {
    const normalised = registrationBody(text);
    if (normalised instanceof Response) return normalised;
    body = normalised;
  }
  const exchange = nodeExchange(request, body, trustedClientAddress(request.headers));
  void oauthProvider().callback()(exchange.req, exchange.res);
  return exchange.response;
}

/**
 * Registration counts per client address (60 a minute), each request before anything of it is read,
 * and every answer to it (201, 400, 429) carries the limit headers of that window. The other endpoints
 * count in no window and carry none.
 */
async function registrationDecision(request: Request, path: string): Promise<RateLimitDecision | null> {
  if (path !== OAUTH_ROUTES.registration || request.method !== 'POST') return null;
  return rateLimiter().limit(`oauth-register:${rateLimitIdentity(null, request.headers)}`);
}

export async function handleOAuthRequest(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (!isServedPath(path)) return oauthError(404, 'not_found', 'no such OAuth endpoint');
  // The endpoint, for the log line and the metrics (an authorization's resume step under one name).
  annotateRequest({ route: RESUME_PATH.test(path) ? `${OAUTH_ROUTES.authorization}/[uid]` : path });
  const cors = CORS_PATHS.has(path);
  if (request.method === 'OPTIONS' && cors) return new Response(null, { status: 204, headers: CORS_HEADERS });
  const decision = await registrationDecision(request, path);
  const response =
    decision && !decision.allowed ? oauthError(429, 'invalid_request', 'too many registrations from this address; try again later') : await providerResponse(request, path);
  // Registration is a CORS path: a browser client is let read where its address's window stands.
  const limits = decision ? { ...rateLimitHeaders(decision), 'Access-Control-Expose-Headers': RATE_LIMIT_HEADER_NAMES.join(', ') } : {};
  const added = { ...(cors ? CORS_HEADERS : {}), ...limits };
  if (Object.keys(added).length === 0) return response;
  const headers = new Headers(response.headers);
  headers.delete('access-control-allow-credentials');
  for (const [name, value] of Object.entries(added)) headers.set(name, value);
  return new Response(response.body, { status: response.status, headers });
}
