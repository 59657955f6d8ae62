// Property-based: random and hostile query strings thrown at every endpoint. Never a 500; every
// answer is either a success matching its OpenAPI schema or a problem document; a 400 lists every
// unknown and every repeated parameter by name.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Operation } from '@/lib/http/operation';
import { allOperations } from '@/lib/openapi/document';
import { api, mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import { clientsOf, RANGE, seededOrgs } from './platform-support';

const { main } = seededOrgs();
let key: string;
let clientId: string;

beforeAll(async () => {
  key = await mintKey({ orgId: main.id });
  clientId = (await clientsOf(main.id))[0]!.id;
});

const HOSTILE = [
  '',
  ' ',
  "' OR 1=1 --",
  '"; DROP TABLE api_keys; --',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '%00',
  '\u0000',
  '\uD800',
  '😀'.repeat(40),
  'x'.repeat(5000),
  '2026-02-30',
  '2025-13-01',
  '0000-00-00',
  '2026-1-1',
  '99999-01-01',
  '-1',
  '0',
  '1e3',
  '1.5',
  '9007199254740993',
  'NaN',
  'null',
  'undefined',
  '[]',
  '{}',
  'true',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '7d1f3c2e-0000-4000-8000-00000000000G',
];

type Property = { enum?: string[]; type?: string; format?: string; minimum?: number; maximum?: number };

function queryProperties(operation: Operation): Record<string, Property> {
  const schema = z.toJSONSchema(operation.query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, Property> };
  return schema.properties ?? {};
}

function valueFor(name: string, property: Property): fc.Arbitrary<string> {
  const plausible: fc.Arbitrary<string>[] = [];
  if (name === 'from' || name === 'to') plausible.push(fc.constant(RANGE[name]), fc.date({ min: new Date('2020-01-01'), max: new Date('2027-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
  if (name === 'client') plausible.push(fc.constant(clientId), fc.uuid());
  if (property.format === 'uuid') plausible.push(fc.uuid());
  if (property.enum) plausible.push(fc.constantFrom(...property.enum));
  if (property.type === 'integer') plausible.push(fc.integer({ min: (property.minimum ?? 0) - 5, max: (property.maximum ?? 1000) + 5 }).map(String));
  return fc.oneof(...plausible, fc.constantFrom(...HOSTILE), fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 30 }));
}

interface Case {
  entries: [string, string][];
  unknown: string[];
  repeated: string[];
}

function caseFor(operation: Operation): fc.Arbitrary<Case> {
  const properties = queryProperties(operation);
  const names = Object.keys(properties);
  const known = names.length
    ? fc.uniqueArray(fc.constantFrom(...names), { maxLength: names.length }).chain((chosen) =>
        fc.tuple(...chosen.map((name) => valueFor(name, properties[name]!).map((value) => [name, value] as [string, string]))),
      )
    : fc.constant([] as [string, string][]);
  const unknownName = fc
    .oneof(fc.constantFrom('form', 'api_key', 'client_id', '__proto__', 'constructor', 'a[]', 'x.y', '', ' '), fc.string({ minLength: 1, maxLength: 12 }))
    .filter((name) => !names.includes(name));
  return fc
    .record({
      known,
      unknown: fc.uniqueArray(unknownName, { maxLength: 3 }),
      repeat: names.length ? fc.uniqueArray(fc.constantFrom(...names), { maxLength: 2 }) : fc.constant([] as string[]),
    })
    .map(({ known: entries, unknown, repeat }) => {
      const all: [string, string][] = [...entries, ...unknown.map((name) => [name, 'v'] as [string, string])];
      // A repeated parameter: given twice, whatever the values.
      for (const name of repeat) all.push([name, 'again'], [name, 'and again']);
      const counts = new Map<string, number>();
      for (const [name] of all) counts.set(name, (counts.get(name) ?? 0) + 1);
      return { entries: all, unknown, repeated: [...counts].filter(([name, n]) => n > 1 && names.includes(name)).map(([name]) => name) };
    });
}

describe.each(allOperations().map((operation) => [operation.path, operation] as const))('%s under random queries', (_, operation) => {
  it('never fails with 500, answers the contract, and lists every bad parameter', async () => {
    await fc.assert(
      fc.asyncProperty(caseFor(operation), async ({ entries, unknown, repeated }) => {
        const query = new URLSearchParams(entries).toString();
        const response = await api(`/api/v1${operation.path}${query ? `?${query}` : ''}`, { key });
        expect(response.status, `${query} → ${response.status}`).not.toBe(500);
        expect(response.status).not.toBe(503);
        if (response.status === 200) {
          expect(unknown).toEqual([]);
          expect(repeated).toEqual([]);
          if (!operation.binary) await expectContract(operation, response);
          return;
        }
        const code = ({ 400: 'validation_failed', 404: 'not_found' } as const)[response.status as 400 | 404];
        expect(code, `unexpected status ${response.status} for ${query}`).toBeDefined();
        const body = await expectProblem(response, response.status, code);
        if (unknown.length || repeated.length) expect(response.status).toBe(400);
        if (response.status === 400) {
          const paths = body.errors!.map((error) => error.path);
          for (const name of [...unknown, ...repeated]) expect(paths, query).toContain(name);
          expect(new Set(paths).size).toBe(paths.length);
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
