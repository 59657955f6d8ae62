// Calendar days as `YYYY-MM-DD` strings. Arithmetic is done on UTC midnights so that no local
// timezone or daylight-saving change can shift a day.
const DAY_MS = 86_400_000;

export type IsoDay = string;

export function toDay(date: Date): IsoDay {
  return date.toISOString().slice(0, 10);
}

export function parseDay(day: IsoDay): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** true when `day` is `YYYY-MM-DD` and names a real calendar day (2026-02-30 is not). */
export function isRealDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const parsed = parseDay(day);
  return !Number.isNaN(parsed.getTime()) && toDay(parsed) === day;
}

export function addDays(day: IsoDay, days: number): IsoDay {
  return toDay(new Date(parseDay(day).getTime() + days * DAY_MS));
}

/** Number of days from `from` to `to`, both included. */
export function daysInclusive(from: IsoDay, to: IsoDay): number {
  return Math.round((parseDay(to).getTime() - parseDay(from).getTime()) / DAY_MS) + 1;
}

export function eachDay(from: IsoDay, to: IsoDay): IsoDay[] {
  const count = daysInclusive(from, to);
  return Array.from({ length: Math.max(count, 0) }, (_, i) => addDays(from, i));
}

/** The period of the same length that ends the day before `from`. */
export function previousPeriod(from: IsoDay, to: IsoDay): { from: IsoDay; to: IsoDay } {
  const length = daysInclusive(from, to);
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/** Today's calendar day in a timezone (IST for ads and social). */
export function todayIn(timeZone: string, now = new Date()): IsoDay {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
