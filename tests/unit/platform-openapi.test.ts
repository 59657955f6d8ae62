// The generated OpenAPI document: valid for two independent validators, and complete.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { SCOPES } from '@/lib/auth/scopes';
import { ERROR_CODES } from '@/lib/http/errors';
import { allOperations, buildOpenApiDocument } from '@/lib/openapi/document';

const run = promisify(execFile);
const document = buildOpenApiDocument();

type OperationObject = {
  operationId: string;
  security: Record<string, string[]>[];
  'x-required-scope'?: string | null;
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: Record<string, unknown> }> }>;
};
const operationAt = (p: string) => (document.paths[p] as { get: OperationObject }).get;

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1.0 with interface version 1.0.0', () => {
    expect(document.openapi).toBe('3.1.0');
    expect((document.info as { version: string }).version).toBe('1.0.0');
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
});
