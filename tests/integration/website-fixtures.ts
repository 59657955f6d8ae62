// Fixtures for the website and store tests: organisations of their own (so that parallel test files
// are not disturbed), deterministic daily rows, and the reference arithmetic the expectations are
// computed with, written independently of lib/metrics (plain JS over the fixture rows).
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { sql } from '@/lib/db';
import { eachDay } from '@/lib/time/days';

export type Row = Record<string, string | number | null>;

/** A small deterministic generator (mulberry32), so fixtures are the same on every run. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function createOrg(name: string): Promise<{ orgId: string; clientA: string; clientB: string }> {
  const orgId = randomUUID();
  await sql('INSERT INTO organizations (id, slug, name) VALUES ($1, $2, $3)', [orgId, `${name}-${orgId.slice(0, 8)}`, name]);
  const clientA = randomUUID();
  const clientB = randomUUID();
  await sql('INSERT INTO clients (id, org_id, name) VALUES ($1, $3, $4), ($2, $3, $5)', [clientA, clientB, orgId, `${name} A`, `${name} B`]);
  return { orgId, clientA, clientB };
}

/** Inserts rows whose keys are the table's column names (columns left out are null). */
export async function insertRows(table: string, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) {
    await sql(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)`, [JSON.stringify(rows.slice(i, i + 5000))]);
  }
}

export async function recordSync(orgId: string, source: string, resourceId: string, finishedAt: string, status = 'succeeded'): Promise<void> {
  await sql(
    `INSERT INTO sync_runs (id, org_id, source, resource_id, status, started_at, finished_at)
     VALUES ($1, $2, $3::"SyncSource", $4, $5::"SyncStatus", $6::timestamptz - interval '5 minutes', $6::timestamptz)`,
    [randomUUID(), orgId, source, resourceId, status, finishedAt],
  );
}

// ───────────────────────── reference arithmetic ─────────────────────────

export const inRange = (from: string, to: string) => (row: Row) => (row.date as string) >= from && (row.date as string) <= to;

/** Σ of a column with the null rule: null when every row leaves it null. Money columns are added in cents, exactly. */
export function total(rows: Row[], column: string, money = false): number | null {
  const values = rows.map((row) => row[column]).filter((value): value is number => value !== null && value !== undefined) as number[];
  if (values.length === 0) return null;
  if (money) return values.reduce((sum, value) => sum + Math.round(value * 100), 0) / 100;
  return values.reduce((sum, value) => sum + value, 0);
}

/**
 * A people count over a range: each resource's peak single day (the rows of one resource are one per
 * day), summed over the resources; null when no row reported it.
 */
export function peak(rows: Row[], column: string, resourceColumn: string): number | null {
  const peaks = new Map<string, number>();
  for (const row of rows) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    const resource = row[resourceColumn] as string;
    peaks.set(resource, Math.max(peaks.get(resource) ?? -Infinity, value as number));
  }
  return peaks.size === 0 ? null : [...peaks.values()].reduce((sum, value) => sum + value, 0);
}

export function rate(numerator: number | null, denominator: number | null, scale = 1): number | null {
  if (numerator === null || denominator === null || denominator === 0) return null;
  return (numerator / denominator) * scale;
}

/** Every day of from…to with the day's sums of `columns` (null when nothing was reported that day). */
export function series(rows: Row[], from: string, to: string, columns: Record<string, string>, money: string[] = []): Row[] {
  return eachDay(from, to).map((date) => {
    const day = rows.filter((row) => row.date === date);
    return { date, ...Object.fromEntries(Object.entries(columns).map(([field, column]) => [field, total(day, column, money.includes(field))])) };
  });
}

/**
 * A range from a Wednesday (2024-02-14) to a Sunday and its buckets: the first week is its five days to
 * Sunday 2024-02-18, dated 02-14; the first month is clipped the same way.
 */
export const MID_WEEK_BUCKETS = {
  range: 'from=2024-02-14&to=2024-03-31',
  weeks: [
    ['2024-02-14', '2024-02-18'], ['2024-02-19', '2024-02-25'], ['2024-02-26', '2024-03-03'], ['2024-03-04', '2024-03-10'],
    ['2024-03-11', '2024-03-17'], ['2024-03-18', '2024-03-24'], ['2024-03-25', '2024-03-31'],
  ],
  months: [['2024-02-14', '2024-02-29'], ['2024-03-01', '2024-03-31']],
} as const;

/**
 * The point of the bucket `from`…`to` made from the daily points of the same range: each of `fields`
 * summed over the bucket's days with the null rule (money in cents, exactly), dated by `from`.
 */
export function bucketSums(points: Row[], from: string, to: string, fields: string[], money: string[] = []): Row {
  const days = points.filter(inRange(from, to));
  return { date: from, ...Object.fromEntries(fields.map((field) => [field, total(days, field, money.includes(field))])) };
}

/** Keys of the rows of one dimension, ranked by `sortBy` (descending, unreported last), then key in byte order. */
export function rankedKeys(rows: Row[], sortBy: string): string[] {
  const keys = [...new Set(rows.map((row) => row.key as string))];
  const value = (key: string) => total(rows.filter((row) => row.key === key), sortBy);
  return keys.sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va !== vb) {
      if (va === null) return 1;
      if (vb === null) return -1;
      return vb - va;
    }
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

/** The latest day's value of a text column for a key (label, detail). */
export function latest(rows: Row[], column: string): string | null {
  const sorted = [...rows].sort((a, b) => ((a.date as string) < (b.date as string) ? 1 : -1));
  return (sorted[0]?.[column] as string | null) ?? null;
}

/**
 * A figure computed from floating-point sums: a matcher within 1e-6 even when it is a whole number here,
 * since the same sum added in another order may not be (313806 here, 313806.00000000006 in PostgreSQL).
 */
export function floatFigure(value: number | null): number | null {
  return value === null ? null : (expect.closeTo(value, 6) as unknown as number);
}

/**
 * Replaces every non-integer number of an expected value by a matcher within 1e-6, so that sums of
 * floating-point figures added in another order still compare equal (see floatFigure for one that may
 * come out whole).
 */
export function approx<T>(value: T): T {
  if (typeof value === 'number' && !Number.isInteger(value)) return expect.closeTo(value, 6) as unknown as T;
  if (Array.isArray(value)) return value.map(approx) as unknown as T;
  if (value && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, approx(v)])) as T;
  return value;
}
