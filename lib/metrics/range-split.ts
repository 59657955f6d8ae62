// A date range as the rollups read it: its whole calendar months, the whole ten-day blocks (days 1-10,
// 11-20 and 21 to the month's end) of the partial months at its ends, and the remaining days. Every
// rollup pair (monthly and ten-day) is kept by database triggers equal to its daily table, so a range
// reads at most ten days at each end from the daily rows (migrations 20261122120000 and 20261122130000).
// The ad insights also have a quarterly rollup: their entity lists read a range's whole months as its
// whole calendar quarters and the months around them (monthsAsQuarters; migration 20261126020000).
import type { DayRange } from '../time/day-range';
import { addDays, dayFromNumber, dayNumber, dayOf, dayParts, type IsoDay } from '../time/days';

/** A stretch of days as the whole units (months, ten-day blocks) it contains and the days before and after them. */
interface UnitSplit {
  before: DayRange | null;
  /** First day of the first and of the last whole unit. */
  whole: DayRange | null;
  after: DayRange | null;
}

/**
 * Months and ten-day blocks are numbered consecutively (month n of year y is y × 12 + n − 1), so a
 * unit's successor is its number plus one and a stretch of units is a count known up front.
 */
interface Unit {
  /** The number of the unit holding `day`. */
  of(day: IsoDay): number;
  /** The first day of unit `n`. */
  start(n: number): IsoDay;
}

const MONTHS: Unit = {
  of: (day) => {
    const { year, month } = dayParts(day);
    return year * 12 + month - 1;
  },
  start: (n) => dayOf(Math.floor(n / 12), (n % 12) + 1, 1),
};

/** Calendar quarters (January-March, …), as kept by ad_insights_quarterly: three months each. */
const QUARTERS: Unit = {
  of: (day) => Math.floor(MONTHS.of(day) / 3),
  start: (n) => MONTHS.start(n * 3),
};

/** Ten-day blocks: days 1-10, 11-20 and 21 to the month's end, as kept by the `*_dimensions_tenday` rollups. */
const BLOCK_FIRST_DAYS = [1, 11, 21] as const;
const TEN_DAY_BLOCKS: Unit = {
  of: (day) => MONTHS.of(day) * 3 + Math.min(Math.floor((dayParts(day).date - 1) / 10), 2),
  start: (n) => {
    const { year, month } = dayParts(MONTHS.start(Math.floor(n / 3)));
    return dayOf(year, month, BLOCK_FIRST_DAYS[n % 3]!);
  },
};

/** The last day of unit `n`: the day before the next unit starts. */
const unitEnd = (unit: Unit, n: number): IsoDay => addDays(unit.start(n + 1), -1);

function splitBy(unit: Unit, { from, to }: DayRange): UnitSplit {
  const firstWhole = from === unit.start(unit.of(from)) ? unit.of(from) : unit.of(from) + 1;
  const lastWhole = to === unitEnd(unit, unit.of(to)) ? unit.of(to) : unit.of(to) - 1;
  if (firstWhole > lastWhole) return { before: { from, to }, whole: null, after: null };
  const wholeFrom = unit.start(firstWhole);
  const afterWhole = unit.start(lastWhole + 1);
  return {
    before: from !== wholeFrom ? { from, to: addDays(wholeFrom, -1) } : null,
    whole: { from: wholeFrom, to: unit.start(lastWhole) },
    after: dayNumber(afterWhole) <= dayNumber(to) ? { from: afterWhole, to } : null,
  };
}

/**
 * A range as it is read: its whole calendar months (`months`: first day of the first and of the last),
 * the whole ten-day blocks of the stretches before and after them (`headBlocks`, `tailBlocks`: first
 * day of the first and of the last block) and the remaining days at each end; each part null when empty.
 */
export interface RangeSplit {
  headDays: DayRange | null;
  headBlocks: DayRange | null;
  months: DayRange | null;
  tailBlocks: DayRange | null;
  tailDays: DayRange | null;
}

const NOTHING: UnitSplit = { before: null, whole: null, after: null };

export function splitRange(range: DayRange): RangeSplit {
  const byMonths = splitBy(MONTHS, range);
  const head = byMonths.before ? splitBy(TEN_DAY_BLOCKS, byMonths.before) : NOTHING;
  const tail = byMonths.after ? splitBy(TEN_DAY_BLOCKS, byMonths.after) : NOTHING;
  // A month boundary is a block boundary. The stretch after the last whole month starts a block: its
  // days are those after its whole blocks, or all of it (`tail.before`) when it holds none. The stretch
  // before the first whole month ends a block, so `head.after` is empty, except when the range holds no
  // whole month: it is then all `byMonths.before`, there is no tail, and its last days are `head.after`.
  return {
    headDays: head.before,
    headBlocks: head.whole,
    months: byMonths.whole,
    tailBlocks: tail.whole,
    tailDays: head.after ?? tail.before ?? tail.after,
  };
}

/**
 * Whole months (`months`: first day of the first and of the last) as the whole calendar quarters they
 * contain (`quarters`: first day of the first and of the last) and the months before and after them
 * (first days); each part null when empty. A year of months is four quarter rows per entity instead of
 * twelve month rows.
 */
export function monthsAsQuarters(months: DayRange): { headMonths: DayRange | null; quarters: DayRange | null; tailMonths: DayRange | null } {
  const split = splitBy(QUARTERS, { from: months.from, to: unitEnd(MONTHS, MONTHS.of(months.to)) });
  const asMonths = (days: DayRange | null) => (days ? { from: days.from, to: MONTHS.start(MONTHS.of(days.to)) } : null);
  return { headMonths: asMonths(split.before), quarters: split.whole, tailMonths: asMonths(split.after) };
}

/** Days to be summed: `days` itself, or (unit `block`, `from` = `to` = its first day) a ten-day block. */
export interface SignedStretch {
  unit: 'days' | 'block';
  range: DayRange;
  sign: 1 | -1;
}

/** A stretch between two epoch-day numbers. */
const stretch = (unit: SignedStretch['unit'], from: number, to: number, sign: 1 | -1): SignedStretch => ({
  unit,
  range: { from: dayFromNumber(from), to: dayFromNumber(to) },
  sign,
});

/**
 * Days to be summed, as read with the fewest rows: each stretch of them within one ten-day block is its
 * days, or when it covers more than half of the block, the block less the block's other days (a stretch
 * of 8 days of a 10-day block is 1 block row and 2 day rows per entity instead of 8 day rows). For sums
 * only: a peak cannot be subtracted. One pass per ten-day block the days touch, counted up front.
 */
export function daysAsBlocks(days: DayRange): SignedStretch[] {
  const first = dayNumber(days.from);
  const last = dayNumber(days.to);
  const firstBlock = TEN_DAY_BLOCKS.of(days.from);
  const blockCount = Math.max(TEN_DAY_BLOCKS.of(days.to) - firstBlock + 1, 0);
  return Array.from({ length: blockCount }, (_, i) => firstBlock + i).flatMap((n): SignedStretch[] => {
    const blockFrom = dayNumber(TEN_DAY_BLOCKS.start(n));
    const blockTo = dayNumber(unitEnd(TEN_DAY_BLOCKS, n));
    const from = Math.max(first, blockFrom);
    const to = Math.min(last, blockTo);
    if (2 * (to - from + 1) <= blockTo - blockFrom + 1) return [stretch('days', from, to, 1)];
    return [
      stretch('block', blockFrom, blockFrom, 1),
      ...(blockFrom < from ? [stretch('days', blockFrom, from - 1, -1)] : []),
      ...(to < blockTo ? [stretch('days', to + 1, blockTo, -1)] : []),
    ];
  });
}

/**
 * A stretch of days (or months) within one unit (a ten-day block, or a year), as a peak over it is read:
 * `untilEnd`, the running peak from `range.from` through the end of its unit; `sinceStart`, the running
 * peak from the start of its unit through `range.to`; `each`, every day (month) of `range`.
 */
export interface PeakStretch {
  read: 'untilEnd' | 'sinceStart' | 'each';
  range: DayRange;
}

/**
 * Splits the numbered elements `first`…`last` (days or months) at the boundaries of the units that hold
 * them: a piece that ends its unit is its first element's `untilEnd` peak, one that starts it its last
 * element's `sinceStart` peak (one row each), any other every element. The days at either end of a range
 * that holds a whole block or month end or start a block (see splitRange): one row each.
 */
function peakStretches(first: number, last: number, unit: { of(n: number): number; first(u: number): number; last(u: number): number }, dayOfElement: (n: number) => IsoDay): PeakStretch[] {
  const pieces: PeakStretch[] = [];
  for (let from = first; from <= last; ) {
    const u = unit.of(from);
    const to = Math.min(last, unit.last(u));
    const range = { from: dayOfElement(from), to: dayOfElement(to) };
    pieces.push({ read: to === unit.last(u) ? 'untilEnd' : from === unit.first(u) ? 'sinceStart' : 'each', range });
    from = to + 1;
  }
  return pieces;
}

/** The days of `days` per ten-day block, as block peaks read them (see peakStretches). */
export function daysAsPeakStretches(days: DayRange): PeakStretch[] {
  const blocks = {
    of: (n: number) => TEN_DAY_BLOCKS.of(dayFromNumber(n)),
    first: (block: number) => dayNumber(TEN_DAY_BLOCKS.start(block)),
    last: (block: number) => dayNumber(unitEnd(TEN_DAY_BLOCKS, block)),
  };
  return peakStretches(dayNumber(days.from), dayNumber(days.to), blocks, dayFromNumber);
}

/** Whole months (`months`: first day of the first and of the last) per calendar year, as year peaks read them (see peakStretches). */
export function monthsAsPeakStretches(months: DayRange): PeakStretch[] {
  const years = { of: (n: number) => Math.floor(n / 12), first: (year: number) => year * 12, last: (year: number) => year * 12 + 11 };
  return peakStretches(MONTHS.of(months.from), MONTHS.of(months.to), years, MONTHS.start);
}
