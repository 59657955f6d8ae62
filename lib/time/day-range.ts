// Ranges of calendar days, both ends included, and the ranges derived from one: the period before it
// and the same range some calendar months earlier. Day arithmetic is that of days.ts.
import { addDays, dayOf, dayParts, daysInclusive, daysInMonth, type IsoDay } from './days';

export interface DayRange {
  from: IsoDay;
  to: IsoDay;
}

/** The period of the same length that ends the day before `from`. */
export function previousPeriod({ from, to }: DayRange): DayRange {
  const length = daysInclusive(from, to);
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/** `day` moved `months` calendar months back; the day of month is clamped to the target month's length (or set to its end). */
function monthsBack(day: IsoDay, months: number, toMonthEnd = false): IsoDay {
  const { year, month, date } = dayParts(day);
  // Months counted from year 0 (integer arithmetic: no Date, whose Date.UTC reads years 0-99 as 1900-1999).
  const target = year * 12 + (month - 1) - months;
  const targetYear = Math.floor(target / 12);
  const targetMonth = target - targetYear * 12 + 1;
  const last = daysInMonth(targetYear, targetMonth);
  return dayOf(targetYear, targetMonth, toMonthEnd ? last : Math.min(date, last));
}

function isWholeMonths({ from, to }: DayRange): boolean {
  const end = dayParts(to);
  return dayParts(from).date === 1 && end.date === daysInMonth(end.year, end.month);
}

/**
 * Both ends moved back `months` calendar months, a day that the target month lacks becoming its last
 * day (2026-03-31 → 2026-02-28); a range of whole months becomes the same whole months earlier
 * (2026-03-01…2026-03-31 → 2026-02-01…2026-02-28).
 */
export function monthsEarlier(range: DayRange, months: number): DayRange {
  return { from: monthsBack(range.from, months), to: monthsBack(range.to, months, isWholeMonths(range)) };
}
