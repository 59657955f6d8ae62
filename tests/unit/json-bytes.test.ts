// jsonBytes must be Buffer.from(JSON.stringify(value)) byte for byte: an answer's ETag is the hash of
// these bytes, and a client compares them with what any JSON.stringify would write.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytes } from '@/lib/http/json-bytes';

const expected = (value: unknown) => Buffer.from(JSON.stringify(value));

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe('jsonBytes', () => {
  it('writes what JSON.stringify writes, for the values it treats specially', () => {
    const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [1, 2] });
    const values: unknown[] = [
      null,
      0,
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1e21,
      1e-7,
      'text with "quotes", \\ and \n',
      'é, ✓, 😀 and a lone surrogate \ud800',
      true,
      [],
      {},
      { omitted: undefined, fn: () => 1, symbol: Symbol('s') },
      { kept: 1, omitted: undefined },
      { date: new Date(Date.UTC(2026, 5, 30)), withToJSON: { toJSON: () => 'replaced', other: 1 } },
      { longListWithToJSON: Object.assign(Array.from({ length: 40 }, (_, i) => i), { toJSON: () => 'the list, replaced' }) },
      { point: new Point(1, 2), nullPrototype },
      { 2: 'integer keys first', b: 1, 1: 'then', a: 2 },
      // Long arrays, split into pieces: at, around and across the piece size, with what an array writes as null.
      { list: Array.from({ length: 16 }, (_, i) => i), longer: Array.from({ length: 17 }, (_, i) => ({ i })) },
      Array.from({ length: 100 }, (_, i) => (i % 7 === 0 ? undefined : i % 11 === 0 ? () => i : { id: `id-${i}`, name: `é${i}`, nested: [i, { deep: Array(40).fill(i) }] })),
      [1, , 3, ...Array(30).fill('x')],
      Array.from({ length: 33 }, () => []),
      { data: { rows: Array.from({ length: 50 }, (_, i) => ({ day: `2026-01-${i}`, spend: i / 3 })) }, meta: { truncated: false } },
    ];
    for (const value of values) {
      expect(jsonBytes(value).equals(expected(value)), JSON.stringify(value)?.slice(0, 80)).toBe(true);
    }
  });

  it('writes what JSON.stringify writes, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 80, size: 'max' }), (value, list) => {
        expect(jsonBytes(value).equals(expected(value))).toBe(true);
        expect(jsonBytes({ list, value }).equals(expected({ list, value }))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('gives each answer bytes of its own, whatever the room it encodes into held before (kept between calls up to 2 MiB, or its own past that)', () => {
    const large = { rows: Array.from({ length: 500 }, (_, i) => ({ id: i, name: `Carousel – New Arrivals v${i}`, emoji: '😀' })) };
    const small = { rows: [{ id: 1, name: 'ascii' }] };
    const huge = { rows: Array.from({ length: 4_000 }, (_, i) => ({ id: i, text: '✓'.repeat(200) })) };
    const answers = [large, small, huge, large, small].map((value) => ({ value, bytes: jsonBytes(value) }));
    // Checked after every call has run: a later call writing into the kept room changes no earlier answer.
    for (const { value, bytes } of answers) expect(bytes.equals(expected(value))).toBe(true);
    expect(answers[2]!.bytes.length).toBeGreaterThan((2 * 1024 * 1024) / 3);
  });

  it('throws where JSON.stringify throws', () => {
    expect(() => jsonBytes({ list: Array.from({ length: 20 }, () => 1n) })).toThrow(TypeError);
    // A value inside itself: through a plain object, a long array, and an item of a long array.
    const loop: Record<string, unknown> = { a: 1 };
    loop.inner = { back: loop };
    const list: unknown[] = Array.from({ length: 20 }, (_, i) => i);
    list.push({ list });
    const itemLoop: Record<string, unknown> = {};
    itemLoop.items = Array.from({ length: 20 }, () => ({ owner: itemLoop }));
    for (const cyclic of [loop, { list }, itemLoop]) {
      expect(() => JSON.stringify(cyclic)).toThrow(TypeError);
      expect(() => jsonBytes(cyclic)).toThrow(TypeError);
    }
    // The same object twice, side by side, is no cycle.
    const shared = { x: 1 };
    expect(jsonBytes({ a: shared, b: shared, c: Array.from({ length: 20 }, () => shared) }).toString()).toBe(
      JSON.stringify({ a: shared, b: shared, c: Array.from({ length: 20 }, () => shared) }),
    );
  });
});
