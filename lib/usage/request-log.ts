// The request log (`request_log`) and the daily request counts (`request_counts_daily`): one record per
// REST or MCP request made with a credential, taken by the gate once the answer is known
// (lib/operations/gate.ts) and written in batches after the answers have gone, so that logging never
// adds to a request's time. One statement writes a batch and adds it to the daily counts, which the
// usage charts read: they never scan the log, and outlive its retention and its cap per organisation.
// The queue is bounded: when the database cannot keep up, the oldest unwritten records are dropped
// (and that is logged), never the requests themselves. So that no credential can flush the others'
// trail, its refusals are logged once per rate-limit window, and the cap per organisation is shared
// among its credentials.
//
// Never a credential: a request's path and query are stored redacted (redactUrl). A request refused
// 401 is logged only when its Authorization header names a key of ours (a revoked or expired key, or
// a key sent alongside a second one in the query): the key's hash is resolved to the key at flush time,
// so the refusal costs no lookup; an unknown credential belongs to no organisation and is not logged.
import { hashKey } from '../auth/api-keys';
import { KEY_PATTERN } from '../key-format';
import { looksLikeCredential, REDACTED, redactedPath, SECRET_NAME } from '../text/credential-redaction';
import type { AuthContext } from '../contract/credential';
import { positiveIntegerFromEnv } from '../env';
import { sql, SqlParams } from '../db';
import { displayName, isPlainText } from '../text/plain-text';
import { batchQueue } from './batch-queue';
import { logger } from '../telemetry/logger';

/** What a record says of the answer, as the gate gives it and the log keeps it. */
interface AnswerFacts {
  /** What the usage charts group by (see RequestLogEntry.endpoint in schema.prisma). */
  endpoint: string;
  tool: string | null;
  status: number;
  durationMs: number;
  clientAddress: string | null;
  rateRemaining: number | null;
  rateLimited: boolean;
  requestId: string;
}

/** What the gate knows of a request once it is answered. */
export interface RequestRecord extends Omit<AnswerFacts, 'tool'> {
  /** The credential that was admitted, or null when the request was refused before one was. */
  auth: AuthContext | null;
  /** The raw Authorization header of a refused request: only a key's hash is kept, to find the key. */
  authorization?: string | null;
  method: string;
  url: string;
  tool?: string | null;
  /** When the rate-limit window the request counted in ends (unix seconds): a refusal is logged once per window. */
  rateReset: number | null;
}

interface PendingRow extends AnswerFacts {
  orgId: string | null;
  apiKeyId: string | null;
  keyHash: string | null;
  grantId: string | null;
  oauthClientId: string | null;
  at: Date;
  method: string;
  /** The request's URL as it came: redacted when the batch is written, off the request path. */
  url: string;
  /** False: counted in the daily counts only, with no row in the log (a refusal past its window's first). */
  logged: boolean;
}

/** A batch is written a second after its first record at the latest, or at once when it is full. */
const FLUSH_AFTER_MS = 1_000;
const BATCH_SIZE = 200;
const MAX_PENDING = 10_000;
/** How often a process prunes (each flush checks): past retention, and over the cap per organisation. */
const PRUNE_EVERY_MS = 10 * 60_000;
/** The daily counts are kept longer than the log: the charts show 30 days whatever the log keeps. */
export const REQUEST_COUNTS_RETENTION_DAYS = 90;
/** Bounds of what a record stores of a caller-chosen path and query. */
const PATH_MAX = 512;
const QUERY_MAX = 1_024;

export interface RequestLogSettings {
  enabled: boolean;
  retentionDays: number;
  maxRowsPerOrg: number;
}

/** REQUEST_LOG (on|off), REQUEST_LOG_RETENTION_DAYS (7) and REQUEST_LOG_MAX_ROWS_PER_ORG (100,000), checked. */
export function requestLogSettings(): RequestLogSettings {
  const enabled = process.env.REQUEST_LOG ?? 'on';
  if (enabled !== 'on' && enabled !== 'off') throw new Error(`REQUEST_LOG must be on or off, not "${enabled}"`);
  return {
    enabled: enabled === 'on',
    retentionDays: positiveIntegerFromEnv('REQUEST_LOG_RETENTION_DAYS', 7),
    maxRowsPerOrg: positiveIntegerFromEnv('REQUEST_LOG_MAX_ROWS_PER_ORG', 100_000),
  };
}

/**
 * The path and query of a request as the log keeps them: a path segment or a parameter value that
 * looks like a credential, and every value of a parameter named like one, replaced by `REDACTED`;
 * a parameter name that holds a key is itself replaced. Both are cut to a bounded length.
 */
export function redactUrl(url: string): { path: string; query: string } {
  const parsed = new URL(url);
  const path = redactedPath(parsed.pathname).slice(0, PATH_MAX);
  const query = new URLSearchParams();
  for (const [name, value] of parsed.searchParams) {
    const safeName = looksLikeCredential(name) ? REDACTED : name;
    query.append(safeName, SECRET_NAME.test(name) || safeName === REDACTED || looksLikeCredential(value) ? REDACTED : value);
  }
  return { path, query: query.toString().slice(0, QUERY_MAX) };
}

/** What pruning remembers between batches, shared by every bundle of the process (see batch-queue.ts). */
interface Pruning {
  at: number;
  /** Organisations written to since the last prune: only these can be over the cap. */
  touched: Set<string>;
}

const globalForRequestLog = globalThis as unknown as { metricsRequestLogPruning?: Pruning };

function pruning(): Pruning {
  globalForRequestLog.metricsRequestLogPruning ??= { at: Date.now(), touched: new Set() };
  return globalForRequestLog.metricsRequestLogPruning;
}

/** The hash of the key a refused request's Authorization header names, if it names one. */
function presentedKeyHash(authorization: string | null | undefined): string | null {
  const key = /^Bearer (\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
  return key && KEY_PATTERN.test(key) ? hashKey(key) : null;
}

/**
 * Refusals (429) are logged sampled: a credential's first refusal in each rate-limit window gets a row
 * in the log, its others in that window are only counted in the daily counts. A key refused 20,000
 * times a minute thus writes one row a minute for its refusals, not 20,000 that would push every
 * other credential's rows past the organisation's cap. Per process: each instance logs its first.
 */
const SAMPLED_CREDENTIALS_MAX = 10_000;

const globalForRefusals = globalThis as unknown as { metricsRequestLogRefusals?: Map<string, number> };

/** Whether a refusal of `credential` in the window ending at `reset` is the first: the one that is logged. */
function firstRefusalOfWindow(credential: string, reset: number): boolean {
  const logged = (globalForRefusals.metricsRequestLogRefusals ??= new Map());
  if (logged.get(credential) === reset) return false;
  if (logged.size >= SAMPLED_CREDENTIALS_MAX) {
    // Windows that have ended need no memory; past that, forgetting costs at most one more row each.
    const now = Date.now() / 1000;
    for (const [known, end] of logged) if (end < now) logged.delete(known);
    if (logged.size >= SAMPLED_CREDENTIALS_MAX) logged.clear();
  }
  logged.set(credential, reset);
  return true;
}

/** Whether requests are logged now (REQUEST_LOG is not `off`): read on each request, so that it costs nothing when off. */
export function requestLogEnabled(): boolean {
  return process.env.REQUEST_LOG !== 'off';
}

/** Queues one request's record (nothing when REQUEST_LOG=off); it is written within a second. */
export function recordRequest(record: RequestRecord, now = new Date()): void {
  if (!requestLogEnabled()) return;
  const { auth } = record;
  const keyHash = auth ? null : presentedKeyHash(record.authorization);
  if (!auth && !keyHash) return;
  const apiKeyId = auth?.kind === 'api_key' ? auth.keyId : null;
  const grantId = auth?.kind === 'oauth_grant' ? auth.grantId : null;
  requestQueue.push({
    orgId: auth?.orgId ?? null,
    apiKeyId,
    keyHash,
    grantId,
    oauthClientId: auth?.kind === 'oauth_grant' ? auth.clientId : null,
    at: now,
    method: record.method.slice(0, 16),
    url: record.url,
    endpoint: record.endpoint.slice(0, PATH_MAX),
    tool: record.tool?.slice(0, PATH_MAX) ?? null,
    status: record.status,
    durationMs: Math.max(0, Math.round(record.durationMs)),
    clientAddress: record.clientAddress,
    rateRemaining: record.rateRemaining,
    rateLimited: record.rateLimited,
    requestId: record.requestId,
    logged: record.status !== 429 || firstRefusalOfWindow((apiKeyId ?? grantId ?? keyHash)!, record.rateReset ?? 0),
  });
}

// One statement per batch, the same text whatever its size (prepared once per connection): the rows
// arrive as one array per column. Keys named by a refused request are resolved here; a row that belongs
// to no organisation is dropped. The daily counts take the same rows, grouped, in the same transaction.
const COLUMNS = [
  ['org_id', 'uuid'],
  ['api_key_id', 'uuid'],
  ['key_hash', 'text'],
  ['grant_id', 'text'],
  ['oauth_client_id', 'text'],
  ['created_at', 'timestamptz'],
  ['method', 'text'],
  ['path', 'text'],
  ['query', 'text'],
  ['endpoint', 'text'],
  ['tool', 'text'],
  ['status', 'int2'],
  ['duration_ms', 'int4'],
  ['client_address', 'text'],
  ['rate_remaining', 'int4'],
  ['rate_limited', 'bool'],
  ['request_id', 'uuid'],
  ['logged', 'bool'],
] as const;

const WRITE_BATCH = `
  WITH batch AS (
    SELECT coalesce(b.org_id, k.org_id) AS org_id, coalesce(b.api_key_id, k.id) AS api_key_id, b.grant_id, b.oauth_client_id,
           b.created_at, b.method, b.path, b.query, b.endpoint, b.tool, b.status, b.duration_ms, b.client_address,
           b.rate_remaining, b.rate_limited, b.request_id, b.logged
      FROM unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
           AS b(${COLUMNS.map(([name]) => name).join(', ')})
      LEFT JOIN api_keys k ON b.key_hash IS NOT NULL AND k.hash = b.key_hash
  ), logged AS (
    INSERT INTO request_log (org_id, api_key_id, grant_id, oauth_client_id, created_at, method, path, query, endpoint, tool,
                             status, duration_ms, client_address, rate_remaining, rate_limited, request_id)
    SELECT org_id, api_key_id, grant_id, oauth_client_id, created_at, method, path, query, endpoint, tool,
           status, duration_ms, client_address, rate_remaining, rate_limited, request_id
      FROM batch WHERE org_id IS NOT NULL AND logged
  )
  INSERT INTO request_counts_daily (org_id, day, subject, oauth_client_id, endpoint, status_class, requests)
  SELECT org_id, (created_at AT TIME ZONE 'UTC')::date,
         CASE WHEN api_key_id IS NOT NULL THEN 'key:' || api_key_id ELSE 'grant:' || grant_id END,
         min(oauth_client_id), endpoint,
         CASE WHEN status = 429 THEN '429' ELSE (status / 100) || 'xx' END, count(*)
    FROM batch WHERE org_id IS NOT NULL
   GROUP BY 1, 2, 3, 5, 6
   ORDER BY 1, 2, 3, 5, 6
  ON CONFLICT (org_id, day, subject, endpoint, status_class)
  DO UPDATE SET requests = request_counts_daily.requests + excluded.requests`;

async function writeBatch(rows: PendingRow[]): Promise<void> {
  const columns: unknown[][] = COLUMNS.map(() => []);
  for (const row of rows) {
    const { path, query } = redactUrl(row.url);
    const values = [
      row.orgId, row.apiKeyId, row.keyHash, row.grantId, row.oauthClientId, row.at, row.method, path, query,
      row.endpoint, row.tool, row.status, row.durationMs, row.clientAddress, row.rateRemaining, row.rateLimited, row.requestId, row.logged,
    ];
    values.forEach((value, i) => columns[i]!.push(value));
    if (row.orgId) pruning().touched.add(row.orgId);
  }
  await sql(WRITE_BATCH, columns);
}

const requestQueue = batchQueue<PendingRow>({
  name: 'request-log',
  records: 'request records',
  flushAfterMs: FLUSH_AFTER_MS,
  batchSize: BATCH_SIZE,
  maxPending: MAX_PENDING,
  flushWhenFull: true,
  write: writeBatch,
  async afterFlush() {
    if (Date.now() - pruning().at <= PRUNE_EVERY_MS) return;
    await pruneRequestLog().catch((error: Error) => logger().warn(`[request-log] pruning failed: ${error.message}`));
  },
});

/** Writes every queued record now (tests and the server's shutdown call it; otherwise the timer does), and prunes when due. */
export function flushRequestLog(): Promise<void> {
  return requestQueue.flush();
}

/**
 * How many of its newest rows each credential keeps so that an organisation holds at most `cap`: the
 * greatest share that fits, given that a credential with fewer rows keeps all of them (its unused
 * share goes to the others), and at least its newest row (so an organisation with more credentials
 * than the cap holds one row each). `counts` are the rows of each credential; null when all fit.
 */
export function rowsKeptPerCredential(counts: number[], cap: number): number | null {
  const ascending = [...counts].sort((a, b) => a - b);
  let room = cap;
  for (const [index, rows] of ascending.entries()) {
    const share = Math.floor(room / (ascending.length - index));
    if (rows > share) return Math.max(1, share);
    room -= rows;
  }
  return null;
}

/**
 * Deletes the records past REQUEST_LOG_RETENTION_DAYS, the oldest records of each written-to
 * organisation over REQUEST_LOG_MAX_ROWS_PER_ORG, and daily counts past REQUEST_COUNTS_RETENTION_DAYS.
 * The cap is shared among the organisation's credentials (rowsKeptPerCredential): rows are taken from
 * the credentials with the most, so one key's burst cuts its own trail, never another credential's
 * rows (before, the organisation's newest rows were kept, and a burst pushed out everyone else's).
 * `orgIds` (tests) names the organisations to hold to the cap; by default those written to since the last prune.
 */
export async function pruneRequestLog(orgIds?: string[]): Promise<void> {
  const state = pruning();
  state.at = Date.now();
  const { retentionDays, maxRowsPerOrg } = requestLogSettings();
  const capped = orgIds ?? [...state.touched];
  state.touched = new Set();
  await sql(`DELETE FROM request_log WHERE created_at < now() - make_interval(days => $1)`, [retentionDays]);
  await sql(`DELETE FROM request_counts_daily WHERE day < (now() AT TIME ZONE 'UTC')::date - $1::int`, [REQUEST_COUNTS_RETENTION_DAYS]);
  for (const orgId of capped) {
    const counts = await sql<{ rows: number }>(
      `SELECT count(*)::int AS rows FROM request_log WHERE org_id = $1 GROUP BY coalesce(api_key_id::text, grant_id)`,
      [orgId],
    );
    const kept = rowsKeptPerCredential(counts.map((row) => row.rows), maxRowsPerOrg);
    if (kept === null) continue;
    await sql(
      `DELETE FROM request_log WHERE id IN (
         SELECT id FROM (
           SELECT id, row_number() OVER (PARTITION BY coalesce(api_key_id::text, grant_id) ORDER BY created_at DESC, id DESC) AS newness
             FROM request_log WHERE org_id = $1
         ) ranked WHERE newness > $2
       )`,
      [orgId, kept],
    );
  }
}

// ---- Reading: the settings pages (a key's page, the organisation's usage, a connected app's page) ----

/** Whose requests: the organisation's, one key's, one grant's, or every grant of one OAuth client. */
export type RequestScope =
  | { orgId: string; kind: 'org' }
  | { orgId: string; kind: 'key'; keyId: string }
  | { orgId: string; kind: 'grant'; grantId: string }
  | { orgId: string; kind: 'oauth_client'; clientId: string };

/** The status classes, disjoint, as the charts stack them. */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '429', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

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

/** The WHERE conditions of a scope, on a table with org_id, api_key_id/subject, grant_id and oauth_client_id. */
function scopeConditions(scope: RequestScope, params: SqlParams, table: 'log' | 'counts'): string[] {
  const conditions = [`org_id = ${params.add(scope.orgId)}::uuid`];
  if (scope.kind === 'key') conditions.push(table === 'log' ? `api_key_id = ${params.add(scope.keyId)}::uuid` : `subject = ${params.add(`key:${scope.keyId}`)}`);
  if (scope.kind === 'grant') conditions.push(table === 'log' ? `grant_id = ${params.add(scope.grantId)}` : `subject = ${params.add(`grant:${scope.grantId}`)}`);
  if (scope.kind === 'oauth_client') conditions.push(`oauth_client_id = ${params.add(scope.clientId)}`);
  return conditions;
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

export type ClassCounts = Record<StatusClass, number>;

export interface DailyRequests {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  counts: ClassCounts;
  total: number;
}

export interface EndpointRequests {
  endpoint: string;
  counts: ClassCounts;
  total: number;
}

export interface RequestUsage {
  /** Every day of the period, oldest first, days without requests included (zero). */
  days: DailyRequests[];
  /** The endpoints (REST paths, MCP tools) of the period, busiest first. */
  endpoints: EndpointRequests[];
  total: number;
}

function noCounts(): ClassCounts {
  return { '2xx': 0, '3xx': 0, '4xx': 0, '429': 0, '5xx': 0 };
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A scope's requests per UTC day over the last `days` days (today included), by status class and by endpoint, from the daily counts. */
export async function requestUsage(scope: RequestScope, days = 30, now = new Date()): Promise<RequestUsage> {
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const first = new Date(last.getTime() - (days - 1) * 86_400_000);
  const params = new SqlParams();
  const conditions = [...scopeConditions(scope, params, 'counts'), `day BETWEEN ${params.add(isoDay(first))}::date AND ${params.add(isoDay(last))}::date`];
  const rows = await sql<{ day: string; endpoint: string; statusClass: StatusClass; requests: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, endpoint, status_class AS "statusClass", sum(requests) AS requests
       FROM request_counts_daily WHERE ${conditions.join(' AND ')}
      GROUP BY day, endpoint, status_class`,
    params.values,
  );
  const byDay = new Map<string, DailyRequests>();
  for (let time = first.getTime(); time <= last.getTime(); time += 86_400_000) {
    const day = isoDay(new Date(time));
    byDay.set(day, { day, counts: noCounts(), total: 0 });
  }
  const byEndpoint = new Map<string, EndpointRequests>();
  let total = 0;
  for (const row of rows) {
    const requests = Number(row.requests);
    const daily = byDay.get(row.day)!;
    daily.counts[row.statusClass] += requests;
    daily.total += requests;
    let endpoint = byEndpoint.get(row.endpoint);
    if (!endpoint) byEndpoint.set(row.endpoint, (endpoint = { endpoint: row.endpoint, counts: noCounts(), total: 0 }));
    endpoint.counts[row.statusClass] += requests;
    endpoint.total += requests;
    total += requests;
  }
  const endpoints = [...byEndpoint.values()].sort((a, b) => b.total - a.total || a.endpoint.localeCompare(b.endpoint));
  return { days: [...byDay.values()], endpoints, total };
}
