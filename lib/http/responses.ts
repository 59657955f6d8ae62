// Owns the wire format of every API response: the JSON envelope, its validator (ETag) and RFC 9457
// problem documents.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { appUrl } from '../app-url';
import type { CachedAnswer } from '../cache/response-cache';
import { jsonBytes } from './json-bytes';
import { ERROR_CODE_NAMES, ERROR_CODES, type ApiError } from './errors';

/**
 * API responses carry data for one organisation: never kept by shared caches, nor written to a
 * browser's disk. A client that keeps an answer itself can still revalidate it: successes carry a
 * strong ETag and `If-None-Match` is answered 304 when the body would be identical.
 */
export const API_HEADERS = { 'Cache-Control': 'private, no-store' } as const;

/**
 * Answers below this size are sent uncompressed. The server (scripts/server.mjs) compresses every
 * response it may, whatever its size (a route's body is a stream, so the middleware's own 1 KiB
 * threshold never applies, and a route may not set its own Content-Encoding), but it leaves alone a
 * response marked `no-transform`. Under 1 KiB compression saves at most a few hundred bytes, less than
 * a packet, for the fixed cost of a compression stream.
 */
export const COMPRESSED_FROM_BYTES = 1024;

/** The API's headers for a body of `bytes`: `no-transform` keeps a small one from being compressed. */
export function apiHeaders(bytes: number): Record<string, string> {
  return bytes < COMPRESSED_FROM_BYTES ? { 'Cache-Control': `${API_HEADERS['Cache-Control']}, no-transform` } : API_HEADERS;
}

export function errorsDocUrl(): string {
  return `${appUrl()}/docs/errors`;
}

/** The RFC 9457 problem document as the spec shapes it; the OpenAPI document and the tests use it. */
export const problemSchema = z
  .object({
    type: z.url().describe('`<errors doc url>#<code>`: the human-readable explanation of the code.'),
    title: z.string().describe('The fixed title of the code.'),
    status: z.int().describe('The HTTP status, repeated.'),
    detail: z.string().describe('What went wrong with this request.'),
    code: z.enum(ERROR_CODE_NAMES as [string, ...string[]]).describe('The machine-readable error code.'),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }).strict())
      .optional()
      .describe('With `validation_failed`: every problem with the query, one per parameter.'),
  })
  .strict();

export function problemBody(error: ApiError) {
  const { status, title } = ERROR_CODES[error.code];
  return {
    type: `${errorsDocUrl()}#${error.code}`,
    title,
    status,
    detail: error.message,
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
  };
}

export function problemResponse(error: ApiError, headers: Record<string, string> = {}): Response {
  const bytes = jsonBytes(problemBody(error));
  return new Response(bytes, {
    status: error.status,
    headers: { ...apiHeaders(bytes.length), ...headers, ...error.headers, 'Content-Type': 'application/problem+json' },
  });
}

/**
 * The JSON bytes of a success and their strong ETag (the SHA-256 of exactly those bytes: equal tags
 * mean byte-identical bodies). A body is sent as bytes: a string body makes the Response check every
 * character for lone surrogates first (1.5 ms for a list of 500 ads).
 */
export function jsonAnswer(body: unknown): CachedAnswer {
  const bytes = jsonBytes(body);
  return { body: bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url')}"` };
}

/**
 * RFC 9110 §13.1.2: If-None-Match matches when it is `*` (a representation exists) or when one of its
 * entity tags equals ours by weak comparison (the opaque tags are equal, `W/` prefixes ignored).
 */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const match of header.matchAll(/(?:W\/)?("[^"]*")/g)) {
    if (match[1] === opaque) return true;
  }
  return false;
}

/**
 * The bytes as a body, as they are. A Response built from a Buffer copies it first (undici guards the
 * view against later writes): for a list of 500 ads that is 0.3 ms and half a megabyte of garbage per
 * answer, which set off most garbage collections on the warm path; a stream of that one chunk is not
 * copied. Nothing writes to these bytes: a cached answer's are shared by every request that sends them.
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
