// Query-string parsing shared by every endpoint: one zod schema per endpoint, every problem reported.
import { z } from 'zod';
import { daysInclusive, isRealDay } from '../time/days';
import { ApiError, type FieldError } from './errors';

export const MAX_RANGE_DAYS = 366;

export const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine(isRealDay, 'is not a real calendar date')
  // The refinement does not reach JSON Schema; `format: date` tells OpenAPI readers the same.
  .meta({ format: 'date' });

export const dateRange = {
  from: isoDay.describe('First day of the range, included (YYYY-MM-DD).'),
  to: isoDay.describe('Last day of the range, included (YYYY-MM-DD). At most 366 days after `from`, counting both.'),
};

export const clientParam = z
  .uuid('must be a client id (a UUID) from /clients')
  .optional()
  .describe('Restrict to one client (an id from /clients). Without it, every client this credential can read.');

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

/**
 * Parses a query string with an endpoint's schema. Unknown and repeated parameters are refused
 * (a typo such as `form=` would otherwise be silently ignored and answer a different question).
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
    else values[name] = all[0]!;
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String).join('.');
      if (!errors.some((e) => e.path === path)) errors.push({ path, message: values[path] === undefined ? 'is required' : issue.message });
    }
  }
  if (errors.length > 0 || !parsed.success) {
    throw new ApiError('validation_failed', `The query has ${errors.length} problem${errors.length === 1 ? '' : 's'}; see errors[].`, { errors });
  }
  return parsed.data;
}
