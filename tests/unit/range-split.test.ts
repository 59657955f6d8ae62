import { describe, expect, it } from 'vitest';
import { daysAsBlocks, daysAsPeakStretches, monthsAsPeakStretches, monthsAsQuarters, splitRange, type PeakStretch } from '@/lib/metrics/range-split';
import { addDays, eachDay } from '@/lib/time/days';

describe('splitRange (whole months and ten-day blocks from the rollups, the other days from the daily tables)', () => {
  const none = { headDays: null, headBlocks: null, months: null, tailBlocks: null, tailDays: null };

  it('cuts a range into head days, head blocks, whole months, tail blocks and tail days', () => {
    expect(splitRange({ from: '2025-11-08', to: '2026-11-24' })).toEqual({
      headDays: { from: '2025-11-08', to: '2025-11-10' },
      headBlocks: { from: '2025-11-11', to: '2025-11-21' },
      months: { from: '2025-12-01', to: '2026-10-01' },
      tailBlocks: { from: '2026-11-01', to: '2026-11-11' },
      tailDays: { from: '2026-11-21', to: '2026-11-24' },
    });
  });

  it('whole months only, across a leap February and a year end', () => {
    expect(splitRange({ from: '2023-12-01', to: '2024-02-29' })).toEqual({ ...none, months: { from: '2023-12-01', to: '2024-02-01' } });
    expect(splitRange({ from: '2024-02-01', to: '2024-02-29' })).toEqual({ ...none, months: { from: '2024-02-01', to: '2024-02-01' } });
  });

  it('no whole month: whole blocks between the days before and after them', () => {
    expect(splitRange({ from: '2026-03-02', to: '2026-03-31' })).toEqual({
      ...none,
      headDays: { from: '2026-03-02', to: '2026-03-10' },
      headBlocks: { from: '2026-03-11', to: '2026-03-21' },
    });
    expect(splitRange({ from: '2026-01-15', to: '2026-02-27' })).toEqual({
      ...none,
      headDays: { from: '2026-01-15', to: '2026-01-20' },
      headBlocks: { from: '2026-01-21', to: '2026-02-11' },
      tailDays: { from: '2026-02-21', to: '2026-02-27' },
    });
  });

  it('the last block of a month runs to its end (28 to 31 days long months)', () => {
    expect(splitRange({ from: '2026-02-21', to: '2026-02-28' })).toEqual({ ...none, headBlocks: { from: '2026-02-21', to: '2026-02-21' } });
    expect(splitRange({ from: '2024-02-21', to: '2024-02-28' })).toEqual({ ...none, headDays: { from: '2024-02-21', to: '2024-02-28' } });
    expect(splitRange({ from: '2026-01-21', to: '2026-01-30' })).toEqual({ ...none, headDays: { from: '2026-01-21', to: '2026-01-30' } });
  });

  it('a week inside one block is read day by day', () => {
    expect(splitRange({ from: '2026-06-24', to: '2026-06-30' })).toEqual({ ...none, headDays: { from: '2026-06-24', to: '2026-06-30' } });
    expect(splitRange({ from: '2026-02-28', to: '2026-02-28' })).toEqual({ ...none, headDays: { from: '2026-02-28', to: '2026-02-28' } });
  });

  it('covers every day of any range exactly once, reading at most ten days of each end from the daily table', () => {
    const blockEnd = (start: string) => (start.endsWith('21') ? addDays(`${addDays(`${start.slice(0, 8)}01`, 31).slice(0, 8)}01`, -1) : addDays(start, 9));
    const monthEnd = (start: string) => addDays(`${addDays(start, 31).slice(0, 8)}01`, -1);
    const expand = (part: { from: string; to: string } | null, end: (start: string) => string) => {
      const days: string[] = [];
      for (let start = part?.from; part && start! <= part.to; start = addDays(end(start!), 1)) days.push(...eachDay(start!, end(start!)));
      return days;
    };
    const single = (day: string) => day;
    for (const from of eachDay('2023-12-01', '2024-12-31')) {
      for (const length of [1, 2, 7, 9, 10, 11, 12, 20, 21, 28, 29, 30, 31, 32, 45, 59, 60, 61, 90, 91, 120, 365, 366, 400]) {
        const to = addDays(from, length - 1);
        const split = splitRange({ from, to });
        const days = [
          ...expand(split.headDays, single),
          ...expand(split.headBlocks, blockEnd),
          ...expand(split.months, monthEnd),
          ...expand(split.tailBlocks, blockEnd),
          ...expand(split.tailDays, single),
        ];
        expect(days, `${from}..${to}`).toEqual(eachDay(from, to));
        // Days are read only in the partial blocks at the two ends: at most ten days each.
        const dailyDays = [split.headDays, split.tailDays].map((part) => (part ? eachDay(part.from, part.to).length : 0));
        expect(dailyDays[0]! + dailyDays[1]!, `${from}..${to}`).toBeLessThanOrEqual(20);
        if (split.headDays && split.tailDays) expect(Math.max(...dailyDays), `${from}..${to}`).toBeLessThanOrEqual(10);
      }
    }
  });
});

describe('monthsAsQuarters (whole calendar quarters from the quarterly rollup, the months around them month by month)', () => {
  it('cuts months into head months, whole quarters and tail months', () => {
    expect(monthsAsQuarters({ from: '2025-12-01', to: '2026-10-01' })).toEqual({
      headMonths: { from: '2025-12-01', to: '2025-12-01' },
      quarters: { from: '2026-01-01', to: '2026-07-01' },
      tailMonths: { from: '2026-10-01', to: '2026-10-01' },
    });
    expect(monthsAsQuarters({ from: '2025-07-01', to: '2026-06-01' })).toEqual({
      headMonths: null,
      quarters: { from: '2025-07-01', to: '2026-04-01' },
      tailMonths: null,
    });
    expect(monthsAsQuarters({ from: '2026-02-01', to: '2026-06-01' })).toEqual({
      headMonths: { from: '2026-02-01', to: '2026-03-01' },
      quarters: { from: '2026-04-01', to: '2026-04-01' },
      tailMonths: null,
    });
  });

  it('reads months without a whole quarter month by month, also across a year end', () => {
    expect(monthsAsQuarters({ from: '2025-11-01', to: '2026-02-01' })).toEqual({
      headMonths: { from: '2025-11-01', to: '2026-02-01' },
      quarters: null,
      tailMonths: null,
    });
    expect(monthsAsQuarters({ from: '2026-05-01', to: '2026-05-01' })).toEqual({ headMonths: { from: '2026-05-01', to: '2026-05-01' }, quarters: null, tailMonths: null });
  });

  it('covers every month of any stretch of months exactly once, with at most two months on each side', () => {
    const nextMonth = (first: string) => `${addDays(first, 31).slice(0, 8)}01`;
    const monthsOf = (range: { from: string; to: string } | null) => {
      const firsts: string[] = [];
      for (let month = range?.from; range && month! <= range.to; month = nextMonth(month!)) firsts.push(month!);
      return firsts;
    };
    const isQuarterStart = (first: string) => ['01', '04', '07', '10'].includes(first.slice(5, 7));
    for (const from of monthsOf({ from: '2023-01-01', to: '2024-12-01' })) {
      for (let length = 1; length <= 15; length++) {
        const to = monthsOf({ from, to: '2026-12-01' })[length - 1]!;
        const { headMonths, quarters, tailMonths } = monthsAsQuarters({ from, to });
        const quarterStarts = monthsOf(quarters).filter(isQuarterStart);
        if (quarters) expect([quarters.from, quarters.to].every(isQuarterStart), `${from}..${to}`).toBe(true);
        const covered = [
          ...monthsOf(headMonths),
          ...quarterStarts.flatMap((first) => [first, nextMonth(first), nextMonth(nextMonth(first))]),
          ...monthsOf(tailMonths),
        ];
        expect(covered, `${from}..${to}`).toEqual(monthsOf({ from, to }));
        if (quarters) expect(Math.max(monthsOf(headMonths).length, monthsOf(tailMonths).length), `${from}..${to}`).toBeLessThanOrEqual(2);
      }
    }
  });
});

describe('daysAsBlocks (days to be summed, as blocks less days where that reads fewer rows)', () => {
  const days = (from: string, to: string, sign: 1 | -1 = 1) => ({ unit: 'days', range: { from, to }, sign });
  const block = (first: string) => ({ unit: 'block', range: { from: first, to: first }, sign: 1 });

  it('keeps up to half a block as days, and more than half as the block less its other days', () => {
    expect(daysAsBlocks({ from: '2026-06-16', to: '2026-06-20' })).toEqual([days('2026-06-16', '2026-06-20')]);
    expect(daysAsBlocks({ from: '2026-06-24', to: '2026-06-30' })).toEqual([block('2026-06-21'), days('2026-06-21', '2026-06-23', -1)]);
    expect(daysAsBlocks({ from: '2026-04-02', to: '2026-04-10' })).toEqual([block('2026-04-01'), days('2026-04-01', '2026-04-01', -1)]);
    expect(daysAsBlocks({ from: '2026-04-12', to: '2026-04-18' })).toEqual([
      block('2026-04-11'),
      days('2026-04-11', '2026-04-11', -1),
      days('2026-04-19', '2026-04-20', -1),
    ]);
  });

  it('cuts days that span blocks at the blocks, the last block of a month running to its end', () => {
    expect(daysAsBlocks({ from: '2026-06-12', to: '2026-06-29' })).toEqual([
      block('2026-06-11'),
      days('2026-06-11', '2026-06-11', -1),
      block('2026-06-21'),
      days('2026-06-30', '2026-06-30', -1),
    ]);
    // 21-31 January has 11 days: 6 of them are more than half, 5 are not.
    expect(daysAsBlocks({ from: '2026-01-26', to: '2026-01-31' })).toEqual([block('2026-01-21'), days('2026-01-21', '2026-01-25', -1)]);
    expect(daysAsBlocks({ from: '2026-01-27', to: '2026-02-03' })).toEqual([days('2026-01-27', '2026-01-31'), days('2026-02-01', '2026-02-03')]);
  });

  it('adds up to exactly the days: each day counted once, in every range of a year', () => {
    // A block's days: the 1st to the 10th, the 11th to the 20th, the 21st to the end of the month.
    const blockDays = (first: string) =>
      first.endsWith('21') ? eachDay(first, addDays(first, 10)).filter((day) => day.slice(0, 7) === first.slice(0, 7)) : eachDay(first, addDays(first, 9));
    for (const from of eachDay('2024-01-01', '2024-12-31').filter((_, i) => i % 3 === 0)) {
      for (const length of [1, 5, 6, 9, 10, 11, 17, 25]) {
        const to = addDays(from, length - 1);
        const count = new Map<string, number>();
        for (const { unit, range, sign } of daysAsBlocks({ from, to })) {
          for (const day of unit === 'days' ? eachDay(range.from, range.to) : blockDays(range.from)) count.set(day, (count.get(day) ?? 0) + sign);
        }
        expect([...count].filter(([, n]) => n !== 0)).toEqual(eachDay(from, to).map((day) => [day, 1]));
      }
    }
  });
});

describe('daysAsPeakStretches and monthsAsPeakStretches (a peak over days or months, from running peaks)', () => {
  const stretch = (read: PeakStretch['read'], from: string, to: string) => ({ read, range: { from, to } });

  it('reads a stretch that ends its block from its first day, one that starts it from its last day', () => {
    expect(daysAsPeakStretches({ from: '2026-06-24', to: '2026-06-30' })).toEqual([stretch('untilEnd', '2026-06-24', '2026-06-30')]);
    expect(daysAsPeakStretches({ from: '2025-06-21', to: '2025-06-29' })).toEqual([stretch('sinceStart', '2025-06-21', '2025-06-29')]);
    // The 21st's block ends with its month: 21-31 January, 21-29 February in a leap year.
    expect(daysAsPeakStretches({ from: '2026-01-30', to: '2026-01-31' })).toEqual([stretch('untilEnd', '2026-01-30', '2026-01-31')]);
    expect(daysAsPeakStretches({ from: '2024-02-25', to: '2024-02-29' })).toEqual([stretch('untilEnd', '2024-02-25', '2024-02-29')]);
    expect(daysAsPeakStretches({ from: '2026-06-11', to: '2026-06-20' })).toEqual([stretch('untilEnd', '2026-06-11', '2026-06-20')]);
  });

  it('cuts days that span blocks at the blocks, and reads days inside one block one by one', () => {
    expect(daysAsPeakStretches({ from: '2026-06-15', to: '2026-06-24' })).toEqual([
      stretch('untilEnd', '2026-06-15', '2026-06-20'),
      stretch('sinceStart', '2026-06-21', '2026-06-24'),
    ]);
    expect(daysAsPeakStretches({ from: '2026-06-12', to: '2026-06-18' })).toEqual([stretch('each', '2026-06-12', '2026-06-18')]);
  });

  it('reads months up to December from the first, months from January from the last, and splits at a new year', () => {
    expect(monthsAsPeakStretches({ from: '2025-07-01', to: '2026-06-01' })).toEqual([
      stretch('untilEnd', '2025-07-01', '2025-12-01'),
      stretch('sinceStart', '2026-01-01', '2026-06-01'),
    ]);
    expect(monthsAsPeakStretches({ from: '2024-01-01', to: '2024-12-01' })).toEqual([stretch('untilEnd', '2024-01-01', '2024-12-01')]);
    expect(monthsAsPeakStretches({ from: '2026-01-01', to: '2026-01-01' })).toEqual([stretch('sinceStart', '2026-01-01', '2026-01-01')]);
    expect(monthsAsPeakStretches({ from: '2026-03-01', to: '2026-05-01' })).toEqual([stretch('each', '2026-03-01', '2026-05-01')]);
  });

  it('covers every day at the ends of any range, and every whole month, exactly once', () => {
    const unitDays = (read: PeakStretch['read'], range: { from: string; to: string }, unitEnd: (day: string) => string, unitStart: (day: string) => string) =>
      read === 'untilEnd' ? [range.from, unitEnd(range.from)] : read === 'sinceStart' ? [unitStart(range.to), range.to] : [range.from, range.to];
    const blockStart = (day: string) => `${day.slice(0, 8)}${Number(day.slice(8)) <= 10 ? '01' : Number(day.slice(8)) <= 20 ? '11' : '21'}`;
    const blockEnd = (day: string) => (blockStart(day).endsWith('21') ? addDays(`${addDays(`${day.slice(0, 8)}01`, 31).slice(0, 8)}01`, -1) : addDays(blockStart(day), 9));
    for (const from of eachDay('2023-12-01', '2024-12-31').filter((_, i) => i % 2 === 0)) {
      for (const length of [1, 2, 7, 9, 10, 11, 12, 20, 30, 45, 90, 366]) {
        const to = addDays(from, length - 1);
        const split = splitRange({ from, to });
        for (const days of [split.headDays, split.tailDays]) {
          if (!days) continue;
          const stretches = daysAsPeakStretches(days);
          // Back to back from the first day to the last, each within one block, and the stretch's own
          // days when read from a running peak.
          expect(stretches.flatMap((s) => eachDay(s.range.from, s.range.to))).toEqual(eachDay(days.from, days.to));
          for (const { read, range } of stretches) {
            expect(blockStart(range.from)).toBe(blockStart(range.to));
            expect(unitDays(read, range, blockEnd, blockStart), `${from}..${to} ${read}`).toEqual([range.from, range.to]);
          }
        }
        if (split.months) {
          const stretches = monthsAsPeakStretches(split.months);
          const firstDays = (range: { from: string; to: string }) => eachDay(range.from, range.to).filter((day) => day.endsWith('-01'));
          expect(stretches.flatMap((s) => firstDays(s.range))).toEqual(firstDays(split.months));
          const yearStart = (month: string) => `${month.slice(0, 4)}-01-01`;
          const yearEnd = (month: string) => `${month.slice(0, 4)}-12-01`;
          for (const { read, range } of stretches) {
            expect(range.from.slice(0, 4)).toBe(range.to.slice(0, 4));
            expect(unitDays(read, range, yearEnd, yearStart), `${from}..${to} ${read}`).toEqual([range.from, range.to]);
          }
        }
      }
    }
  });
});
