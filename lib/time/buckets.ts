// The buckets of a series: days, ISO weeks (Monday to Sunday) or calendar months, the first and the
// last clipped to the range, so that every bucket holds only days of the range and the buckets of a
// range cover it exactly once.
import { addDays, dayNumber, dayOf, dayParts, daysInMonth, eachDay, type IsoDay } from './days';

export const GRANULARITIES = ['day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export interface Bucket {
  /** The bucket's first day within the range: the date of its point in a series. */
  from: IsoDay;
  to: IsoDay;
}

/** The last day of the bucket that holds `day`. */
function bucketEnd(day: IsoDay, granularity: Granularity): IsoDay {
  if (granularity === 'day') return day;
  if (granularity === 'week') {
    // 1970-01-01 was a Thursday: Monday is 0 with an offset of 3.
    const weekday = (((dayNumber(day) + 3) % 7) + 7) % 7;
    return addDays(day, 6 - weekday);
  }
  const { year, month } = dayParts(day);
  return dayOf(year, month, daysInMonth(year, month));
}

/** The buckets of `from`…`to` in order; empty when `to` is before `from`. */
export function bucketsOf(from: IsoDay, to: IsoDay, granularity: Granularity): Bucket[] {
  if (granularity === 'day') return eachDay(from, to).map((day) => ({ from: day, to: day }));
  const buckets: Bucket[] = [];
  for (let start = from; start <= to; ) {
    const end = bucketEnd(start, granularity);
    const clipped = end < to ? end : to;
    buckets.push({ from: start, to: clipped });
    start = addDays(clipped, 1);
  }
  return buckets;
}

export function bucketCount(from: IsoDay, to: IsoDay, granularity: Granularity): number {
  return bucketsOf(from, to, granularity).length;
}

/**
 * Groups a daily series (one point per day of the range, in order) into the range's buckets: `combine`
 * turns the days of one bucket into its point, dated by the bucket's first day.
 */
export function bucketSeries<P extends { date: IsoDay }>(daily: P[], buckets: Bucket[], combine: (days: P[], bucket: Bucket) => P): P[] {
  return buckets.map((bucket) => combine(daily.filter((point) => point.date >= bucket.from && point.date <= bucket.to), bucket));
}
