// Contract assertions for responses: a success must match its operation's schema in the generated
// OpenAPI document (built in-process from lib/openapi, the same one /openapi.json serves), and an
// error must be exactly the spec's problem document.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { expect } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '@/lib/contract/errors';
import { COMPRESSED_FROM_BYTES } from '@/lib/http/headers';
import type { Operation } from '@/lib/contract/operation';
import { buildOpenApiDocument, type JsonSchema } from '@/lib/openapi/document';

let openApi: ReturnType<typeof buildOpenApiDocument> | undefined;
const validators = new Map<string, ValidateFunction>();

function document() {
  openApi ??= buildOpenApiDocument();
  return openApi;
}

function compile(key: string, schema: JsonSchema): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    // References to #/components/schemas/... resolve inside the compiled root, so carry the components.
    validate = ajv.compile({ ...schema, components: document().components });
    validators.set(key, validate);
  }
  return validate;
}

/** The JSON schema of a 200 response of an operation (by the operation or its operationId). */
export function responseSchema(operation: Operation | string): JsonSchema {
  const id = typeof operation === 'string' ? operation : operation.id;
  for (const item of Object.values(document().paths)) {
    if (item.get.operationId === id) {
      const ok = (item.get.responses as Record<string, { content?: Record<string, { schema: JsonSchema }> }>)['200'];
      const schema = ok?.content?.['application/json']?.schema;
      if (!schema) throw new Error(`Operation ${id} has no JSON success schema in the OpenAPI document`);
      return schema;
    }
  }
  throw new Error(`Operation ${id} is not in the OpenAPI document: add it to its surface's operations list`);
}

/** Never cached; under 1 KiB also never compressed (`no-transform`, see apiHeaders). */
function expectApiHeaders(response: Response, body: string): void {
  expect(response.headers.get('cache-control')).toBe(Buffer.byteLength(body) < COMPRESSED_FROM_BYTES ? 'private, no-store, no-transform' : 'private, no-store');
  const cors = [...response.headers.keys()].filter((name) => name.toLowerCase().startsWith('access-control-'));
  expect(cors).toEqual([]);
}

function explain(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('\n');
}

/**
 * Asserts a 200 JSON success that matches the operation's response schema in the OpenAPI document,
 * with the API headers and no CORS header. Returns the parsed body.
 */
export async function expectContract<T = { data: unknown; meta: Record<string, unknown> }>(
  operation: Operation | string,
  response: Response,
): Promise<T> {
  const text = await response.text();
  expect(response.status, `expected 200, got ${response.status}: ${text.slice(0, 500)}`).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  expectApiHeaders(response, text);
  const body = JSON.parse(text) as unknown;
  const id = typeof operation === 'string' ? operation : operation.id;
  const validate = compile(`op:${id}`, responseSchema(operation));
  const valid = validate(body);
  expect(valid, `response of ${id} does not match its OpenAPI schema:\n${explain(validate)}`).toBe(true);
  return body as T;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: { path: string; message: string }[];
}

/**
 * Asserts an RFC 9457 problem document with exactly the spec's keys, the status and title of `code`
 * from the registry and a `type` ending in `#<code>`, matching the Problem schema of the OpenAPI
 * document. Returns the parsed body.
 */
export async function expectProblem(response: Response, status: number, code: ErrorCode): Promise<ProblemBody> {
  const text = await response.text();
  expect(response.status, `expected ${status} ${code}, got ${response.status}: ${text.slice(0, 500)}`).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expectApiHeaders(response, text);
  const body = JSON.parse(text) as ProblemBody;
  const validate = compile('problem', document().components.schemas!.Problem as JsonSchema);
  expect(validate(body), `not a problem document:\n${explain(validate)}`).toBe(true);
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(ERROR_CODES[code].status).toBe(status);
  expect(body.title).toBe(ERROR_CODES[code].title);
  expect(body.type.endsWith(`/docs/errors#${code}`)).toBe(true);
  expect(body.detail.length).toBeGreaterThan(0);
  expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'status', 'title', 'type', ...(body.errors ? ['errors'] : [])].sort());
  if (code === 'validation_failed') expect(body.errors?.length ?? 0).toBeGreaterThan(0);
  return body;
}
