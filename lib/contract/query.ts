// Query-string parsing shared by every endpoint: one zod schema per endpoint, every problem reported.
import { z } from 'zod';
import { addDays, dayNumber, daysInclusive, isRealDay, todayIn, type IsoDay } from '../time/days';
import { GRANULARITIES } from '../time/buckets';
import { isPlainText, PLAIN_TEXT_MESSAGE } from '../text/plain-text';
import { ApiError, type FieldError } from './errors';
import { DEFAULT_ANSWER_TOKENS } from './limits';

export const MAX_RANGE_DAYS = 366;

/**
 * The days a `from` or `to` may name: from the first day of 2000, before any source we read kept
 * data, to a year after today in IST (the zone of the ads and social days, ahead of most source
 * zones), so that a calendar year or the next 12 months can be asked for ahead of time. Outside it
 * nothing can have been synced; inside it every day derived from a query (compare ranges a year
 * back, the restatement window after `to`) stays well within what the day arithmetic and
 * PostgreSQL's `date` hold.
 */
const DATE_WINDOW = { firstDay: '2000-01-01', daysAfterToday: 366, timeZone: 'Asia/Kolkata' } as const;

/** The first and last day of the date window now. */
function dateWindow(): { first: IsoDay; last: IsoDay } {
  return { first: DATE_WINDOW.firstDay, last: addDays(todayIn(DATE_WINDOW.timeZone), DATE_WINDOW.daysAfterToday) };
}

/** The window as the documentation states it. */
const DATE_WINDOW_RULE = `from ${DATE_WINDOW.firstDay} to ${DATE_WINDOW.daysAfterToday} days after today in IST (${DATE_WINDOW.timeZone})`;

/** Why a real day is outside the window, or null when it is inside. */
function outsideWindow(day: IsoDay): string | null {
  const { first, last } = dateWindow();
  if (dayNumber(day) < dayNumber(first)) return `must be on or after ${first}`;
  if (dayNumber(day) > dayNumber(last)) return `must be on or before ${last} (${DATE_WINDOW.daysAfterToday} days after today in IST)`;
  return null;
}

export const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine(isRealDay, 'is not a real calendar date')
  .superRefine((day, ctx) => {
    const problem = isRealDay(day) ? outsideWindow(day) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  // The refinements do not reach JSON Schema; `format: date` tells OpenAPI readers the same.
  .meta({ format: 'date' });

export const dateRange = {
  from: isoDay.describe(`First day of the range, included (YYYY-MM-DD), ${DATE_WINDOW_RULE}.`),
  to: isoDay.describe(
    `Last day of the range, included (YYYY-MM-DD), ${DATE_WINDOW_RULE}. At most ${MAX_RANGE_DAYS} days after \`from\`, counting both.`,
  ),
};

export const clientParam = z
  .uuid('must be a client id (a UUID) from /clients')
  .optional()
  .describe('Restrict to one client (an id from /clients). Without it, every client this credential can read.');

/** A text or id parameter of 1 to `max` characters (every such parameter has a cap). */
export function boundedText(max: number) {
  const message = `must be 1 to ${max} characters long`;
  return z.string().min(1, message).max(max, message);
}

/** A whole-number parameter from 1 to `max`, `fallback` when absent. */
export function boundedCount(max: number, fallback: number) {
  const message = `must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(1, message).max(max, message).default(fallback);
}

/**
 * The `limit` argument of an MCP list tool: 1 to the REST cap, `fallback` when absent (enough to see the
 * top while the answer stays within the default budget of lib/mcp/budget.ts). A longer list is cut by
 * that budget, never by asking for more: a cut answer's `meta.nextOffset` (and its text) says which `offset` continues it.
 */
export function toolLimit(cap: number, what: string, fallback: number) {
  // The bounds and the default are the schema's own keywords; the description says what they do not.
  return boundedCount(cap, fallback).describe(`Most ${what}; when more exist, \`meta.nextOffset\` is the \`offset\` to read on.`);
}

/** The largest `offset`: far beyond any list an organisation has, a bound on the database's work. */
export const MAX_OFFSET = 1_000_000;

/** `offset` of a list: how many rows of the same ordered list to skip, 0 when absent. */
export function offsetParam(what: string) {
  const message = `must be a whole number from 0 to ${MAX_OFFSET}`;
  return z.coerce
    .number({ error: message })
    .int(message)
    .min(0, message)
    .max(MAX_OFFSET, message)
    .default(0)
    .describe(`${what[0]!.toUpperCase()}${what.slice(1)} of the same list to skip, 0 to ${MAX_OFFSET}; default 0. With the other parameters unchanged, the count already read continues a truncated list.`);
}

export type { Granularity } from '../time/buckets';

/** `granularity` of an overview's series: days (default), ISO weeks or calendar months, clipped to the range. */
export const granularityParam = z
  .enum(GRANULARITIES)
  .default('day')
  .describe(
    'Series buckets: `day` (default), `week` (ISO, Monday to Sunday) or `month`; the first and last are clipped to the range, a point\'s `date` is its first day. `week`/`month` suit long ranges.',
  );

/**
 * `granularity` of an MCP overview tool: no default in the schema, because without it the MCP door picks
 * the finest of day, week and month whose answer fits the default answer budget (lib/mcp/tools.ts).
 */
export function toolGranularity() {
  return z
    .enum(GRANULARITIES)
    .optional()
    .describe(
      `Series buckets (ISO weeks; the first and last clipped to the range). Default: day, or week or month when by day the answer would pass ${DEFAULT_ANSWER_TOKENS.toLocaleString('en-GB')} tokens (\`meta.granularity\`).`,
    );
}

export const SERIES_CHOICES = ['auto', 'all', 'none'] as const;
export type SeriesChoice = (typeof SERIES_CHOICES)[number];

/** The `series` argument of an MCP overview tool: whether the series comes, and whether its buckets may be coarsened. */
export function toolSeries() {
  return z
    .enum(SERIES_CHOICES)
    .default('auto')
    .describe(
      '`auto`: by `granularity` (see it); `all`: by `granularity`, default day; `none`: no series.',
    );
}

/** Whether an answer keeps its series: a REST query has no `series` and always does. */
export function keepsSeries(query: { series?: SeriesChoice }): boolean {
  return query.series !== 'none';
}

/**
 * Checks `from ≤ to` and the 366-day cap. Add it as `.superRefine(checkDateRange, whenDatesAreReal)`
 * on a schema with `dateRange`: the condition lets it run even when another parameter is wrong, so
 * a bad range is listed beside every other problem of the query.
 */
export function checkDateRange(query: { from: string; to: string }, ctx: z.RefinementCtx): void {
  if (query.from > query.to) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be on or after `from`' });
  } else if (daysInclusive(query.from, query.to) > MAX_RANGE_DAYS) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: `the range may not exceed ${MAX_RANGE_DAYS} days (from and to included)` });
  }
}

export const whenDatesAreReal = {
  when: (payload: { value: unknown }) => {
    const value = payload.value as { from?: unknown; to?: unknown } | undefined;
    return typeof value?.from === 'string' && typeof value.to === 'string' && isRealDay(value.from) && isRealDay(value.to);
  },
};

/** Any zod object schema used for a query string (refinements keep it a ZodObject in zod 4). */
export type QuerySchema = z.ZodObject<z.ZodRawShape>;

/** What every query must satisfy, stated once for the OpenAPI document and the errors page. */
export const QUERY_RULES = [
  'Unknown and repeated parameters are refused (a typo such as `form=` would otherwise silently answer a different question).',
  `Dates are \`YYYY-MM-DD\` calendar days that exist, ${DATE_WINDOW_RULE}; \`from\` must not be after \`to\`, and a range covers at most ${MAX_RANGE_DAYS} days counting both ends.`,
  'No value may contain an invisible control character, such as a tab or a line break (U+0000 to U+001F and U+007F to U+009F), or half of a character pair (a lone surrogate); every text and id parameter has a maximum length, stated with the parameter.',
];

/**
 * Parses a query string with an endpoint's schema. Unknown and repeated parameters are refused
 * (a typo such as `form=` would otherwise be silently ignored and answer a different question), and
 * so is any value that is not plain text, whatever the parameter, before the schema sees it.
 * Every problem is listed, not only the first.
 */
export function parseQuery<S extends QuerySchema>(params: URLSearchParams, schema: S): z.infer<S> {
  const errors: FieldError[] = [];
  const known = new Set(Object.keys(schema.shape));
  const values: Record<string, string> = {};
  for (const name of new Set(params.keys())) {
    const all = params.getAll(name);
    if (!known.has(name)) errors.push({ path: name, message: 'is not a parameter of this endpoint' });
    else if (all.length > 1) errors.push({ path: name, message: 'must be given once' });
    else if (!isPlainText(all[0]!)) errors.push({ path: name, message: PLAIN_TEXT_MESSAGE });
    else values[name] = all[0]!;
  }
  return validateValues(values, errors, schema);
}

const argumentTypes = new WeakMap<QuerySchema, Map<string, 'integer' | 'string'>>();

/** The JSON type each argument of this schema takes on MCP: `integer` for counts, else `string`. */
function argumentTypesOf(schema: QuerySchema): Map<string, 'integer' | 'string'> {
  let types = argumentTypes.get(schema);
  if (!types) {
    const properties = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }).properties ?? {};
    types = new Map(
      Object.entries(properties).map(([name, property]) => [
        name,
        typeof property === 'object' && (property.type === 'integer' || property.type === 'number') ? 'integer' : 'string',
      ]),
    );
    argumentTypes.set(schema, types);
  }
  return types;
}

/**
 * Parses the JSON arguments of an MCP tool call with the same schema and the same rules as a query
 * string: each argument must have its JSON type (a count is a number, everything else a string), and is
 * then checked exactly as the same text in a query string would be. One validation for both doors.
 */
export function parseArguments<S extends QuerySchema>(args: unknown, schema: S): z.infer<S> {
  const errors: FieldError[] = [];
  const values: Record<string, string> = {};
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    errors.push({ path: '', message: 'the arguments must be a JSON object' });
  } else {
    const types = argumentTypesOf(schema);
    for (const [name, value] of Object.entries(args ?? {})) {
      const type = types.get(name);
      if (type === undefined) {
        errors.push({ path: name, message: 'is not a parameter of this tool' });
      } else if (type === 'integer') {
        if (typeof value === 'number' && Number.isFinite(value)) values[name] = String(value);
        else errors.push({ path: name, message: 'must be a number' });
      } else if (typeof value !== 'string') errors.push({ path: name, message: 'must be a string' });
      else if (!isPlainText(value)) errors.push({ path: name, message: PLAIN_TEXT_MESSAGE });
      else values[name] = value;
    }
  }
  return validateValues(values, errors, schema);
}

/**
 * An issue in the wording of the other messages ("must be …"). Our schemas word their own, but a choice
 * among values (`z.enum`) comes with zod's ("Invalid option: expected one of …"): said here once for all.
 */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map((value) => `\`${String(value)}\``).join(', ')}`;
  return issue.message;
}

/** Runs the schema over values already checked for shape; throws 400 listing every problem. */
function validateValues<S extends QuerySchema>(values: Record<string, string>, errors: FieldError[], schema: S): z.infer<S> {
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String).join('.');
      if (!errors.some((e) => e.path === path)) errors.push({ path, message: values[path] === undefined ? 'is required' : issueMessage(issue) });
    }
  }
  if (errors.length > 0 || !parsed.success) {
    throw new ApiError('validation_failed', `The query has ${errors.length} problem${errors.length === 1 ? '' : 's'}; see errors[].`, { errors });
  }
  return parsed.data;
}
