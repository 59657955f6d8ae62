// The buckets of an overview's series (`granularity`): ISO weeks from Monday, calendar months, the
// first and last clipped to the range, covering every day of it exactly once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketCount, bucketsOf, bucketSeries } from '@/lib/time/buckets';
import { addDays, eachDay } from '@/lib/time/days';

describe('bucketsOf', () => {
  it('cuts weeks on Mondays, the first and last clipped to the range', () => {
    // 2026-06-03 is a Wednesday, 2026-06-16 a Tuesday.
    expect(bucketsOf('2026-06-03', '2026-06-16', 'week')).toEqual([
      { from: '2026-06-03', to: '2026-06-07' },
      { from: '2026-06-08', to: '2026-06-14' },
      { from: '2026-06-15', to: '2026-06-16' },
    ]);
  });

  it('takes ISO weeks across a year’s end, and calendar months across February of a leap year', () => {
    expect(bucketsOf('2026-12-30', '2027-01-05', 'week')).toEqual([
      { from: '2026-12-30', to: '2027-01-03' },
      { from: '2027-01-04', to: '2027-01-05' },
    ]);
    expect(bucketsOf('2028-01-15', '2028-03-02', 'month')).toEqual([
      { from: '2028-01-15', to: '2028-01-31' },
      { from: '2028-02-01', to: '2028-02-29' },
      { from: '2028-03-01', to: '2028-03-02' },
    ]);
  });

  it('makes a day of every day, and a single bucket of a one-day range', () => {
    expect(bucketsOf('2026-06-01', '2026-06-03', 'day').map((bucket) => bucket.from)).toEqual(['2026-06-01', '2026-06-02', '2026-06-03']);
    expect(bucketsOf('2026-06-07', '2026-06-07', 'week')).toEqual([{ from: '2026-06-07', to: '2026-06-07' }]);
    expect(bucketCount('2025-07-01', '2026-06-30', 'week')).toBe(53);
    expect(bucketCount('2025-07-01', '2026-06-30', 'month')).toBe(12);
  });

  it('covers every day of any range once, in order, every week from Monday to Sunday but the clipped ends', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3650 }), fc.integer({ min: 0, max: 365 }), fc.constantFrom('week' as const, 'month' as const), (start, length, granularity) => {
        const from = addDays('2020-01-01', start);
        const to = addDays(from, length);
        const buckets = bucketsOf(from, to, granularity);
        expect(buckets.flatMap((bucket) => eachDay(bucket.from, bucket.to))).toEqual(eachDay(from, to));
        for (const bucket of buckets.slice(1)) {
          if (granularity === 'week') expect(new Date(`${bucket.from}T00:00:00Z`).getUTCDay()).toBe(1);
          else expect(bucket.from.endsWith('-01')).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('bucketSeries', () => {
  it('combines the days of each bucket, dated by its first day', () => {
    const daily = eachDay('2026-06-06', '2026-06-09').map((date, index) => ({ date, value: index + 1 }));
    const weekly = bucketSeries(daily, bucketsOf('2026-06-06', '2026-06-09', 'week'), (days, bucket) => ({ date: bucket.from, value: days.reduce((sum, day) => sum + day.value, 0) }));
    expect(weekly).toEqual([
      { date: '2026-06-06', value: 3 },
      { date: '2026-06-08', value: 7 },
    ]);
  });
});
