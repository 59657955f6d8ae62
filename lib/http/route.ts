// Turns an operation and a function of (query, credential) into a Next.js route handler: credential,
// scope, query, call, envelope, and every failure as a problem document. Route files stay one call.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { authenticate } from '../auth/authenticate';
import type { AuthContext } from '../auth/context';
import { AUTH_HANDOFF_HEADER, openAuthContext } from '../auth/handoff';
import type { Envelope } from './envelope';
import { ApiError } from './errors';
import type { Operation } from './operation';
import { parseQuery, type QuerySchema } from './query';
import { jsonResponse, problemResponse } from './responses';
import { isUnavailable } from './unavailable';

export const REQUEST_ID_HEADER = 'x-request-id';
const REQUEST_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface RouteContext<Q> {
  query: Q;
  auth: AuthContext;
  request: Request;
}

type Handler<Q extends QuerySchema, D extends z.ZodType> = (
  context: RouteContext<z.infer<Q>>,
) => Promise<Envelope<z.infer<D>> | Response>;

export function defineRoute<Q extends QuerySchema, D extends z.ZodType>(
  operation: Operation<Q, D>,
  handler: Handler<Q, D>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    // proxy.ts always sets a UUID; anything else came from a caller and is not written to our logs.
    const incomingId = request.headers.get(REQUEST_ID_HEADER);
    const requestId = incomingId && REQUEST_ID_PATTERN.test(incomingId) ? incomingId : randomUUID();
    const headers = { 'X-Request-Id': requestId };
    try {
      const auth = openAuthContext(request.headers.get(AUTH_HANDOFF_HEADER)) ?? (await authenticate(request));
      if (operation.scope && !auth.scopes.includes(operation.scope)) {
        throw new ApiError('forbidden', `This credential lacks the scope ${operation.scope}, which ${operation.path} requires.`);
      }
      const query = parseQuery(new URL(request.url).searchParams, operation.query);
      const result = await handler({ query, auth, request });
      if (result instanceof Response) {
        result.headers.set('X-Request-Id', requestId);
        return result;
      }
      return jsonResponse(result, headers);
    } catch (error) {
      return errorResponse(error, requestId, headers);
    }
  };
}

/** Maps anything thrown to a problem document; unexpected failures disclose nothing but the request id. */
export function errorResponse(error: unknown, requestId: string, headers: Record<string, string> = {}): Response {
  if (error instanceof ApiError) return problemResponse(error, headers);
  if (isUnavailable(error)) {
    console.error(`[${requestId}] database unavailable: ${(error as Error).message}`);
    return problemResponse(
      new ApiError('unavailable', 'The service cannot reach its database right now. Retry after the seconds in Retry-After.', {
        headers: { 'Retry-After': '5' },
      }),
      headers,
    );
  }
  console.error(`[${requestId}] unexpected failure`, error);
  return problemResponse(new ApiError('internal', `An unexpected error occurred. Quote request id ${requestId} when you report it.`), headers);
}
