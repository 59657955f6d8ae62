// The record of MCP tool calls (`mcp_tool_calls`): written in batches after the answers have gone, so
// that recording never adds to a call's time, and read by the settings pages (call counts per key and
// per connected app, the organisation's recent calls). The queue is bounded: when the database cannot
// keep up, the oldest unwritten records are dropped (and that is logged), never the calls themselves.
import { createHash } from 'node:crypto';
import type { AuthContext } from '../contract/credential';
import { sql } from '../db';
import { canonicalJson } from '../text/canonical-json';
import { displayName } from '../text/plain-text';
import { batchQueue } from './batch-queue';

export interface ToolCallRecord {
  auth: AuthContext;
  tool: string;
  /** The arguments as the client sent them; only their SHA-256 is kept. */
  args: unknown;
  /** Rows in the answer (answeredRows); null for a refusal. */
  rows: number | null;
  durationMs: number;
  /** `ok`, or the problem code of the answer. */
  outcome: string;
}

interface PendingRow {
  orgId: string;
  apiKeyId: string | null;
  grantId: string | null;
  /** The connected app's name, kept so that the activity names it after the grant is revoked. */
  appName: string | null;
  tool: string;
  argumentsHash: string;
  rows: number | null;
  durationMs: number;
  outcome: string;
  at: Date;
}

const FLUSH_AFTER_MS = 500;
const BATCH_SIZE = 200;
const MAX_PENDING = 10_000;
export const TOOL_CALL_RETENTION_DAYS = 90;
/** How often a process deletes records past their retention (an index range delete). */
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * How many rows an answer carried: the length of `data` when it is a list (clients), else of the
 * longest list in it (entities, posts, campaigns, daily series), else 1 (a summary object).
 */
export function answeredRows(answer: unknown): number {
  const data = (answer as { data?: unknown } | null)?.data;
  if (Array.isArray(data)) return data.length;
  if (!data || typeof data !== 'object') return 0;
  const lists = Object.values(data).filter(Array.isArray);
  return lists.length > 0 ? Math.max(...lists.map((list) => list.length)) : 1;
}

/** A stable hash of a call's arguments: keys sorted, so `{a, b}` and `{b, a}` hash alike. */
export function argumentsHash(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args ?? {})).digest('hex');
}

/** Queues one call's record; it is written within half a second. */
export function recordToolCall(call: ToolCallRecord, now = new Date()): void {
  toolCallQueue.push({
    orgId: call.auth.orgId,
    apiKeyId: call.auth.kind === 'api_key' ? call.auth.keyId : null,
    grantId: call.auth.kind === 'oauth_grant' ? call.auth.grantId : null,
    appName: call.auth.kind === 'oauth_grant' ? call.auth.clientName : null,
    tool: call.tool,
    argumentsHash: argumentsHash(call.args),
    rows: call.rows,
    durationMs: Math.max(0, Math.round(call.durationMs)),
    outcome: call.outcome,
    at: now,
  });
}

async function writeBatch(rows: PendingRow[]): Promise<void> {
  const values: unknown[] = [];
  const tuples = rows.map((row) => {
    const base = values.length;
    values.push(row.orgId, row.apiKeyId, row.grantId, row.appName, row.tool, row.argumentsHash, row.rows, row.durationMs, row.outcome, row.at);
    return `(gen_random_uuid(), ${Array.from({ length: 10 }, (_, i) => `$${base + i + 1}`).join(', ')})`;
  });
  await sql(
    `INSERT INTO mcp_tool_calls (id, org_id, api_key_id, grant_id, app_name, tool, arguments_hash, rows, duration_ms, outcome, created_at)
     VALUES ${tuples.join(', ')}`,
    values,
  );
}

let prunedAt = 0;

const toolCallQueue = batchQueue<PendingRow>({
  name: 'tool-calls',
  records: 'tool-call records',
  flushAfterMs: FLUSH_AFTER_MS,
  batchSize: BATCH_SIZE,
  maxPending: MAX_PENDING,
  write: writeBatch,
  async afterFlush() {
    if (Date.now() - prunedAt <= PRUNE_EVERY_MS) return;
    prunedAt = Date.now();
    await sql(`DELETE FROM mcp_tool_calls WHERE created_at < now() - make_interval(days => $1)`, [TOOL_CALL_RETENTION_DAYS]).catch(() => undefined);
  },
});

/** Writes every queued record now (tests and shutdown call it; otherwise the timer does). */
export function flushToolCalls(): Promise<void> {
  return toolCallQueue.flush();
}

export interface CallCount {
  calls: number;
  lastCallAt: Date;
}

/** Tool calls per API key and per grant of an organisation, within the retention. */
export async function toolCallCounts(orgId: string): Promise<{ byKey: Map<string, CallCount>; byGrant: Map<string, CallCount> }> {
  const rows = await sql<{ apiKeyId: string | null; grantId: string | null; calls: string; lastCallAt: Date }>(
    `SELECT api_key_id AS "apiKeyId", grant_id AS "grantId", count(*) AS calls, max(created_at) AS "lastCallAt"
       FROM mcp_tool_calls WHERE org_id = $1
      GROUP BY api_key_id, grant_id`,
    [orgId],
  );
  const byKey = new Map<string, CallCount>();
  const byGrant = new Map<string, CallCount>();
  for (const row of rows) {
    const count = { calls: Number(row.calls), lastCallAt: row.lastCallAt };
    if (row.apiKeyId) byKey.set(row.apiKeyId, count);
    else if (row.grantId) byGrant.set(row.grantId, count);
  }
  return { byKey, byGrant };
}

export interface RecentToolCall {
  at: Date;
  tool: string;
  /** The key's name, or the connected app's name ("<name> (revoked)" once its grant is gone). */
  caller: string;
  callerKind: 'api_key' | 'oauth_grant';
  rows: number | null;
  durationMs: number;
  outcome: string;
}

/** A connected app as the activity names it: its name, marked once its grant is revoked (or has ended). */
function appCaller(name: string | null, connected: boolean): string {
  if (name === null) return connected ? 'an unnamed app' : 'a revoked app';
  return connected ? displayName(name) : `${displayName(name)} (revoked)`;
}

/** The organisation's latest tool calls, newest first (for admins). */
export async function recentToolCalls(orgId: string, limit = 20): Promise<RecentToolCall[]> {
  const rows = await sql<{
    at: Date;
    tool: string;
    keyName: string | null;
    appName: string | null;
    connected: boolean;
    apiKeyId: string | null;
    rows: number | null;
    durationMs: number;
    outcome: string;
  }>(
    `SELECT c.created_at AS at, c.tool, k.name AS "keyName", coalesce(g.client_name, c.app_name) AS "appName",
            g.id IS NOT NULL AS connected, c.api_key_id AS "apiKeyId", c.rows, c.duration_ms AS "durationMs", c.outcome
       FROM mcp_tool_calls c
       LEFT JOIN api_keys k ON k.id = c.api_key_id
       LEFT JOIN oauth_payloads g ON g.model = 'Grant' AND g.id = c.grant_id AND (g.expires_at IS NULL OR g.expires_at > now())
      WHERE c.org_id = $1
      ORDER BY c.created_at DESC, c.id
      LIMIT $2`,
    [orgId, limit],
  );
  return rows.map((row) => ({
    at: row.at,
    tool: row.tool,
    caller: row.apiKeyId ? displayName(row.keyName ?? 'a deleted key') : appCaller(row.appName, row.connected),
    callerKind: row.apiKeyId ? 'api_key' : 'oauth_grant',
    rows: row.rows,
    durationMs: row.durationMs,
    outcome: row.outcome,
  }));
}

/** How many days "tool calls per day" covers, today (UTC) included. */
export const CALLS_PER_DAY_WINDOW = 30;

export interface CallsPerDay {
  /** The tools called in the window, by name. */
  tools: string[];
  /** Every day of the window, oldest first (YYYY-MM-DD, UTC), with its calls per tool. */
  days: { day: string; counts: Record<string, number>; total: number }[];
}

/** A connected app's tool calls per UTC day and tool over the last CALLS_PER_DAY_WINDOW days. */
export async function grantCallsPerDay(orgId: string, grantId: string, now = new Date()): Promise<CallsPerDay> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = new Date(today - (CALLS_PER_DAY_WINDOW - 1) * 86_400_000);
  const rows = await sql<{ day: string; tool: string; calls: string }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, tool, count(*) AS calls
       FROM mcp_tool_calls
      WHERE org_id = $1 AND grant_id = $2 AND created_at >= $3 AND created_at < $4
      GROUP BY 1, 2`,
    [orgId, grantId, first, new Date(today + 86_400_000)],
  );
  const days = Array.from({ length: CALLS_PER_DAY_WINDOW }, (_, i) => ({
    day: new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10),
    counts: {} as Record<string, number>,
    total: 0,
  }));
  const byDay = new Map(days.map((entry) => [entry.day, entry]));
  for (const row of rows) {
    const entry = byDay.get(row.day)!;
    entry.counts[row.tool] = Number(row.calls);
    entry.total += Number(row.calls);
  }
  return { tools: [...new Set(rows.map((row) => row.tool))].sort(), days };
}
