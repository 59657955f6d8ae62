// A range as the parts a statement reads it from: the rollups of its whole calendar months (or
// quarters) and ten-day blocks, and the daily rows of its other days (see range-split.ts). One place
// for the ads' insight and breakdown rows and for the dimension tables of the web, search-console and
// store sources, each of which names its own tables and columns per part, UNION ALL.
import type { SqlParams } from '../db';
import type { DayRange } from '../time/day-range';
import { daysAsBlocks, monthsAsQuarters, splitRange } from './range-split';

/** Where a part of a range is read: the daily table, or the ten-day, monthly or quarterly rollup with its period column. */
export type PartSource = { daily: true } | { daily: false; rollup: 'tenday' | 'monthly' | 'quarterly'; period: 'block' | 'month' | 'quarter' };

export interface RangePart {
  source: PartSource;
  /** The part's days (for a rollup, the first day of its first and of its last period). */
  range: DayRange;
  /**
   * Bounds as parameters (inclusive), added on first use: a statement that reads a part some other way
   * (the reach of whole months, from running peaks) leaves no parameter unused, which PostgreSQL could not type.
   */
  readonly from: string;
  readonly to: string;
  /** -1: rows to subtract (see daysAsBlocks). */
  sign: 1 | -1;
}

/**
 * The parts of a range as the rollups read it (see range-split.ts). With `daysAsBlocks`, for sums
 * only, the days of its partial blocks are read as blocks less days where that reads fewer rows. With
 * `quarters` (the ads' insight rows only: ad_insights_quarterly has no other counterpart), its whole
 * calendar quarters are read from the quarterly rollup and only the months around them month by month.
 */
export function rangeParts(p: SqlParams, range: DayRange, options: { daysAsBlocks?: boolean; quarters?: boolean } = {}): RangePart[] {
  const split = splitRange(range);
  const tenDay: PartSource = { daily: false, rollup: 'tenday', period: 'block' };
  const monthly: PartSource = { daily: false, rollup: 'monthly', period: 'month' };
  const quarterly: PartSource = { daily: false, rollup: 'quarterly', period: 'quarter' };
  const part = (source: PartSource, range: DayRange, sign: 1 | -1 = 1): RangePart => {
    let from: string | undefined;
    let to: string | undefined;
    return {
      source,
      range,
      sign,
      get from() {
        return (from ??= p.add(range.from));
      },
      get to() {
        return (to ??= p.add(range.to));
      },
    };
  };
  const days = (stretch: DayRange | null): RangePart[] => {
    if (!stretch) return [];
    if (!options.daysAsBlocks) return [part({ daily: true }, stretch)];
    return daysAsBlocks(stretch).map(({ unit, range: read, sign }) => part(unit === 'block' ? tenDay : { daily: true }, read, sign));
  };
  const months = (stretch: DayRange | null): RangePart[] => {
    if (!stretch) return [];
    if (!options.quarters) return [part(monthly, stretch)];
    const { headMonths, quarters, tailMonths } = monthsAsQuarters(stretch);
    return [...(quarters ? [part(quarterly, quarters)] : []), ...[headMonths, tailMonths].flatMap((edge) => (edge ? [part(monthly, edge)] : []))];
  };
  return [
    ...months(split.months),
    ...[split.headBlocks, split.tailBlocks].flatMap((blocks) => (blocks ? [part(tenDay, blocks)] : [])),
    ...days(split.headDays),
    ...days(split.tailDays),
  ];
}

/** That a row of `alias` lies in `part`: its day (the daily table) or its period (a rollup) within the part's bounds. */
export function inPart(part: RangePart, alias: string): string {
  return `${alias}.${part.source.daily ? 'date' : part.source.period} BETWEEN ${part.from}::date AND ${part.to}::date`;
}
