// The request log (`request_log`) and the daily request counts (`request_counts_daily`), written: one
// record per REST or MCP request made with a credential, taken by the gate once the answer is known
// (lib/operations/gate.ts) and written in batches after the answers have gone, so that logging never
// adds to a request's time; and pruned. One statement writes a batch and adds it to the daily counts,
// which the usage charts read (request-counts.ts): they never scan the log, and outlive its retention
// and its cap per organisation. The settings pages read the log a page at a time (request-log-page.ts).
// The queue is bounded: when the database cannot keep up, the oldest unwritten records are dropped
// (and that is logged), never the requests themselves. So that no credential can flush the others'
// trail, its refusals are logged once per rate-limit window, and the cap per organisation is shared
// among its credentials.
//
// Never a credential: a request's path and query are stored redacted (request-log-redaction.ts). A
// request refused 401 is logged only when its Authorization header names a key of ours (a revoked or
// expired key, or a key sent alongside a second one in the query): the key's hash is resolved to the
// key at flush time, so the refusal costs no lookup; an unknown credential belongs to no organisation
// and is not logged.
import { presentedKeyHash, type Bearer } from '../auth/bearer';
import type { AuthContext } from '../contract/credential';
import { positiveIntegerFromEnv } from '../env';
import { sql } from '../db';
import { batchQueue } from './batch-queue';
import { PATH_MAX, redactUrl } from './request-log-redaction';
import { logger } from '../telemetry/logger';
import { processWide } from '../process-wide';

/** What a record says of the answer, as the gate gives it and the log keeps it. */
export interface AnswerFacts {
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
  /** The Authorization header of a refused request, as the gate read it: only a key's hash is kept, to find the key. */
  bearer?: Bearer | null;
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

/** What pruning remembers between batches, shared by every bundle of the process (see batch-queue.ts). */
interface Pruning {
  at: number;
  /** Organisations written to since the last prune: only these can be over the cap. */
  touched: Set<string>;
}

const pruning = processWide('request-log-pruning', (): Pruning => ({ at: Date.now(), touched: new Set() }));

/**
 * Refusals (429) are logged sampled: a credential's first refusal in each rate-limit window gets a row
 * in the log, its others in that window are only counted in the daily counts. A key refused 20,000
 * times a minute thus writes one row a minute for its refusals, not 20,000 that would push every
 * other credential's rows past the organisation's cap. Per process: each instance logs its first.
 */
const SAMPLED_CREDENTIALS_MAX = 10_000;

/** The end of the window in which each credential's logged refusal fell. */
const loggedRefusals = processWide('request-log-refusals', () => new Map<string, number>());

/** Whether a refusal of `credential` in the window ending at `reset` is the first: the one that is logged. */
function firstRefusalOfWindow(credential: string, reset: number): boolean {
  const logged = loggedRefusals();
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
  const keyHash = auth || !record.bearer ? null : presentedKeyHash(record.bearer);
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
