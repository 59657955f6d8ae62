// The REST door's successes: the JSON envelope with its strong ETag, and 304 when the client's copy is
// current. Problem documents are shared by both doors (lib/operations/problems.ts).
import type { CachedAnswer } from '../cache/response-cache';
import { API_HEADERS, apiHeaders, ifNoneMatchHits } from '../http/headers';
import { jsonBytes } from '../http/json-bytes';

/**
 * The bytes as a body, as they are. A Response built from a Buffer copies it first (undici guards the
 * view against later writes): for a long list that garbage set off most garbage collections on the
 * warm path (docs/performance/round-02-web-layer-web-dimension-org-rollups.md#the-web-layer); a stream
 * of that one chunk is not copied. Nothing writes to these bytes: a cached answer's are shared by every request that sends them.
 */
function bodyOf(bytes: Buffer<ArrayBuffer>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** JSON bytes as a 200, with the API's headers. */
function jsonBytesResponse(bytes: Buffer<ArrayBuffer>, headers: Record<string, string>): Response {
  return new Response(bodyOf(bytes), {
    status: 200,
    headers: { ...apiHeaders(bytes.length), ...headers, 'Content-Type': 'application/json' },
  });
}

/** A JSON success without a validator (the OpenAPI document). */
export function jsonResponse(body: unknown, headers: Record<string, string> = {}): Response {
  return jsonBytesResponse(jsonBytes(body), headers);
}

/**
 * An operation's JSON success with its ETag; `304 Not Modified` with the same validator and headers,
 * and no body, when the request's `If-None-Match` names that ETag (so only when the body would be
 * byte-identical).
 */
export function answerResponse(answer: CachedAnswer, request: Request, headers: Record<string, string> = {}): Response {
  const validated = { ...headers, ETag: answer.etag };
  if (ifNoneMatchHits(request.headers.get('if-none-match'), answer.etag)) {
    return new Response(null, { status: 304, headers: { ...API_HEADERS, ...validated } });
  }
  return jsonBytesResponse(answer.body, validated);
}
