import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRange, comparedRangeQuery, type CompareMode } from '@/lib/metrics/compare';
import { addDays, daysInclusive, isRealDay } from '@/lib/time/days';

const range = (from: string, to = from) => ({ from, to });

describe('compareRange', () => {
  it('previous: the same number of days ending the day before', () => {
    expect(compareRange(range('2026-03-01', '2026-03-31'), 'previous')).toEqual(range('2026-01-29', '2026-02-28'));
    expect(compareRange(range('2024-03-01'), 'previous')).toEqual(range('2024-02-29'));
  });

  it('none: no compare range', () => {
    expect(compareRange(range('2026-03-01', '2026-03-31'), 'none')).toBeNull();
  });

  it.each([
    // [from, to, compare from, compare to]
    ['2026-03-31', '2026-03-31', '2026-02-28', '2026-02-28'],
    ['2024-03-31', '2024-03-31', '2024-02-29', '2024-02-29'],
    ['2024-03-30', '2024-03-30', '2024-02-29', '2024-02-29'],
    ['2026-02-28', '2026-02-28', '2026-01-28', '2026-01-28'],
    ['2026-03-15', '2026-04-14', '2026-02-15', '2026-03-14'],
    ['2026-01-10', '2026-01-20', '2025-12-10', '2025-12-20'],
    ['2026-05-31', '2026-06-15', '2026-04-30', '2026-05-15'],
    // whole months map to the whole months one month earlier
    ['2026-03-01', '2026-03-31', '2026-02-01', '2026-02-28'],
    ['2026-02-01', '2026-02-28', '2026-01-01', '2026-01-31'],
    ['2024-02-01', '2024-02-29', '2024-01-01', '2024-01-31'],
    ['2024-03-01', '2024-03-31', '2024-02-01', '2024-02-29'],
    ['2026-01-01', '2026-01-31', '2025-12-01', '2025-12-31'],
    ['2026-01-01', '2026-03-31', '2025-12-01', '2026-02-28'],
    ['2026-04-01', '2026-04-30', '2026-03-01', '2026-03-31'],
  ])('prevMonth of %s…%s is %s…%s', (from, to, expectedFrom, expectedTo) => {
    expect(compareRange(range(from, to), 'prevMonth')).toEqual(range(expectedFrom, expectedTo));
  });

  it.each([
    ['2024-02-29', '2024-02-29', '2023-02-28', '2023-02-28'],
    ['2024-02-29', '2024-03-05', '2023-02-28', '2023-03-05'],
    ['2025-02-28', '2025-02-28', '2024-02-28', '2024-02-28'],
    ['2025-02-01', '2025-02-28', '2024-02-01', '2024-02-29'],
    ['2024-02-01', '2024-02-29', '2023-02-01', '2023-02-28'],
    ['2026-03-01', '2026-03-31', '2025-03-01', '2025-03-31'],
    ['2025-07-01', '2026-06-30', '2024-07-01', '2025-06-30'],
    ['2026-01-05', '2026-01-11', '2025-01-05', '2025-01-11'],
  ])('prevYear of %s…%s is %s…%s', (from, to, expectedFrom, expectedTo) => {
    expect(compareRange(range(from, to), 'prevYear')).toEqual(range(expectedFrom, expectedTo));
  });

  const day = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  const ranges = fc.tuple(day, fc.integer({ min: 0, max: 365 })).map(([from, extra]) => range(from, addDays(from, extra)));

  it.each<CompareMode>(['previous', 'prevMonth', 'prevYear'])('%s always gives real, ordered days that start before the range', (mode) => {
    fc.assert(
      fc.property(ranges, (requested) => {
        const compared = compareRange(requested, mode)!;
        expect(isRealDay(compared.from) && isRealDay(compared.to)).toBe(true);
        expect(compared.from <= compared.to).toBe(true);
        expect(compared.from < requested.from).toBe(true);
        // A calendar month or year earlier changes the length by at most the days months differ by.
        expect(Math.abs(daysInclusive(compared.from, compared.to) - daysInclusive(requested.from, requested.to))).toBeLessThanOrEqual(3);
      }),
    );
  });

  it('previous never overlaps the range and has its length', () => {
    fc.assert(
      fc.property(ranges, (requested) => {
        const compared = compareRange(requested, 'previous')!;
        expect(compared.to).toBe(addDays(requested.from, -1));
        expect(daysInclusive(compared.from, compared.to)).toBe(daysInclusive(requested.from, requested.to));
      }),
    );
  });
});

describe('comparedRangeQuery', () => {
  const base = { from: '2026-03-01', to: '2026-03-31' };

  it('defaults compare to previous, limit to 25 and granularity to day', () => {
    expect(comparedRangeQuery.parse(base)).toEqual({ ...base, compare: 'previous', limit: 25, granularity: 'day' });
  });

  it.each(['0', '101', '2.5', 'ten', ''])('refuses limit=%s', (limit) => {
    expect(comparedRangeQuery.safeParse({ ...base, limit }).success).toBe(false);
  });

  it.each(['1', '100'])('accepts limit=%s', (limit) => {
    expect(comparedRangeQuery.parse({ ...base, limit }).limit).toBe(Number(limit));
  });

  it('refuses an unknown compare mode', () => {
    expect(comparedRangeQuery.safeParse({ ...base, compare: 'lastYear' }).success).toBe(false);
  });
});
