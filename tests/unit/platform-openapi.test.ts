// The generated OpenAPI document: valid for two independent validators, and complete.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { DATA_USE_RULE } from '@/lib/contract/data-use';
import { SCOPES } from '@/lib/contract/scopes';
import { ERROR_CODES, type ErrorCode } from '@/lib/contract/errors';
import { parseQuery } from '@/lib/contract/query';
import { errorsDocUrl } from '@/lib/operations/problems';
import { buildOpenApiDocument, type JsonSchema } from '@/lib/openapi/document';
import { allOperations } from '@/lib/operations/registry';

const run = promisify(execFile);
const document = buildOpenApiDocument();

type OperationObject = {
  operationId: string;
  security: Record<string, string[]>[];
  'x-required-scope'?: string | null;
  'x-codeSamples'?: { lang: string; label: string; source: string }[];
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown>; example?: unknown }[];
  responses: Record<
    string,
    { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: Record<string, unknown>; example?: unknown }> }
  >;
};
const operationAt = (p: string) => (document.paths[p] as { get: OperationObject }).get;

/** Validates a value against a schema of the document, as tests/support/contract.ts does for real answers. */
function validate(schema: JsonSchema, value: unknown): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  // References to #/components/schemas/... resolve inside the compiled root, so carry the components.
  const check = ajv.compile({ ...schema, components: document.components });
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}

/** The URL of an operation's curl example. */
function sampleUrl(path: string): URL {
  const source = operationAt(path)['x-codeSamples']?.[0]?.source ?? '';
  const url = /"(https?:\/\/[^"]+)"/.exec(source)?.[1];
  if (!url) throw new Error(`No URL in the curl example of ${path}: ${source}`);
  return new URL(url);
}

/** The longest list anywhere in a value. */
function longestList(value: unknown): number {
  if (Array.isArray(value)) return Math.max(value.length, ...value.map(longestList));
  if (value && typeof value === 'object') return Math.max(0, ...Object.values(value).map(longestList));
  return 0;
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1.0 with interface version 1.0.0', () => {
    expect(document.openapi).toBe('3.1.0');
    expect((document.info as { version: string }).version).toBe('1.0.0');
  });

  it('states the data-use rule in its description, which /docs/api renders', () => {
    const description = (document.info as { description: string }).description;
    expect(description).toContain(`\n## Use of the data\n${DATA_USE_RULE}\n`);
    // The rule in our words still says all four things the contract requires.
    for (const part of ['only on behalf of the business that connected the account', 'only for that business', 'Never sell or license it', 'never combine it across businesses', 'profiles of individual people']) {
      expect(DATA_USE_RULE).toContain(part);
    }
  });

  it('passes @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('passes `redocly lint` with no errors or warnings', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'openapi-'));
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const { stdout, stderr } = await run('npx', ['redocly', 'lint', file, '--format', 'json'], { maxBuffer: 10 << 20 }).catch(
      (error: { stdout: string; stderr: string }) => error,
    );
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    expect(report.problems, stderr).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('lists every operation with its scope, parameters and every error response', () => {
    const operations = allOperations();
    expect(operations.map((o) => o.path)).toEqual(expect.arrayContaining(['/me', '/clients']));
    for (const operation of operations) {
      const op = operationAt(operation.path);
      expect(op.operationId).toBe(operation.id);
      expect(op.security).toEqual([{ bearerAuth: operation.scope ? [operation.scope] : [] }]);
      expect(op['x-required-scope']).toBe(operation.scope);
      if (operation.scope) expect(SCOPES).toContain(operation.scope);
      const statuses = Object.values(ERROR_CODES).map((e) => String(e.status));
      const conditional = operation.binary ? ['304'] : [];
      expect(Object.keys(op.responses).sort()).toEqual(['200', ...conditional, ...statuses].sort());
      for (const status of statuses) {
        expect(op.responses[status]!.$ref).toMatch(/^#\/components\/responses\//);
      }
      expect(op.responses['200']!.headers).toHaveProperty('X-RateLimit-Limit');
      expect(op.responses['200']!.headers).toHaveProperty('X-RateLimit-Remaining');
      expect(op.responses['200']!.headers).toHaveProperty('X-RateLimit-Reset');
      const names = [...Object.keys(operation.query.shape), ...(operation.binary ? ['If-None-Match'] : [])].sort();
      expect((op.parameters ?? []).map((p) => p.name).sort()).toEqual(names);
      if (operation.binary) {
        expect(op.responses['200']!.headers).toHaveProperty('ETag');
        expect(op.responses['304']!.headers).toHaveProperty('ETag');
      }
    }
  });

  it('describes every error response with the problem schema and the rate-limit headers', () => {
    const responses = document.components.responses as Record<string, { headers: Record<string, unknown>; content: Record<string, { schema: unknown }> }>;
    for (const code of Object.keys(ERROR_CODES)) {
      const response = responses[code]!;
      expect(response.content['application/problem+json']!.schema).toEqual({ $ref: '#/components/schemas/Problem' });
      expect(Object.keys(response.headers)).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
    }
    expect(Object.keys(responses.rate_limited!.headers)).toContain('Retry-After');
    expect(Object.keys(responses.unavailable!.headers)).toContain('Retry-After');
    expect(Object.keys(responses.unauthorized!.headers)).toContain('WWW-Authenticate');
  });

  it('closes every object of the account responses to extra keys', () => {
    const closed = (schema: unknown): void => {
      if (!schema || typeof schema !== 'object') return;
      const s = schema as Record<string, unknown>;
      if (s.type === 'object' && s.properties) expect(s.additionalProperties).toBe(false);
      for (const value of Object.values(s)) {
        if (Array.isArray(value)) value.forEach(closed);
        else closed(value);
      }
    };
    for (const p of ['/me', '/clients']) closed(operationAt(p).responses['200']!.content!['application/json']!.schema);
  });

  describe('examples', () => {
    it('gives every parameter an example that its schema accepts', () => {
      for (const [path, item] of Object.entries(document.paths)) {
        for (const parameter of (item.get as OperationObject).parameters ?? []) {
          expect(parameter, `${path} ${parameter.name}`).toHaveProperty('example');
          expect(validate(parameter.schema, parameter.example), `${path} ${parameter.name}`).toEqual([]);
        }
      }
    });

    it('gives every operation a curl request that the operation itself accepts', () => {
      for (const operation of allOperations()) {
        const samples = operationAt(operation.path)['x-codeSamples'] ?? [];
        expect(samples.map((s) => s.label), operation.id).toEqual(['curl']);
        expect(samples[0]!.source).toContain('-H "Authorization: Bearer $METRICS_API_KEY"');
        const url = sampleUrl(operation.path);
        expect(url.pathname, operation.id).toBe(`/api/v1${operation.path}`);
        expect(url.origin).toBe(new URL(errorsDocUrl()).origin);
        // Parses exactly as the endpoint parses its query: the example is a request that is answered.
        expect(() => parseQuery(url.searchParams, operation.query), `${operation.id}: ${url}`).not.toThrow();
      }
      expect(operationAt('/openapi.json')['x-codeSamples']![0]!.source).toMatch(/^curl "https?:\/\/[^"]+\/api\/v1\/openapi\.json"$/);
    });

    it('gives every JSON answer a trimmed { data, meta } example valid against its response schema', () => {
      for (const operation of allOperations()) {
        const content = operationAt(operation.path).responses['200']!.content!;
        if (operation.binary) {
          expect(Object.keys(content).sort(), operation.id).toEqual([...operation.binary.contentTypes].sort());
          continue;
        }
        const { schema, example } = content['application/json']!;
        expect(example, operation.id).toMatchObject({ data: expect.anything(), meta: { timezone: 'Asia/Kolkata' } });
        expect(validate(schema, example), operation.id).toEqual([]);
        // Trimmed: no list holds more than one item.
        expect(longestList(example), operation.id).toBeLessThanOrEqual(1);
        // The answer is the answer to the example request: its range is the request's.
        const request = sampleUrl(operation.path);
        const meta = (example as { meta: Record<string, unknown> }).meta;
        if ('from' in operation.query.shape) {
          expect(meta.from, operation.id).toBe(request.searchParams.get('from'));
          expect(meta.to, operation.id).toBe(request.searchParams.get('to'));
        } else {
          expect(meta, operation.id).not.toHaveProperty('from');
        }
      }
      const own = operationAt('/openapi.json').responses['200']!.content!['application/json']!;
      expect(validate(own.schema, own.example)).toEqual([]);
    });

    it('gives every error response a problem example whose type links to its section of the errors page', () => {
      const responses = document.components.responses as Record<string, { content: Record<string, { example?: unknown }> }>;
      const problem = document.components.schemas!.Problem as JsonSchema;
      const examples: [string, unknown][] = [
        ...Object.keys(ERROR_CODES).map((code) => [code, responses[code]!.content['application/problem+json']!.example] as [string, unknown]),
        ['validation_failed', operationAt('/openapi.json').responses['400']!.content!['application/problem+json']!.example],
      ];
      for (const [code, example] of examples) {
        expect(validate(problem, example), code).toEqual([]);
        expect(example, code).toMatchObject({
          type: `${errorsDocUrl()}#${code}`,
          code,
          status: ERROR_CODES[code as ErrorCode].status,
          title: ERROR_CODES[code as ErrorCode].title,
        });
      }
    });
  });
});
