// The REST door: turns an operation into a Next.js route handler. The credential comes from proxy.ts's
// signed hand-off (or is verified here when the proxy was skipped); the shared step (invoke.ts) does
// the rest; the envelope becomes JSON with its ETag (or a 304) and every failure a problem document.
// Route files stay one line.
import { randomUUID } from 'node:crypto';
import { authenticate } from '../auth/authenticate';
import { AUTH_HANDOFF_HEADER, openAuthContext } from '../auth/handoff';
import { UUID_PATTERN } from '../text/uuid';
import { toApiError } from './errors';
import { invokeJson } from './invoke';
import type { Operation } from './operation';
import { answerResponse, problemResponse } from './responses';

export const REQUEST_ID_HEADER = 'x-request-id';

export function restRoute(operation: Operation): (request: Request) => Promise<Response> {
  return async (request) => {
    // proxy.ts always sets a UUID; anything else came from a caller and is not written to our logs.
    const incomingId = request.headers.get(REQUEST_ID_HEADER);
    const requestId = incomingId && UUID_PATTERN.test(incomingId) ? incomingId : randomUUID();
    const headers = { 'X-Request-Id': requestId };
    try {
      const auth = openAuthContext(request.headers.get(AUTH_HANDOFF_HEADER)) ?? (await authenticate(request));
      const result = await invokeJson(operation, auth, { kind: 'query', params: new URL(request.url).searchParams }, request);
      if (result instanceof Response) {
        result.headers.set('X-Request-Id', requestId);
        return result;
      }
      return answerResponse(result, request, headers);
    } catch (error) {
      return errorResponse(error, requestId, headers);
    }
  };
}

/** Maps anything thrown to a problem document; unexpected failures disclose nothing but the request id. */
export function errorResponse(error: unknown, requestId: string, headers: Record<string, string> = {}): Response {
  return problemResponse(toApiError(error, requestId), headers);
}
