// Calendar days as integers. Day `i` of a calendar is the i-th day of the seeded range; dates are
// plain calendar dates (the ads and social days are IST days, the other sources their own zone's days).

const MS_PER_DAY = 86_400_000;
const IST_OFFSET_MS = 5.5 * 3_600_000;

export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/** Yesterday's date in Asia/Kolkata: the last complete IST day. */
export function yesterdayInIst(now = Date.now()): string {
  return new Date(now + IST_OFFSET_MS - MS_PER_DAY).toISOString().slice(0, 10);
}

export class Calendar {
  /** Date strings, oldest first; the last one is the end date. */
  readonly dates: readonly string[];
  /** Day of week per day, 0 = Sunday. */
  readonly weekdays: readonly number[];
  /** Month (1-12) per day. */
  readonly months: readonly number[];
  /** The end of the end date in IST (midnight that follows it), in ms since the epoch: the dataset's "now". */
  readonly endOfRangeMs: number;

  constructor(
    endDate: string,
    readonly days: number,
  ) {
    const endMs = Date.parse(`${endDate}T00:00:00Z`);
    const dates: string[] = [];
    const weekdays: number[] = [];
    const months: number[] = [];
    for (let i = 0; i < days; i++) {
      const d = new Date(endMs - (days - 1 - i) * MS_PER_DAY);
      dates.push(d.toISOString().slice(0, 10));
      weekdays.push(d.getUTCDay());
      months.push(d.getUTCMonth() + 1);
    }
    this.dates = dates;
    this.weekdays = weekdays;
    this.months = months;
    this.endOfRangeMs = endMs + MS_PER_DAY - IST_OFFSET_MS;
  }

  get last(): number {
    return this.days - 1;
  }

  date(day: number): string {
    const date = this.dates[day];
    if (date === undefined) throw new Error(`day ${day} is outside the calendar`);
    return date;
  }

  weekday(day: number): number {
    return this.weekdays[day] ?? 0;
  }

  month(day: number): number {
    return this.months[day] ?? 1;
  }

  /** An instant `hoursBefore` hours before the end of the range, as an ISO timestamp. */
  beforeEnd(hoursBefore: number): string {
    return new Date(this.endOfRangeMs - Math.round(hoursBefore * 3_600_000)).toISOString();
  }

  /** An instant on day `day` (may be before day 0) at `hour` (fractional) IST, as an ISO timestamp. */
  istTime(day: number, hour: number): string {
    const midnightIst = this.endOfRangeMs - (this.days - day) * MS_PER_DAY;
    return new Date(midnightIst + Math.round(hour * 3_600_000)).toISOString();
  }
}
