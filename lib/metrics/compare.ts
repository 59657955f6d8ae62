// Compare periods for the website and store surfaces: which days a response's `previous` figures
// cover, given the requested range and the `compare` mode.
import { z } from 'zod';
import { checkDateRange, clientParam, dateRange, granularityParam, whenDatesAreReal } from '../contract/query';
import { monthsEarlier, previousPeriod, type DayRange } from '../time/day-range';
import { tableLimitParam } from './dimension-tables/schemas';

export const COMPARE_MODES = ['previous', 'prevMonth', 'prevYear', 'none'] as const;
export type CompareMode = (typeof COMPARE_MODES)[number];

/** What each mode means, written once for the query parameter and the operation descriptions. */
export const COMPARE_RULES = `\`compare\` chooses the days of \`previous\`, \`previousSeries\` and each table row's \`previous\`:
- \`previous\` (default): the same number of days ending the day before \`from\`.
- \`prevMonth\`: both ends moved back one calendar month; a day that does not exist in that month becomes its last day
  (2026-03-31 → 2026-02-28, 2024-03-30 → 2024-02-29). When the range is made of whole months (\`from\` is a 1st and
  \`to\` the last day of a month), the compare range is the same whole months one month earlier
  (2026-03-01…2026-03-31 → 2026-02-01…2026-02-28; 2026-02-01…2026-02-28 → 2026-01-01…2026-01-31).
- \`prevYear\`: the same rule one year back (2024-02-29 → 2023-02-28; 2025-02-01…2025-02-28 → 2024-02-01…2024-02-29).
- \`none\`: no comparison; \`compare\`, \`previous\` and every row's \`previous\` are null and \`previousSeries\` is empty.
The two ranges may differ in length (\`prevMonth\` of March is February) and may overlap (\`prevMonth\` of a range
longer than a month); \`data.compare\` states the compare range exactly, and \`previousSeries\` lists its days.`;

export const compareParam = z
  .enum(COMPARE_MODES)
  .default('previous')
  .describe('The comparison period: `previous` (default), `prevMonth`, `prevYear` or `none`. See the operation description.');

/** The compare range of `range` under `mode`; null for `none`. */
export function compareRange(range: DayRange, mode: CompareMode): DayRange | null {
  if (mode === 'none') return null;
  if (mode === 'previous') return previousPeriod(range);
  return monthsEarlier(range, mode === 'prevMonth' ? 1 : 12);
}

/** `data.compare`: the compare range, or null for `none`. */
export const compareRangeSchema = z
  .strictObject({ from: z.iso.date(), to: z.iso.date() })
  .nullable()
  .describe('The compare range (both days included), or null when `compare` is `none`.');

/**
 * The query of the surfaces with compare periods and dimension tables (website overview and search, store).
 * `granularity` buckets both series, `series` and `previousSeries`, each within its own range.
 */
export const comparedRangeQuery = z
  .object({ client: clientParam, ...dateRange, compare: compareParam, limit: tableLimitParam, granularity: granularityParam })
  .superRefine(checkDateRange, whenDatesAreReal);

export type ComparedRangeQuery = z.infer<typeof comparedRangeQuery>;
