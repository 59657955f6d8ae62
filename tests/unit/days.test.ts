// Day arithmetic on epoch-day numbers: exact over every day of years 0000-9999, never an
// expanded-year string (`+010000-01-01`) or a loop without end, whatever the range (issue: one request
// for 9999-12-31 spun a loop over day strings for ever).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRange } from '@/lib/metrics/compare';
import { daysAsBlocks, splitRange } from '@/lib/metrics/range-split';
import { previousPeriod } from '@/lib/time/day-range';
import {
  addDays,
  dayFromNumber,
  dayNumber,
  daysInclusive,
  eachDay,
  isRealDay,
  type IsoDay,
} from '@/lib/time/days';

const DAY_MS = 86_400_000;
const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** Any instant of years 0000-9999, where Date's own ISO format is exactly `YYYY-MM-DD…` (the oracle). */
const anyDate = fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true });
const midnightOf = (date: Date) => new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);

describe('day numbers', () => {
  it('are days since 1970-01-01, at known days', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('1969-12-31')).toBe(-1);
    expect(dayNumber('2000-01-01')).toBe(10_957);
    expect(dayNumber('0001-01-01')).toBe(-719_162);
    expect(dayNumber('0000-01-01')).toBe(-719_528);
    expect(dayNumber('9999-12-31')).toBe(2_932_896);
    // Years 0-99 are years 0-99, not 1900-1999.
    expect(dayFromNumber(dayNumber('0050-06-15'))).toBe('0050-06-15');
  });

  it('agree with Date over every day of years 0000-9999, both ways', () => {
    fc.assert(
      fc.property(anyDate, (date) => {
        const midnight = midnightOf(date);
        const day = midnight.toISOString().slice(0, 10);
        expect(dayNumber(day)).toBe(midnight.getTime() / DAY_MS);
        expect(dayFromNumber(midnight.getTime() / DAY_MS)).toBe(day);
      }),
      { numRuns: 2000 },
    );
  });

  it('end at years 0000 and 9999: one day beyond is an error, never an expanded year', () => {
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
    expect(() => addDays('0000-01-01', -1)).toThrow(RangeError);
    expect(() => dayFromNumber(Number.NaN)).toThrow(RangeError);
    expect(() => dayFromNumber(1e12)).toThrow(RangeError);
    expect(() => dayFromNumber(0.5)).toThrow(RangeError);
    expect(() => dayNumber('+010000-01-01')).toThrow(RangeError);
    expect(() => dayNumber('2026-02-30')).toThrow(RangeError);
  });
});

describe('isRealDay', () => {
  it.each([
    ['2024-02-29', true],
    ['2000-02-29', true],
    ['2026-02-28', true],
    ['0000-02-29', true],
    ['9999-12-31', true],
    ['2026-02-29', false],
    ['1900-02-29', false],
    ['2100-02-29', false],
    ['2026-04-31', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-01-00', false],
    ['2026-1-1', false],
    ['+010000-01-01', false],
    ['-000001-12-31', false],
    ['2026-01-01T00:00:00Z', false],
    ['', false],
  ])('%s → %s', (day, real) => {
    expect(isRealDay(day)).toBe(real);
  });
});

describe('addDays, daysInclusive, eachDay, previousPeriod', () => {
  it('step over leap days and year ends', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-02-29', 1)).toBe('2024-03-01');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2000-02-28', 1)).toBe('2000-02-29');
    expect(addDays('2000-01-01', -1)).toBe('1999-12-31');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysInclusive('2024-01-01', '2024-12-31')).toBe(366);
    expect(daysInclusive('2026-03-01', '2026-02-28')).toBe(0);
    expect(eachDay('2024-02-27', '2024-03-01')).toEqual(['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']);
    expect(eachDay('2026-03-02', '2026-03-01')).toEqual([]);
    // 2000 is a leap year: its 366 days are preceded by 1999's 365 and 1998-12-31.
    expect(previousPeriod({ from: '2000-01-01', to: '2000-12-31' })).toEqual({ from: '1998-12-31', to: '1999-12-31' });
    expect(previousPeriod({ from: '2024-03-01', to: '2024-03-01' })).toEqual({ from: '2024-02-29', to: '2024-02-29' });
  });

  it('agree with Date for any day and offset', () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: -1000, max: 1000 }), (date, offset) => {
        const midnight = midnightOf(date);
        const moved = new Date(midnight.getTime() + offset * DAY_MS);
        fc.pre(moved.getUTCFullYear() >= 0 && moved.getUTCFullYear() <= 9999);
        const day = midnight.toISOString().slice(0, 10);
        expect(addDays(day, offset)).toBe(moved.toISOString().slice(0, 10));
        const [from, to] = offset >= 0 ? [day, addDays(day, offset)] : [addDays(day, offset), day];
        expect(daysInclusive(from, to)).toBe(Math.abs(offset) + 1);
      }),
      { numRuns: 2000 },
    );
  });
});

/** The window of the API (2000-01-01 to today in IST + 366 days), computed here from the clock. */
const windowLast = addDays(new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date()), 366);

describe('at the edges of the date window', () => {
  it('prevYear and prevMonth at its first day reach into 1999, exactly', () => {
    expect(compareRange({ from: '2000-01-01', to: '2000-01-31' }, 'prevMonth')).toEqual({ from: '1999-12-01', to: '1999-12-31' });
    expect(compareRange({ from: '2000-01-01', to: '2000-01-31' }, 'prevYear')).toEqual({ from: '1999-01-01', to: '1999-01-31' });
    expect(compareRange({ from: '2000-02-29', to: '2000-03-01' }, 'prevYear')).toEqual({ from: '1999-02-28', to: '1999-03-01' });
    expect(compareRange({ from: '2000-01-01', to: '2000-01-31' }, 'previous')).toEqual({ from: '1999-12-01', to: '1999-12-31' });
  });

  it('prevYear of years 1 to 99 stays in that century (not 1900-1999)', () => {
    expect(compareRange({ from: '0050-03-01', to: '0050-03-31' }, 'prevYear')).toEqual({ from: '0049-03-01', to: '0049-03-31' });
    expect(compareRange({ from: '0001-01-15', to: '0001-02-15' }, 'prevMonth')).toEqual({ from: '0000-12-15', to: '0001-01-15' });
    expect(compareRange({ from: '0004-02-29', to: '0004-02-29' }, 'prevYear')).toEqual({ from: '0003-02-28', to: '0003-02-28' });
  });

  it('split the first and the last year of the window', () => {
    expect(splitRange({ from: '2000-01-01', to: '2000-12-31' })).toEqual({
      headDays: null,
      headBlocks: null,
      months: { from: '2000-01-01', to: '2000-12-01' },
      tailBlocks: null,
      tailDays: null,
    });
    const from = addDays(windowLast, -365);
    const split = splitRange({ from, to: windowLast });
    const parts = [split.headDays, split.headBlocks, split.months, split.tailBlocks, split.tailDays].filter((part) => part !== null);
    expect(parts[0]!.from).toBe(from);
    expect(daysAsBlocks({ from: windowLast, to: windowLast })).toEqual([{ unit: 'days', range: { from: windowLast, to: windowLast }, sign: 1 }]);
  });

  it('ranges ending on 9999-12-31 are refused with an error instead of looping', () => {
    expect(() => daysAsBlocks({ from: '9999-12-21', to: '9999-12-31' })).toThrow(RangeError);
    expect(() => splitRange({ from: '9999-12-21', to: '9999-12-31' })).toThrow(RangeError);
    expect(() => splitRange({ from: '9999-12-31', to: '9999-12-31' })).toThrow(RangeError);
  });
});

/** Every day a result of the range functions names: strings of a list, `from` and `to` of nested ranges. */
function daysIn(result: unknown): IsoDay[] {
  if (typeof result === 'string') return [result];
  if (Array.isArray(result)) return result.flatMap(daysIn);
  if (result && typeof result === 'object') {
    return Object.entries(result).flatMap(([name, value]) => (typeof value === 'string' && name !== 'from' && name !== 'to' ? [] : daysIn(value)));
  }
  return [];
}

type RangeFunction = (range: { from: IsoDay; to: IsoDay }) => unknown;
const everyRangeFunction: [string, RangeFunction][] = [
  ['splitRange', splitRange],
  ['daysAsBlocks', daysAsBlocks],
  ['eachDay', ({ from, to }) => eachDay(from, to)],
  ['previousPeriod', previousPeriod],
  ...(['previous', 'prevMonth', 'prevYear'] as const).map((mode): [string, RangeFunction] => [`compareRange ${mode}`, (range) => compareRange(range, mode)]),
];

describe('no range function loops for ever or names anything but a real YYYY-MM-DD day', () => {
  const dayOfDate = (date: Date) => midnightOf(date).toISOString().slice(0, 10);
  const anyRange = fc.tuple(anyDate, fc.integer({ min: 0, max: 400 })).map(([date, extra]) => {
    const from = dayOfDate(date);
    return { from, to: dayOfDate(new Date(Math.min(midnightOf(date).getTime() + extra * DAY_MS, Date.parse('9999-12-31')))) };
  });
  const windowRange = fc
    .tuple(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date(`${windowLast}T00:00:00Z`), noInvalidDate: true }), fc.integer({ min: 0, max: 365 }))
    .map(([date, extra]) => {
      const from = dayOfDate(date);
      const to = addDays(from, extra);
      return { from, to: to > windowLast ? windowLast : to };
    });

  it.each(everyRangeFunction)('%s: real days or a RangeError, for any range of years 0000-9999', (_, fn) => {
    fc.assert(
      fc.property(anyRange, (range) => {
        let result: unknown;
        try {
          result = fn(range);
        } catch (error) {
          expect(error).toBeInstanceOf(RangeError);
          return;
        }
        for (const day of daysIn(result)) expect(DAY_SHAPE.test(day) && isRealDay(day), day).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it.each(everyRangeFunction)('%s: real days, never an error, for any range inside the window', (_, fn) => {
    fc.assert(
      fc.property(windowRange, (range) => {
        for (const day of daysIn(fn(range))) expect(DAY_SHAPE.test(day) && isRealDay(day), day).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('daysAsBlocks: at most three stretches per ten-day block the range touches', () => {
    fc.assert(
      fc.property(windowRange, (range) => {
        // Blocks are 8 to 11 days long.
        const blocks = Math.ceil(daysInclusive(range.from, range.to) / 8) + 1;
        expect(daysAsBlocks(range).length).toBeLessThanOrEqual(3 * blocks);
      }),
    );
  });
});
