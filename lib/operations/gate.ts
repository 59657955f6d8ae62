// The one gate both doors pass a request through before any operation runs: the credential, then the
// rate limit, whose headers every answer carries, errors included. A request without a valid
// credential still counts, per client address, so that guessing is throttled; it is refused only after
// counting (429 before 401), so its 401 carries the limit headers too. Each door says which credentials
// it takes (REST: API keys; MCP: OAuth access tokens or keys), how many calls a request carries, and
// whether it reads no data at all (an MCP protocol message): such a request counts in the protocol
// window (lib/contract/limits.ts), never in the data window, and its limit headers describe that window.
import { randomUUID } from 'node:crypto';
import { bearerOf, type Bearer } from '../auth/bearer';
import type { AuthContext } from '../contract/credential';
import { rateLimited } from '../contract/errors';
import { RATE_LIMITS, type RateLimitWindow } from '../contract/limits';
import { trustedClientAddress } from '../http/client-address';
import { isUnavailable } from '../http/unavailable';
import { rateLimiter, rateLimitHeaders, retryAfterSeconds, uncountedHeaders, type RateLimitDecision } from '../ratelimit';
import { rateLimitIdentity } from '../ratelimit/identity';
import { annotateRequest } from '../telemetry/request';
import { inSpan, setSpanAttributes } from '../telemetry/tracing';
import { recordRequest, requestLogEnabled } from '../usage/request-log';
import { toApiError } from './failures';
import { problemResponse } from './problems';

export interface Door {
  /** The request's credential, from its Authorization header as the gate read it, or a thrown `unauthorized` ApiError. */
  credential(request: Request, bearer: Bearer): Promise<AuthContext>;
  /** What the door calls a credential in a 429's detail: `key` on REST, `credential` on MCP. */
  noun: string;
  /**
   * How many calls the request carries that are each counted and refused on their own (the tool calls
   * of an MCP batch). Absent or 0: the request takes one unit and is refused whole when over the limit.
   */
  calls?: number;
  /** What the request log and the usage charts call the request's endpoint (and its MCP tools); its path when absent. */
  names?: { endpoint: string; tool?: string | null };
  /** True when the request reads no data (MCP: initialize, tools/list, ping, notifications…); absent: false. */
  readsNoData?: boolean;
}

/** A request the gate let through: its credential, and the headers every answer to it carries. */
export interface Admitted {
  auth: AuthContext;
  requestId: string;
  headers: Record<string, string>;
  /** Takes the next of the request's calls (see Door.calls); throws `rate_limited` when it was refused. */
  takeCall(): void;
  /** Hands back the answer to the request, once it is made, after queueing its record in the request log. */
  answered(response: Response): Response;
}

/** Refusals before the credential is read (a foreign origin, an unreadable body) count like a request without one. */
export async function countWithoutCredential(request: Request): Promise<Record<string, string>> {
  return rateLimitHeaders(await rateLimiter().limit(rateLimitIdentity(null, request.headers)));
}

async function takeUnits(window: RateLimitWindow, identity: string, units: number): Promise<RateLimitDecision[]> {
  const decisions: RateLimitDecision[] = [];
  for (let unit = 0; unit < units; unit++) decisions.push(await rateLimiter(window).limit(identity));
  return decisions;
}

/** What names a credential in logs without being it: an API key's public prefix, an OAuth grant's id. */
function credentialLabel(auth: AuthContext): string {
  return auth.kind === 'api_key' ? auth.keyPrefix : `grant:${auth.grantId}`;
}

/**
 * Admits `request` through `door`, or returns the answer itself when it goes no further. `requestId`
 * is always our own (a caller-chosen one would end up in our logs); `headers` are the door's own
 * (CORS on MCP), kept on every answer. Traced as the span `gate`, which carries the request id.
 */
export function admit(request: Request, door: Door, requestId = randomUUID(), headers: Record<string, string> = {}): Promise<Admitted | Response> {
  return inSpan('gate', { 'http.response.header.x-request-id': requestId }, () => admitted(request, door, requestId, headers));
}

/** What the gate has learnt of a request so far: what the record of its answer says (recordAnswer). */
interface GateState {
  startedAt: number;
  /** The request's Authorization header, read once for the door and for the record of a refusal. */
  bearer: Bearer;
  auth: AuthContext | null;
  /** Whether a call of the request was refused by its rate limit. */
  limited: boolean;
  /** The answer's headers: the door's, the request id and the rate limit's. */
  headers: Record<string, string>;
}

/**
 * What the server's log line and metrics say of the request (lib/telemetry/request.ts), and the
 * request log's record of the answer (lib/usage/request-log.ts: queued here, written in batches).
 */
function recordAnswer(request: Request, door: Door, requestId: string, state: GateState, response: Response): Response {
  const { auth, headers } = state;
  const { endpoint, tool } = door.names ?? { endpoint: new URL(request.url).pathname };
  const limit = headers['X-RateLimit-Limit'];
  const remaining = headers['X-RateLimit-Remaining'];
  const reset = headers['X-RateLimit-Reset'];
  const rateLimited = state.limited || response.status === 429;
  annotateRequest({
    route: endpoint,
    requestId,
    orgId: auth?.orgId,
    credential: auth ? credentialLabel(auth) : undefined,
    rateLimit: limit === undefined || remaining === undefined ? undefined : { limit: Number(limit), remaining: Number(remaining), limited: rateLimited },
  });
  if (!requestLogEnabled()) return response;
  recordRequest({
    auth,
    bearer: auth ? null : state.bearer,
    method: request.method,
    url: request.url,
    endpoint,
    tool,
    status: response.status,
    durationMs: performance.now() - state.startedAt,
    clientAddress: trustedClientAddress(request.headers),
    rateRemaining: remaining === undefined ? null : Number(remaining),
    rateReset: reset === undefined ? null : Number(reset),
    rateLimited,
    requestId,
  });
  return response;
}

async function admitted(request: Request, door: Door, requestId: string, doorHeaders: Record<string, string>): Promise<Admitted | Response> {
  const state: GateState = {
    startedAt: performance.now(),
    bearer: bearerOf(request.headers.get('authorization')),
    auth: null,
    limited: false,
    headers: { ...doorHeaders, 'X-Request-Id': requestId },
  };
  const logged = (response: Response) => recordAnswer(request, door, requestId, state, response);
  try {
    let authFailure: unknown = null;
    try {
      state.auth = await door.credential(request, state.bearer);
      // On the gate's span: org ids are for traces and logs, never for metric labels.
      setSpanAttributes({ 'metrics_api.org_id': state.auth.orgId });
    } catch (error) {
      // A credential that cannot be checked (the database is unreachable) is neither valid nor
      // invalid: 503 at once, counted in no window, with that window's headers read without counting.
      if (isUnavailable(error)) return logged(problemResponse(toApiError(error, requestId), { ...state.headers, ...(await uncountedHeaders(request.headers)) }));
      authFailure = error;
    }
    const { auth } = state;
    // Without a valid credential, every request counts per address in the data window (guessing is
    // throttled whatever the message); with one, a request that reads no data counts one unit of the
    // protocol window, and any other one unit per call (at least one) of the data window.
    const window: RateLimitWindow = auth && door.readsNoData ? 'protocol' : 'data';
    const calls = auth && window === 'data' ? (door.calls ?? 0) : 0;
    // At most one more unit than a window holds: past that every call is refused anyway, and a large
    // batch must not cost the limiter a round trip per call.
    const decisions = await takeUnits(window, rateLimitIdentity(auth, request.headers), Math.min(Math.max(1, calls), RATE_LIMITS[window].limit + 1));
    const last = decisions.at(-1)!;
    const headers = (state.headers = { ...state.headers, ...rateLimitHeaders(last, window) });
    // The detail says the very number of seconds the header does.
    const retryAfter = Number(headers['Retry-After']);
    if (!auth) {
      if (!last.allowed) return logged(problemResponse(rateLimited(`requests without a valid ${door.noun} from this address`, retryAfter), headers));
      return logged(problemResponse(toApiError(authFailure, requestId), headers));
    }
    // A request whose calls are refused one by one goes on: its neighbours in a batch may be allowed.
    if (calls === 0 && !last.allowed) return logged(problemResponse(rateLimited(`this ${door.noun}`, retryAfter, window), headers));
    const noun = door.noun;
    return {
      auth,
      answered: logged,
      requestId,
      headers,
      takeCall() {
        // The last decision stands for every call past the units taken (it was refused, if any were).
        const decision = decisions.length > 1 ? decisions.shift()! : decisions[0]!;
        if (!decision.allowed) {
          state.limited = true;
          throw rateLimited(`this ${noun}`, retryAfterSeconds(decision));
        }
      },
    };
  } catch (error) {
    return logged(problemResponse(toApiError(error, requestId), state.headers));
  }
}
