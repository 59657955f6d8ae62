// The MCP door at /api/mcp, in front of mcp-handler: Origin check (DNS-rebinding protection), CORS for
// allowed browser origins, then the gate shared with REST (lib/operations/gate.ts) with this door's
// credential (OAuth access token or API key), one unit of the data window per tool call, and the
// protocol window for requests that read no data (see PROTOCOL_METHODS). The tools
// themselves are lib/mcp/tools.ts.
import { randomUUID } from 'node:crypto';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { createMcpHandler } from 'mcp-handler';
import { appUrl, mcpUrl, MCP_PATH } from '../app-url';
import { authenticate } from '../auth/authenticate';
import type { Bearer } from '../auth/bearer';
import { KEY_PREFIX } from '../key-format';
import { credentialId, type AuthContext } from '../contract/credential';
import { DATA_USE_RULE } from '../contract/data-use';
import { OAUTH_SCOPES } from '../contract/scopes';
import { MAX_BODY_BYTES, readBoundedBody } from '../http/body';
import { ApiError } from '../contract/errors';
import { API_HEADERS } from '../http/headers';
import { RATE_LIMIT_HEADER_NAMES } from '../ratelimit';
import { verifyAccessToken } from '../oauth/verify';
import { toApiError } from '../operations/failures';
import { admit, countWithoutCredential, type Door } from '../operations/gate';
import { problemResponse } from '../operations/problems';
import { annotateRequest } from '../telemetry/request';
import { ANSWER_TOKEN_BUDGET, DEFAULT_ANSWER_TOKENS } from '../contract/limits';
import { TOOL_OPERATIONS } from './catalogue';
import { McpCall, registerTools } from './tools';

export const SERVER_INFO = { name: 'metrics-api', version: '1.0.0' } as const;

export const INSTRUCTIONS = `Read-only access to one organisation's ads (campaigns, ad sets, ads) and organic social (Facebook, Instagram) data, as the agency dashboard last synced it; nothing here calls an ad platform.
Use of the data: ${DATA_USE_RULE}
Start with list_clients for the client ids the other tools take as \`client\`. describe_metrics defines fields when you need them: one surface (\`surface\`) or every field of one tool's answer (\`tool\`) at a time.
Dates are calendar days in IST (Asia/Kolkata), \`from\` and \`to\` included, at most 366 days, from 2000-01-01 to a year ahead; unknown arguments are refused. Every answer is the REST API's \`{ data, meta }\`. null means "not reported", never zero. Reach and followers are counts of people and do not add up over days. Amounts are in the ad account's currency; \`meta.currency\` is null when they span several. \`meta.syncedAt\` says how fresh an answer is.
An answer is at most ${ANSWER_TOKEN_BUDGET.toLocaleString('en-GB')} tokens, and about ${DEFAULT_ANSWER_TOKENS.toLocaleString('en-GB')} with default arguments: a list cut by \`limit\` or by that budget comes with \`truncated: true\`, \`meta.nextOffset\` (the \`offset\` that reads on) and a second text block saying the same; an overview's series comes by week or month (\`meta.granularity\`) when by day it would not fit. A refused call is an \`isError\` result whose text is a problem document (\`code\`, \`detail\`, and \`errors[]\` for bad arguments).`;

/** RFC 9728 metadata of this resource, at the path-suffixed well-known address (and at the root one). */
export function protectedResourceMetadataUrl(): string {
  return `${appUrl()}/.well-known/oauth-protected-resource${MCP_PATH}`;
}

export function protectedResourceMetadata() {
  return {
    resource: mcpUrl(),
    authorization_servers: [appUrl()],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
  };
}

/** The MCP 401 challenge: where to discover the authorization server, and which scopes to ask for. */
function challenge(error?: 'invalid_token'): string {
  const base = `Bearer resource_metadata="${protectedResourceMetadataUrl()}", scope="${OAUTH_SCOPES.join(' ')}"`;
  return error ? `${base}, error="${error}"` : base;
}

/**
 * Browser origins allowed to call: the app's own, plus those listed in MCP_ALLOWED_ORIGINS (comma
 * separated, e.g. a browser-based MCP client). Requests without Origin (servers, desktop and CLI
 * clients) are not browsers and are served.
 */
function allowedOrigins(): Set<string> {
  const listed = (process.env.MCP_ALLOWED_ORIGINS ?? '').split(',').map((origin) => origin.trim()).filter(Boolean);
  return new Set([new URL(appUrl()).origin, ...listed]);
}

/** No cookies are read here, so CORS never allows credentials. */
function corsHeaders(origin: string | null): Record<string, string> {
  if (!origin) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': 'POST, GET, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID',
    'Access-Control-Expose-Headers': ['WWW-Authenticate', 'Mcp-Session-Id', 'MCP-Protocol-Version', ...RATE_LIMIT_HEADER_NAMES, 'X-Request-Id'].join(', '),
    'Access-Control-Max-Age': '600',
    Vary: 'Origin',
  };
}

/** The credential of an MCP request: an OAuth access token for this endpoint, or an API key as on REST. */
async function credential(request: Request, bearer: Bearer): Promise<AuthContext> {
  if (bearer.kind === 'bearer' && !bearer.token.startsWith(KEY_PREFIX)) {
    const grant = await verifyAccessToken(bearer.token);
    if (grant) return grant;
    throw new ApiError('unauthorized', 'The access token is not valid: unknown, expired or revoked, issued for another resource, or its grant was withdrawn.', {
      headers: { 'WWW-Authenticate': challenge('invalid_token') },
    });
  }
  try {
    return await authenticate(request, bearer);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'unauthorized') throw error;
    // The REST challenge names no authorization server; MCP clients discover it from ours.
    const presented = request.headers.has('authorization');
    throw new ApiError('unauthorized', error.message, { headers: { 'WWW-Authenticate': challenge(presented ? 'invalid_token' : undefined) } });
  }
}

interface JsonRpcMessage {
  method?: unknown;
  params?: { name?: unknown } | null;
}

/**
 * The JSON-RPC methods that read no data: connecting (initialize, the 2026-07-28 server/discover), listing
 * what the server offers, ping, and every notification. A request made only of these counts in the
 * protocol window (lib/contract/limits.ts); tools/call, and anything else, in the data window.
 */
const PROTOCOL_METHODS = new Set(['initialize', 'server/discover', 'ping', 'tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']);

function readsNoData(message: JsonRpcMessage | null): boolean {
  const method = message?.method;
  return typeof method === 'string' && (PROTOCOL_METHODS.has(method) || method.startsWith('notifications/'));
}

/** The JSON-RPC messages of a request's body (a batch carries several), or null when it is not JSON-RPC. */
function messagesIn(body: string): (JsonRpcMessage | null)[] | null {
  try {
    const parsed: unknown = JSON.parse(body);
    const messages = (Array.isArray(parsed) ? parsed : [parsed]) as (JsonRpcMessage | null)[];
    return messages.length === 0 ? null : messages;
  } catch {
    return null; // not JSON: the handler answers a JSON-RPC parse error
  }
}

const TOOL_NAMES = new Set(TOOL_OPERATIONS.map((operation) => operation.tool!.name));
/** The JSON-RPC methods the request log names; any other (the caller chooses) is `other`, so the charts stay bounded. */
const LOGGED_METHODS = new Set([...PROTOCOL_METHODS, 'tools/call', 'notifications/initialized']);

/**
 * What the request log and the usage charts call an MCP request: `mcp:<tool>` for one tool call,
 * `mcp:<method>` for another message, `mcp:batch` for several; and the tools it called. Names that are
 * not ours are logged as `unknown tool` and `other`, never as the caller wrote them.
 */
export function describeMcpRequest(messages: (JsonRpcMessage | null)[]): { endpoint: string; tool: string | null } {
  const toolOf = (message: JsonRpcMessage | null) => {
    const name = message?.params?.name;
    return typeof name === 'string' && TOOL_NAMES.has(name) ? name : 'unknown tool';
  };
  const tools = messages.filter((message) => message?.method === 'tools/call').map(toolOf);
  const tool = tools.length > 0 ? tools.join(', ') : null;
  if (messages.length !== 1) return { endpoint: messages.length === 0 ? 'mcp:other' : 'mcp:batch', tool };
  const method = messages[0]?.method;
  if (method === 'tools/call') return { endpoint: `mcp:${tools[0]}`, tool };
  return { endpoint: `mcp:${typeof method === 'string' && LOGGED_METHODS.has(method) ? method : 'other'}`, tool };
}

/**
 * The request with its body read within the bounds of lib/http/body.ts (a JSON-RPC message of ours
 * is a few hundred bytes), or null when the body is too large or too slow.
 */
async function boundedRequest(request: Request): Promise<{ request: Request; body: string } | null> {
  if (!request.body) return { request, body: '' };
  const body = await readBoundedBody(request.body);
  if (body === null) return null;
  return { request: new Request(request.url, { method: request.method, headers: request.headers, body }), body };
}

/**
 * The protocol revisions served: the SDK serves 2026-07-28 natively (server/discover) but leaves it out of
 * its list of the 2025-era revisions, the one a refused `MCP-Protocol-Version` is answered with.
 */
export const PROTOCOL_VERSIONS = ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS];

const mcpHandler = createMcpHandler(registerTools, {
  serverInfo: SERVER_INFO,
  instructions: INSTRUCTIONS,
  capabilities: { tools: { listChanged: false } },
  supportedProtocolVersions: PROTOCOL_VERSIONS,
});

function withHeaders(response: Response, headers: Record<string, string>): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}

export async function handleMcpRequest(incoming: Request): Promise<Response> {
  const requestId = randomUUID();
  // For the log line of the answers given before the gate (the gate adds the rest).
  annotateRequest({ requestId });
  const origin = incoming.headers.get('origin');
  if (origin !== null && !allowedOrigins().has(origin)) {
    // Counted like any request without a credential: a refused page cannot probe for free.
    return problemResponse(new ApiError('forbidden', `Requests from the origin ${origin} are not allowed.`), {
      'X-Request-Id': requestId,
      ...(await countWithoutCredential(incoming)),
    });
  }
  const cors = { 'X-Request-Id': requestId, ...corsHeaders(origin) };
  if (incoming.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
  const bounded = await boundedRequest(incoming);
  if (!bounded) {
    // Counted like any request without a credential (the credential cannot be checked without the body).
    return problemResponse(
      new ApiError('validation_failed', `The request body must be at most ${MAX_BODY_BYTES / 1024} KiB and arrive within the time limit.`, {
        errors: [{ path: 'body', message: `must be at most ${MAX_BODY_BYTES / 1024} KiB, sent without pause` }],
      }),
      { ...cors, ...(await countWithoutCredential(incoming)) },
    );
  }
  const { request, body } = bounded;
  const messages = request.method === 'POST' ? messagesIn(body) : null;
  const door: Door = {
    credential,
    noun: 'credential',
    // One unit of the data window per tool call (each call of a batch counts); a request of protocol
    // messages only, or of no JSON-RPC message at all (the SDK clients' GET probe, a DELETE, a body that
    // does not parse: the handler answers those without reading data), takes one unit of the protocol
    // window; anything else (an unknown method) one unit of the data window.
    calls: messages?.filter((message) => message?.method === 'tools/call').length ?? 0,
    readsNoData: messages === null || messages.every(readsNoData),
    names: describeMcpRequest(messages ?? []),
  };
  const admitted = await admit(request, door, requestId, cors);
  if (admitted instanceof Response) return admitted;
  const { auth, headers } = admitted;
  try {
    request.auth = {
      token: '', // the secret is not handed on: nothing downstream needs it
      clientId: auth.kind === 'oauth_grant' ? auth.clientId : credentialId(auth),
      scopes: auth.scopes,
      ...(auth.kind === 'oauth_grant' ? { expiresAt: Math.floor(Date.parse(auth.expiresAt) / 1000) } : {}),
      resourceMetadataUrl: protectedResourceMetadataUrl(),
      extra: { call: new McpCall(admitted, request) },
    };
    return admitted.answered(withHeaders(await mcpHandler(request), { ...API_HEADERS, ...headers }));
  } catch (error) {
    return admitted.answered(problemResponse(toApiError(error, requestId), headers));
  }
}

/** The protected-resource metadata document, with CORS for browser clients (any origin, no credentials). */
export function protectedResourceResponse(request: Request): Response {
  const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, OPTIONS', 'Access-Control-Allow-Headers': 'MCP-Protocol-Version' };
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
  return Response.json(protectedResourceMetadata(), { headers: { ...cors, 'Cache-Control': 'public, max-age=300' } });
}
