import { describe, expect, it } from 'vitest';
import { daysAsBlocks, splitRange } from '@/lib/metrics/range-split';
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
