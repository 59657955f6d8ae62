// The request log read a page at a time, newest first, for the settings pages.
import { sql, SqlParams } from '../db';
import { displayName, isPlainText } from '../text/plain-text';
import type { AnswerFacts } from './request-log';
import { scopeConditions, type RequestScope, type StatusClass } from './request-scope';

/** What the log can be filtered by: a status class (the charts' disjoint ones: `4xx` is other than 429), an endpoint, a request id. */
export interface RequestLogFilter {
  status?: StatusClass;
  endpoint?: string;
  requestId?: string;
}

export interface RequestLogEntry extends AnswerFacts {
  id: string;
  at: Date;
  method: string;
  path: string;
  query: string;
  apiKeyId: string | null;
  grantId: string | null;
  /** The key's name, or the connected app's. */
  caller: string;
  /** The key's prefix (null for an app, or a key since deleted): a rotated key and its successor share a name. */
  callerPrefix: string | null;
}

export interface RequestLogPage {
  entries: RequestLogEntry[];
  /** The cursor of the next (older) page, or null when this is the last. */
  next: string | null;
  /** The cursor of the page before it (newer), or null when this is the newest. */
  newer: string | null;
  /** The filter as it was read: without an endpoint that names none. */
  filter: RequestLogFilter;
  /** Whether a cursor was read (an older page); false when there was none or it was out of its bounds. */
  older: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page's cursor: the time and id of its last entry (keyset pagination, stable while rows are added). */
function encodeCursor(entry: { at: Date; id: string }): string {
  return Buffer.from(`${entry.at.toISOString()}|${entry.id}`).toString('base64url');
}

/**
 * The cursor's bounds: ids are bigint, and times are held to the years 1 to 9999, which PostgreSQL and
 * JavaScript both read alike (PostgreSQL's timestamps start in 4713 BC, JavaScript's dates earlier, and
 * pg writes a year before 1 as BC). A cursor out of them was made by no page and reads the first page:
 * passed on, it failed the statement (bigint out of range, a date PostgreSQL cannot read) with a 500.
 */
const CURSOR_ID_MAX = 2n ** 63n - 1n;
const CURSOR_TIME_MIN = Date.parse('0001-01-01T00:00:00.000Z');
const CURSOR_TIME_MAX = Date.parse('9999-12-31T23:59:59.999Z');

function decodeCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const time = new Date(at ?? '').getTime();
  if (!(time >= CURSOR_TIME_MIN && time <= CURSOR_TIME_MAX) || !/^\d{1,19}$/.test(id ?? '') || BigInt(id!) > CURSOR_ID_MAX) return null;
  return { at: new Date(time), id: id! };
}

const STATUS_RANGES: Record<StatusClass, string> = {
  '2xx': 'status BETWEEN 200 AND 299',
  '3xx': 'status BETWEEN 300 AND 399',
  '4xx': 'status BETWEEN 400 AND 499 AND status <> 429',
  '429': 'status = 429',
  '5xx': 'status BETWEEN 500 AND 599',
};

/** Where a page starts: older than the `before` cursor (the next page), or newer than `after` (the page before). */
export interface RequestLogCursor {
  before?: string;
  after?: string;
}

/**
 * One page of a scope's requests, newest first. A malformed cursor (or one out of its bounds) reads from
 * the newest, an endpoint that is not plain text filters nothing, and a malformed request id finds nothing.
 * Fewer than a page's worth of requests newer than `after` is the newest page itself.
 */
export async function requestLogPage(scope: RequestScope, filter: RequestLogFilter = {}, cursor: RequestLogCursor = {}, limit = 50): Promise<RequestLogPage> {
  // An endpoint that is not plain text (U+0000 above all, which PostgreSQL text cannot hold) names none: no filter.
  const { endpoint, ...rest } = filter;
  const applied: RequestLogFilter = endpoint && isPlainText(endpoint) ? { ...rest, endpoint } : rest;
  const before = decodeCursor(cursor.before);
  const after = before ? null : decodeCursor(cursor.after);
  if (applied.requestId !== undefined && !UUID.test(applied.requestId)) return { entries: [], next: null, newer: null, filter: applied, older: before !== null || after !== null };
  if (after) {
    const rows = await logRows(scope, applied, { after }, limit + 1);
    // Not a full page newer than the cursor: the newest page, as its own address shows it.
    if (rows.length <= limit) return requestLogPage(scope, filter, {}, limit);
    const entries = rows.slice(0, limit).reverse();
    return { entries, next: encodeCursor(entries.at(-1)!), newer: encodeCursor(entries[0]!), filter: applied, older: true };
  }
  const rows = await logRows(scope, applied, before ? { before } : {}, limit + 1);
  const entries = rows.slice(0, limit);
  return {
    entries,
    next: rows.length > limit ? encodeCursor(entries.at(-1)!) : null,
    newer: before && entries.length > 0 ? encodeCursor(entries[0]!) : null,
    filter: applied,
    older: before !== null,
  };
}

/** Up to `limit` requests of the scope through the filter: older than `before` newest first, or newer than `after` oldest first. */
async function logRows(scope: RequestScope, filter: RequestLogFilter, at: { before?: { at: Date; id: string }; after?: { at: Date; id: string } }, limit: number): Promise<RequestLogEntry[]> {
  const params = new SqlParams();
  const conditions = scopeConditions(scope, params, 'log');
  if (filter.status) conditions.push(STATUS_RANGES[filter.status]);
  if (filter.endpoint) conditions.push(`endpoint = ${params.add(filter.endpoint)}`);
  if (filter.requestId !== undefined) conditions.push(`request_id = ${params.add(filter.requestId)}::uuid`);
  if (at.before) conditions.push(`(created_at, id) < (${params.add(at.before.at)}::timestamptz, ${params.add(at.before.id)}::bigint)`);
  if (at.after) conditions.push(`(created_at, id) > (${params.add(at.after.at)}::timestamptz, ${params.add(at.after.id)}::bigint)`);
  const order = at.after ? 'ASC' : 'DESC';
  const rows = await sql<RequestLogEntry>(
    `SELECT r.id::text, r.created_at AS at, r.method, r.path, r.query, r.endpoint, r.tool, r.status, r.duration_ms AS "durationMs",
            r.client_address AS "clientAddress", r.rate_remaining AS "rateRemaining", r.rate_limited AS "rateLimited",
            r.request_id AS "requestId", r.api_key_id AS "apiKeyId", r.grant_id AS "grantId", k.prefix AS "callerPrefix",
            coalesce(k.name, g.client_name, CASE WHEN r.api_key_id IS NULL THEN 'a revoked app' ELSE 'a deleted key' END) AS caller
       FROM (SELECT * FROM request_log WHERE ${conditions.join(' AND ')}
              ORDER BY created_at ${order}, id ${order} LIMIT ${params.add(limit)}) r
       LEFT JOIN api_keys k ON k.id = r.api_key_id
       LEFT JOIN oauth_payloads g ON g.model = 'Grant' AND g.id = r.grant_id
      ORDER BY r.created_at ${order}, r.id ${order}`,
    params.values,
  );
  return rows.map((row) => ({ ...row, caller: displayName(row.caller) }));
}
