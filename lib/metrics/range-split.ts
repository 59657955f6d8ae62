// A date range as the rollups read it: its whole calendar months, the whole ten-day blocks (days 1-10,
// 11-20 and 21 to the month's end) of the partial months at its ends, and the remaining days. Every
// rollup pair (monthly and ten-day) is kept by database triggers equal to its daily table, so a range
// reads at most ten days at each end from the daily rows (migrations 20261122120000 and 20261122130000).
import { addDays, daysInclusive, type IsoDay } from '../time/days';
import type { DayRange } from './compare';

/** A stretch of days as the whole units (months, ten-day blocks) it contains and the days before and after them. */
interface UnitSplit {
  before: DayRange | null;
  /** First day of the first and of the last whole unit. */
  whole: DayRange | null;
  after: DayRange | null;
}

interface Unit {
  /** The first day of the unit holding `day`. */
  start(day: IsoDay): IsoDay;
  /** The first day of the unit after the one holding `day`. */
  next(day: IsoDay): IsoDay;
}

const firstOfMonth = (day: IsoDay): IsoDay => `${day.slice(0, 8)}01`;
const firstOfNextMonth = (day: IsoDay): IsoDay => firstOfMonth(addDays(firstOfMonth(day), 31));
const MONTHS: Unit = { start: firstOfMonth, next: firstOfNextMonth };

/** Ten-day blocks: days 1-10, 11-20 and 21 to the month's end, as kept by the `*_dimensions_tenday` rollups. */
const blockOfDay = (day: IsoDay) => Math.min(Math.floor((Number(day.slice(8)) - 1) / 10), 2);
const TEN_DAY_BLOCKS: Unit = {
  start: (day) => `${day.slice(0, 8)}${['01', '11', '21'][blockOfDay(day)]}`,
  next: (day) => (blockOfDay(day) === 2 ? firstOfNextMonth(day) : addDays(TEN_DAY_BLOCKS.start(day), 10)),
};

function splitBy(unit: Unit, { from, to }: DayRange): UnitSplit {
  const firstWhole = from === unit.start(from) ? from : unit.next(from);
  const afterLastWhole = addDays(to, 1) === unit.next(to) ? addDays(to, 1) : unit.start(to);
  if (firstWhole >= afterLastWhole) return { before: { from, to }, whole: null, after: null };
  return {
    before: from < firstWhole ? { from, to: addDays(firstWhole, -1) } : null,
    whole: { from: firstWhole, to: unit.start(addDays(afterLastWhole, -1)) },
    after: afterLastWhole <= to ? { from: afterLastWhole, to } : null,
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

/** Days to be summed: `days` itself, or (unit `block`, `from` = `to` = its first day) a ten-day block. */
export interface SignedStretch {
  unit: 'days' | 'block';
  range: DayRange;
  sign: 1 | -1;
}

/**
 * Days to be summed, as read with the fewest rows: each stretch of them within one ten-day block is its
 * days, or when it covers more than half of the block, the block less the block's other days (a stretch
 * of 8 days of a 10-day block is 1 block row and 2 day rows per entity instead of 8 day rows). For sums
 * only: a peak cannot be subtracted.
 */
export function daysAsBlocks(days: DayRange): SignedStretch[] {
  const stretches: SignedStretch[] = [];
  for (let from = days.from; from <= days.to; ) {
    const blockFrom = TEN_DAY_BLOCKS.start(from);
    const blockTo = addDays(TEN_DAY_BLOCKS.next(from), -1);
    const to = days.to < blockTo ? days.to : blockTo;
    if (2 * daysInclusive(from, to) > daysInclusive(blockFrom, blockTo)) {
      stretches.push({ unit: 'block', range: { from: blockFrom, to: blockFrom }, sign: 1 });
      if (blockFrom < from) stretches.push({ unit: 'days', range: { from: blockFrom, to: addDays(from, -1) }, sign: -1 });
      if (to < blockTo) stretches.push({ unit: 'days', range: { from: addDays(to, 1), to: blockTo }, sign: -1 });
    } else {
      stretches.push({ unit: 'days', range: { from, to }, sign: 1 });
    }
    from = addDays(to, 1);
  }
  return stretches;
}
