// The one step both doors take to run an operation: scope check, input validation, the response cache,
// the call. REST hands it the query string, MCP the tool's JSON arguments; REST gets back the JSON bytes
// of the `{ data, meta }` envelope with their ETag, MCP the envelope (either door, for a binary
// endpoint, its Response), or a thrown error that `toApiError` maps for either door.
import { credentialId, type AuthContext } from '../contract/credential';
import { answerKey, jsonAnswer, maxBytesFromEnv, memoryResponseCache, type CachedAnswer, type ResponseCache } from '../cache/response-cache';
import { withReadDatabase } from '../db';
import { dataVersion } from '../metrics/freshness';
import { withConcurrencySlot } from '../ratelimit/concurrency';
import type { Envelope } from '../contract/envelope';
import { ApiError } from '../contract/errors';
import type { Operation } from '../contract/operation';
import { parseArguments, parseQuery } from '../contract/query';
import { metrics, sampleOnScrape } from '../telemetry/metrics';
import { processWide } from '../process-wide';

/** A REST query string, or the JSON arguments of an MCP tool call. */
export type OperationInput = { kind: 'query'; params: URLSearchParams } | { kind: 'arguments'; args: unknown };

/** The process's cache, or null when `RESPONSE_CACHE_MAX_BYTES=0` turned it off. */
const responseCache = processWide('response-cache', (): ResponseCache | null => {
  const maxBytes = maxBytesFromEnv();
  const cache = maxBytes === 0 ? null : memoryResponseCache(maxBytes);
  if (cache) sampleOnScrape('response-cache', () => metrics().cacheBytes.set(cache.bytes));
  return cache;
});

/** A JSON answer: computed now (`envelope` set) or taken from the cache (only its bytes). */
type Answered = { kind: 'computed'; envelope: Envelope<unknown>; json?: CachedAnswer } | { kind: 'cached'; json: CachedAnswer };

async function answer(operation: Operation, auth: AuthContext, input: OperationInput, request: Request): Promise<Answered | Response> {
  if (operation.scope && !auth.scopes.includes(operation.scope)) {
    throw new ApiError('forbidden', `This credential lacks the scope ${operation.scope}, which ${operation.tool?.name ?? operation.path} requires.`);
  }
  const query =
    input.kind === 'query' ? parseQuery(input.params, operation.query) : parseArguments(input.args, operation.tool?.query ?? operation.query);
  // The call: the one place where an operation's own code runs, for both doors, within the
  // credential's, the organisation's and the process's caps on requests in flight (a cache hit takes no slot).
  const run = async () => {
    const result = await withConcurrencySlot({ credential: credentialId(auth), org: auth.orgId }, () => operation.run(query, auth, request));
    return result instanceof Response ? result : ({ kind: 'computed', envelope: result } as const);
  };
  const cache = operation.cacheable ? responseCache() : null;
  // One database (the replica or the primary) for the version and the data alike.
  return withReadDatabase(async () => {
    if (!cache) return run();
    // The version is read before the data (see dataVersion): the answer is at least as new as its key.
    const key = answerKey({ orgId: auth.orgId, clientIds: auth.clientIds, operationId: operation.id, query, dataVersion: await dataVersion(auth.orgId) });
    const hit = await cache.get(key);
    metrics().cacheRequests.inc({ result: hit ? 'hit' : 'miss' });
    if (hit) return { kind: 'cached', json: hit };
    const computed = await run();
    if (computed instanceof Response) return computed;
    const json = jsonAnswer(computed.envelope);
    await cache.set(key, json);
    return { ...computed, json };
  });
}

/** The REST door's call: the envelope's JSON bytes and ETag. */
export async function invokeJson(operation: Operation, auth: AuthContext, input: OperationInput, request: Request): Promise<CachedAnswer | Response> {
  const answered = await answer(operation, auth, input, request);
  if (answered instanceof Response) return answered;
  return answered.kind === 'cached' ? answered.json : (answered.json ?? jsonAnswer(answered.envelope));
}

/** The MCP door's call: the envelope itself. */
export async function invoke(operation: Operation, auth: AuthContext, input: OperationInput, request: Request): Promise<Envelope<unknown> | Response> {
  const answered = await answer(operation, auth, input, request);
  if (answered instanceof Response) return answered;
  return answered.kind === 'computed' ? answered.envelope : (JSON.parse(answered.json.body.toString('utf8')) as Envelope<unknown>);
}
