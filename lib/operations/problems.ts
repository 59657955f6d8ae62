// RFC 9457 problem documents: the one shape of every refusal, for both doors (REST sends it as the
// body, MCP inside an `isError` result) and for the OpenAPI document.
import { z } from 'zod';
import { appUrl } from '../app-url';
import { ERROR_CODE_NAMES, ERROR_CODES, type ApiError } from '../contract/errors';
import { apiHeaders } from '../http/headers';
import { jsonBytes } from '../http/json-bytes';

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
