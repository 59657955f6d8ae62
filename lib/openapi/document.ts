// The OpenAPI 3.1.0 document, generated from the operations (the same zod schemas that parse queries
// and shape responses) and from the error-code registry. Nothing in it is written by hand twice. Its
// examples (a request and a trimmed answer per operation, a problem per error code) come from
// ./examples.ts and link to APP_URL, so the document is built when the server runs, not at build time.
import { z } from 'zod';
import { appUrl } from '../app-url';
import { KEY_PREFIX } from '../key-format';
import { DATA_USE_RULE } from '../contract/data-use';
import { SCOPES } from '../contract/scopes';
import { envelopeSchema } from '../contract/envelope';
import { ERROR_CODES, type ErrorCode } from '../contract/errors';
import type { Operation } from '../contract/operation';
import { QUERY_RULES } from '../contract/query';
import { problemSchema } from '../operations/problems';
import { allOperations } from '../operations/registry';
import { RATE_LIMIT } from '../contract/limits';
import { RATE_LIMIT_POLICY_NAMES } from '../ratelimit/limiter';
import { curlSample, errorExample, noParametersExample, parameterExample, responseExample } from './examples';

/** Every /api/v1 request counts in the data window (the MCP protocol window is not in this document). */
const RATE_LIMIT_POLICY_NAME = RATE_LIMIT_POLICY_NAMES.data;

export type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, { get: Record<string, unknown> }>;
  components: Record<string, Record<string, unknown>>;
};

export const API_VERSION = '1.0.0';
const TITLE = 'Metrics API';

/** The error responses every authenticated operation can give, in status order. */
const ERROR_RESPONSES: ErrorCode[] = ['validation_failed', 'unauthorized', 'forbidden', 'not_found', 'rate_limited', 'internal', 'unavailable'];

const DESCRIPTION = `Read-only access to the ads, organic social, website-analytics, search-console and store data that the
dashboard has already synced for one organisation. Nothing here calls a source platform: \`meta.syncedAt\`
states how fresh the data is.

## Use of the data
${DATA_USE_RULE}

## Authentication
**Getting a key:** an admin of your organisation creates one in the dashboard, under
[Settings → API keys](/settings/api-keys), choosing its scopes and, if wanted, the clients it may read. The key
is shown once, when it is created.

Send the API key as \`Authorization: Bearer <key>\` on every request. A key is \`${KEY_PREFIX}\` followed by 43
letters, digits, \`-\` and \`_\` (32 random bytes, base64url). We store only a fingerprint of it (its SHA-256 hash),
never the key, so it cannot be shown again. A key found in the query
string, a cookie or the request body is refused with 401 even when a valid header is present too: treat such a
key as leaked and revoke it. The API takes no request body: a body that cannot be checked for a key (any body on
a GET, one over 64 KiB, or one not received within seconds) gets the same 401. Missing, malformed, unknown, revoked
and expired keys all get the same 401. When a key
was last used is recorded at most once a minute, outside the request's critical path.

Scopes (${SCOPES.map((s) => `\`${s}\``).join(', ')}) gate endpoints: a key without an operation's scope gets 403,
and the detail names the scope. The operation lists its scope in \`security\` (OpenAPI 3.1 role list) and in
\`x-required-scope\`. A key's optional client list gates rows. A client or entity outside the key's reach gets
the same 404 as one that does not exist. A key only ever reads its own organisation.

## Rate limit
${RATE_LIMIT.limit} requests per ${RATE_LIMIT.windowSeconds}-second fixed window per key, exact under concurrency.
Every response under /api/v1 (successes and errors) carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and
\`X-RateLimit-Reset\` (unix seconds at which the current window ends), and the same figures in the standard fields of
the IETF draft draft-ietf-httpapi-ratelimit-headers-10: \`RateLimit-Policy: "${RATE_LIMIT_POLICY_NAME}";q=${RATE_LIMIT.limit};w=${RATE_LIMIT.windowSeconds}\` (the policy) and
\`RateLimit: "${RATE_LIMIT_POLICY_NAME}";r=<remaining>;t=<seconds until the reset>\`; a 429 adds \`Retry-After\` in seconds.
Requests without a valid key are limited in the same way per client address, so keys cannot be guessed at speed.
The client address is the connection's address; only when the server runs with \`TRUST_PROXY=1\` (behind a proxy
that appends it to \`X-Forwarded-For\`) is it the last entry of that header, the one the proxy appended. An IPv6
client counts by its /64 network. \`/openapi.json\` and the health checks are not limited.
A key may also have only a few requests in progress at once (4 by default): one more gets 429 with \`Retry-After\`
at once. A server at its limit of requests in progress, or a query over its time limit, gets a transient 503.

## Queries
Parameters are validated strictly; a query that breaks any of these rules is refused with 400
\`validation_failed\`, and the 400 lists every problem in \`errors[]\`, one entry per parameter:
${QUERY_RULES.map((rule) => `- ${rule}`).join('\n')}

## Responses
Every JSON success is \`{ data, meta }\`. Every error is a problem document (\`application/problem+json\`, the standard format of RFC 9457) whose
\`type\` links to the explanation of its \`code\`. Responses are \`Cache-Control: private, no-store\`; answers of 1 KiB or
more are compressed for a client that accepts it (Brotli when it accepts Brotli, else gzip), smaller ones are sent as
they are and marked \`no-transform\`. JSON successes
carry a strong \`ETag\` (a hash of the body's bytes): send it back as \`If-None-Match\` and an unchanged answer is a
\`304 Not Modified\` without a body (it still counts against the rate limit). No CORS
headers are sent, on purpose: call the API from a server; an \`OPTIONS\` request with a valid key is a 204 with
\`Allow: GET, HEAD, OPTIONS\` and nothing else, and any other method is 405 with the same \`Allow\` (the API is
read-only). A path under /api/v1 that is no endpoint is a 404 problem. \`X-Request-Id\` identifies each request;
quote it when reporting a 500.`;

/**
 * Named sub-schemas (`.meta({ id })`) and recursive ones, which zod puts in `$defs`, are lifted into
 * `components.schemas`: in OpenAPI a `#/...` reference resolves against the whole document.
 */
const liftedSchemas: Record<string, JsonSchema> = {};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  const { $defs, ...rest } = JSON.parse(JSON.stringify(generated).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  // The dialect is the document's (OpenAPI 3.1 = JSON Schema 2020-12), not repeated per schema.
  delete rest.$schema;
  for (const [name, definition] of Object.entries($defs ?? {})) {
    const existing = liftedSchemas[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(definition)) {
      throw new Error(`Two different schemas are both named ${name}`);
    }
    liftedSchemas[name] = definition;
  }
  return rest;
}

function parameters(operation: Operation): JsonSchema[] {
  const schema = jsonSchema(operation.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: schema.required?.includes(name) ?? false,
      ...(description ? { description } : {}),
      schema: rest,
      example: parameterExample(name, rest),
    };
  });
}

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': headerRef('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': headerRef('X-RateLimit-Remaining'),
  'X-RateLimit-Reset': headerRef('X-RateLimit-Reset'),
  'RateLimit-Policy': headerRef('RateLimit-Policy'),
  RateLimit: headerRef('RateLimit'),
  'X-Request-Id': headerRef('X-Request-Id'),
};

/** Binary answers are conditional: a strong ETag, revalidated with If-None-Match (304). */
const ETAG_HEADER = { description: 'A strong validator of the bytes (quoted SHA-256).', schema: { type: 'string' } };
const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'ETags (or `*`) the caller already holds: a match answers 304 with no body.',
  schema: { type: 'string' },
  example: '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"',
};

function successResponse(operation: Operation): JsonSchema {
  if (operation.binary) {
    return {
      description: operation.binary.description,
      headers: {
        ...RATE_LIMIT_HEADERS,
        ETag: ETAG_HEADER,
        'Cache-Control': { description: 'Private caching only, for a limited time (see the description).', schema: { type: 'string' } },
        'X-Content-Type-Options': { description: 'Always `nosniff`.', schema: { type: 'string', const: 'nosniff' } },
      },
      content: Object.fromEntries(operation.binary.contentTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
    };
  }
  const schema = jsonSchema(envelopeSchema(operation.data), 'output');
  return {
    description: 'The `{ data, meta }` envelope.',
    headers: RATE_LIMIT_HEADERS,
    // Every `$ref` of the schema was lifted by jsonSchema() above, so the example can follow it.
    content: { 'application/json': { schema, example: responseExample(operation, schema, liftedSchemas) } },
  };
}

function pathItem(operation: Operation): JsonSchema {
  const scopeText = operation.scope ? `Requires the scope \`${operation.scope}\`.` : 'Any valid key may call it.';
  return {
    get: {
      operationId: operation.id,
      tags: [operation.tag],
      summary: operation.summary,
      description: `${operation.description}\n\n${scopeText}`,
      security: [{ bearerAuth: operation.scope ? [operation.scope] : [] }],
      'x-required-scope': operation.scope,
      // The example request; Scalar and Redoc show it beside the generated ones.
      'x-codeSamples': [curlSample(operation, `${appUrl()}/api/v1`)],
      parameters: operation.binary ? [...parameters(operation), IF_NONE_MATCH] : parameters(operation),
      responses: {
        '200': successResponse(operation),
        ...(operation.binary ? { '304': { description: 'Not modified: `If-None-Match` matched the current ETag.', headers: { ...RATE_LIMIT_HEADERS, ETag: ETAG_HEADER } } } : {}),
        ...Object.fromEntries(ERROR_RESPONSES.map((code) => [String(ERROR_CODES[code].status), { $ref: `#/components/responses/${code}` }])),
      },
    },
  };
}

function errorResponse(code: ErrorCode): JsonSchema {
  const extra: Record<string, JsonSchema> = {};
  if (code === 'rate_limited' || code === 'unavailable') extra['Retry-After'] = headerRef('Retry-After');
  if (code === 'unauthorized') extra['WWW-Authenticate'] = headerRef('WWW-Authenticate');
  return {
    description: `${ERROR_CODES[code].title}: ${ERROR_CODES[code].explanation}`,
    headers: { ...RATE_LIMIT_HEADERS, ...extra },
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' }, example: errorExample(code) } },
  };
}

const integerHeader = (description: string) => ({ description, required: true, schema: { type: 'integer', minimum: 0 } });

/** This document's own operation; its example is the document trimmed to its first operation. */
function openApiOperation(info: { title: string; version: string }, paths: OpenApiDocument['paths']): JsonSchema {
  const [path, item] = Object.entries(paths)[0]!;
  const example = { openapi: '3.1.0', info, paths: { [path]: { get: { operationId: item.get.operationId, summary: item.get.summary } } } };
  return {
    get: {
      operationId: 'getOpenApiDocument',
      tags: ['Account'],
      summary: 'This document',
      description:
        'The machine-readable description of the interface (OpenAPI 3.1.0). Needs no key and is not rate-limited, so it carries no rate-limit headers. It takes no parameters: any parameter is refused with 400, as everywhere.',
      security: [],
      'x-codeSamples': [{ lang: 'shell', label: 'curl', source: `curl "${appUrl()}/api/v1/openapi.json"` }],
      responses: {
        '200': {
          description: 'The OpenAPI document.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
                required: ['openapi', 'info', 'paths'],
              },
              example,
            },
          },
        },
        '400': {
          description: 'A query parameter was given; this document takes none.',
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' }, example: noParametersExample() } },
        },
      },
    },
  };
}

export function buildOpenApiDocument(): OpenApiDocument {
  const operations = allOperations();
  const paths: OpenApiDocument['paths'] = {};
  for (const operation of operations) {
    if (paths[operation.path]) throw new Error(`Two operations share the path ${operation.path}`);
    paths[operation.path] = pathItem(operation) as OpenApiDocument['paths'][string];
  }
  paths['/openapi.json'] = openApiOperation({ title: TITLE, version: API_VERSION }, paths) as OpenApiDocument['paths'][string];
  return {
    openapi: '3.1.0',
    info: {
      title: TITLE,
      version: API_VERSION,
      description: DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/api/v1', description: 'This server' }],
    tags: [
      { name: 'Account', description: 'The key itself and the clients it can read.' },
      { name: 'Ads', description: 'Ads platform: accounts, campaigns, ad sets, ads (IST days).' },
      { name: 'Social', description: 'Organic social: Facebook Pages and Instagram (IST days).' },
      { name: 'Website', description: 'Web analytics and search console (the source property’s own days).' },
      { name: 'Store', description: 'E-commerce store (the store’s own days).' },
    ],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: `${KEY_PREFIX} followed by 43 base64url characters`,
          description: `An API key in the \`Authorization\` header, created by an organisation admin under [Settings → API keys](/settings/api-keys). Scopes: ${SCOPES.join(', ')}; each operation names the one it needs.`,
        },
      },
      schemas: { Problem: jsonSchema(problemSchema, 'output'), ...liftedSchemas },
      headers: {
        'X-RateLimit-Limit': integerHeader(`Requests allowed per window (${RATE_LIMIT.limit}).`),
        'X-RateLimit-Remaining': integerHeader('Requests left in the current window.'),
        'X-RateLimit-Reset': integerHeader('Unix time in seconds at which the current window ends.'),
        'RateLimit-Policy': {
          description: `The rate-limit policy as draft-ietf-httpapi-ratelimit-headers-10 writes it: the policy \`"${RATE_LIMIT_POLICY_NAME}"\`, \`q\` requests per \`w\` seconds. The same on every answer.`,
          required: true,
          schema: { type: 'string' },
          example: `"${RATE_LIMIT_POLICY_NAME}";q=${RATE_LIMIT.limit};w=${RATE_LIMIT.windowSeconds}`,
        },
        RateLimit: {
          description: `What is left of the policy now (draft-ietf-httpapi-ratelimit-headers-10): \`r\` requests remaining, \`t\` seconds until the window resets.`,
          required: true,
          schema: { type: 'string' },
          example: `"${RATE_LIMIT_POLICY_NAME}";r=${RATE_LIMIT.limit - 1};t=${RATE_LIMIT.windowSeconds}`,
        },
        'Retry-After': integerHeader('Seconds to wait before retrying.'),
        'X-Request-Id': { description: 'Identifies the request; quote it when reporting a failure.', required: true, schema: { type: 'string' } },
        'WWW-Authenticate': { description: 'The Bearer challenge.', required: true, schema: { type: 'string' } },
      },
      responses: Object.fromEntries(ERROR_RESPONSES.map((code) => [code, errorResponse(code)])),
    },
  };
}
