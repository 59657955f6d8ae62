// Calendar days as `YYYY-MM-DD` strings, with arithmetic on epoch-day numbers (days since 1970-01-01).
// No day string is ever sliced or compared to step through time: a day is turned into its number,
// the arithmetic is done on integers, and the result is formatted back with a four-digit year. A
// result outside years 0000-9999 is an error, never an expanded-year string such as `+010000-01-01`
// (which sorts before `9999-12-31` and would make a loop over days run for ever). No timezone or
// daylight-saving change can shift a day: only UTC midnights are used.
const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export type IsoDay = string;

export interface DayParts {
  year: number;
  /** 1 to 12. */
  month: number;
  /** 1 to 31. */
  date: number;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month (`month` 1 to 12). */
export function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The year, month and day of month of a `YYYY-MM-DD` day, or null when it names no real day (2026-02-30). */
function partsOf(day: string): DayParts | null {
  const match = DAY_PATTERN.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || date < 1 || date > daysInMonth(year, month)) return null;
  return { year, month, date };
}

/** true when `day` is `YYYY-MM-DD` and names a real calendar day (2026-02-30 is not). */
export function isRealDay(day: string): boolean {
  return partsOf(day) !== null;
}

/** The parts of a real day; anything else is a programming error (queries are validated first). */
export function dayParts(day: IsoDay): DayParts {
  const parts = partsOf(day);
  if (!parts) throw new RangeError(`Not a calendar day: ${JSON.stringify(day)}`);
  return parts;
}

/** The day of these parts, formatted `YYYY-MM-DD`; the parts must name a real day of years 0000-9999. */
export function dayOf(year: number, month: number, date: number): IsoDay {
  const day = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
  if (!Number.isInteger(year) || year < 0 || year > 9999 || !isRealDay(day)) {
    throw new RangeError(`No calendar day ${year}-${month}-${date} in years 0000-9999`);
  }
  return day;
}

/** Days since 1970-01-01 (negative before it). */
export function dayNumber(day: IsoDay): number {
  const { year, month, date } = dayParts(day);
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
  const midnight = new Date(0);
  midnight.setUTCFullYear(year, month - 1, date);
  return Math.round(midnight.getTime() / DAY_MS);
}

/** The day of an epoch-day number; a RangeError outside years 0000-9999. */
export function dayFromNumber(number: number): IsoDay {
  const midnight = new Date(number * DAY_MS);
  if (!Number.isInteger(number) || Number.isNaN(midnight.getTime())) throw new RangeError(`No calendar day numbered ${number}`);
  return dayOf(midnight.getUTCFullYear(), midnight.getUTCMonth() + 1, midnight.getUTCDate());
}

export function addDays(day: IsoDay, days: number): IsoDay {
  return dayFromNumber(dayNumber(day) + days);
}

/** Number of days from `from` to `to`, both included (0 or less when `to` is before `from`). */
export function daysInclusive(from: IsoDay, to: IsoDay): number {
  return dayNumber(to) - dayNumber(from) + 1;
}

/** Every day from `from` to `to`, both included; empty when `to` is before `from`. */
export function eachDay(from: IsoDay, to: IsoDay): IsoDay[] {
  const first = dayNumber(from);
  return Array.from({ length: Math.max(daysInclusive(from, to), 0) }, (_, i) => dayFromNumber(first + i));
}

/** One formatter per timezone: making one costs far more than using it, and every query's dates ask (docs/performance/round-02-web-layer-web-dimension-org-rollups.md#the-web-layer). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's calendar day in a timezone (IST for ads and social). */
export function todayIn(timeZone: string, now = new Date()): IsoDay {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}
