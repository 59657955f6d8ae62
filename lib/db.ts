// The database pools and the one PrismaClient, shared by every route in the process. The primary takes
// every write and every read of credentials, sessions, OAuth, audit and usage; the synced data (the
// metric surfaces and the data version that keys their cached answers) is read with `readSql`, from
// the read replica (DATABASE_REPLICA_URL) while it is usable, else from the primary.
// Hot read paths use `sql`/`readSql` (hand-written, planned SQL); everything else uses Prisma.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { SpanKind } from '@opentelemetry/api';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { answerBoundClient } from './db-answer-bound';
import { fairTurns, type FairTurns } from './fair-turns';
import { REPLICA_CHECK_SQL, replicaMonitor, type ReplicaMonitor, type ReplicaStatus, type ReplicaVerdict } from './db-replica';
import { PrismaClient } from './generated/prisma/client';
import { isUnavailable } from './http/unavailable';
import { metrics, sampleOnScrape } from './telemetry/metrics';
import { inLeafSpan } from './telemetry/tracing';
import { processWide } from './process-wide';

/** One database: its pool, and the names of the statements prepared on its connections (which go with them). */
interface Database {
  /** Its pool's name in the metrics and traces. */
  name: 'primary' | 'replica';
  pool: pg.Pool;
  statementNames: StatementNames;
}

interface Db {
  primary: Database;
  /** A few connections of their own on the primary for the lookups each request makes before its operation (see gateSql). */
  gatePool: pg.Pool;
  /** Turns at the gate's connections, shared fairly between organisations (see gateSql). */
  gateTurns: FairTurns;
  /** When a statement on the gate's connections last answered (ms since the epoch): see gateBusy. */
  gateAnsweredAt: number;
  prisma: PrismaClient;
  replica: { database: Database; monitor: ReplicaMonitor } | null;
}

/** The process's pools, made on first use (db()) and ended by closeDb. */
const processDb = processWide('db', (): { current?: Db } => ({}));

/** How long a query waits for a pooled connection before it fails (503) rather than hang. */
export const CONNECTION_WAIT_MS = 5_000;

/** Connections of the gate's pool: a credential lookup takes well under a millisecond of each. */
const GATE_POOL_SIZE = 3;
/** One organisation's lookups hold at most this many of them: one is always free for the others. */
const GATE_CONNECTIONS_PER_ORG = GATE_POOL_SIZE - 1;

/** How much longer than the statement timeout a connection with work may go without an answer (lib/db-answer-bound.ts). */
const ANSWER_BOUND_MARGIN_MS = 1_000;

const TIME_UNITS_MS: Record<string, number> = { ms: 1, s: 1_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * DATABASE_STATEMENT_TIMEOUT (default 10 s) in milliseconds, written as PostgreSQL writes a time
 * setting: a number, in milliseconds unless a unit (ms, s, min, h, d) follows. Zero, which would
 * turn PostgreSQL's bound off, is refused: no statement may run unbounded.
 */
export function statementTimeoutMs(value = process.env.DATABASE_STATEMENT_TIMEOUT ?? '10s'): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|min|h|d)?\s*$/.exec(value);
  const ms = match ? Math.round(Number(match[1]) * TIME_UNITS_MS[match[2] ?? 'ms']!) : NaN;
  if (!(ms >= 1)) throw new Error(`DATABASE_STATEMENT_TIMEOUT must be a positive time such as 10s or 500ms, not ${JSON.stringify(value)}`);
  return ms;
}

/** The database settings read from the environment, checked (a bad value stops the start: instrumentation.ts). */
export interface DatabaseSettings {
  /** DATABASE_PREPARED_STATEMENTS: off behind a pooler that cannot keep them (PgBouncer < 1.21 in transaction mode). */
  preparedStatements: boolean;
  /** DATABASE_SESSION_SETTINGS: `startup` sends sessionSettings() with each connection, `server` leaves them to the server. */
  sessionSettingsAt: 'startup' | 'server';
  /** DATABASE_REPLICA_MAX_LAG: seconds a replica may be behind and still be read. */
  replicaMaxLagSeconds: number;
}

function oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
  const value = process.env[name] ?? fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${name} must be one of ${allowed.join(', ')}, not "${value}"`);
  return value as T;
}

export function databaseSettings(): DatabaseSettings {
  const lag = process.env.DATABASE_REPLICA_MAX_LAG ?? '30';
  if (!/^\d+(\.\d+)?$/.test(lag)) throw new Error(`DATABASE_REPLICA_MAX_LAG must be a number of seconds, not "${lag}"`);
  return {
    preparedStatements: oneOf('DATABASE_PREPARED_STATEMENTS', ['on', 'off'], 'on') === 'on',
    sessionSettingsAt: oneOf('DATABASE_SESSION_SETTINGS', ['startup', 'server'], 'startup'),
    replicaMaxLagSeconds: Number(lag),
  };
}

/**
 * The PostgreSQL settings of the app's sessions (why each, with its measurements: docs/operations.md,
 * Database). Sent as startup options with each connection; behind a pooler that does not pass them
 * on (PgBouncer), set on the server instead (`npm run db:settings`, DATABASE_SESSION_SETTINGS=server).
 */
export function sessionSettings(): [name: string, value: string][] {
  return [
    ['work_mem', process.env.DATABASE_WORK_MEM ?? '64MB'],
    ['jit', 'off'],
    ['plan_cache_mode', 'force_custom_plan'],
    ['max_parallel_workers_per_gather', process.env.DATABASE_PARALLEL_WORKERS ?? '0'],
    ['random_page_cost', process.env.DATABASE_RANDOM_PAGE_COST ?? '1.1'],
    ['statement_timeout', String(statementTimeoutMs())],
    ['idle_in_transaction_session_timeout', process.env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT ?? '30s'],
  ];
}

/** A pool on one database (the primary or the replica), with the process's settings. */
function createDatabase(name: Database['name'], connectionString: string, settings: DatabaseSettings): Database {
  const pool = new pg.Pool({
    connectionString,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    // A request should fail fast (503) rather than hang when the database is unreachable.
    connectionTimeoutMillis: CONNECTION_WAIT_MS,
    // A server that stops answering (frozen, or the network gone silent) never cancels anything: the
    // client gives up a little after statement_timeout would have, and the request is answered 503.
    Client: answerBoundClient(statementTimeoutMs() + ANSWER_BOUND_MARGIN_MS),
    options: settings.sessionSettingsAt === 'startup' ? sessionSettings().map(([name, value]) => `-c ${name}=${value}`).join(' ') : undefined,
  });
  // An idle client's connection error must not crash the process; the next query reports it.
  pool.on('error', () => {});
  return { name, pool, statementNames: new StatementNames(settings.preparedStatements ? PREPARED_STATEMENTS_MAX : 0) };
}

function createDb(): Db {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error('DATABASE_URL is not set');
  const settings = databaseSettings();
  const primary = createDatabase('primary', connectionString, settings);
  const replicaUrl = process.env.DATABASE_REPLICA_URL;
  const replica = replicaUrl ? createDatabase('replica', replicaUrl, settings) : null;
  const gatePool = new pg.Pool({ ...primary.pool.options, max: GATE_POOL_SIZE });
  gatePool.on('error', () => {});
  const gateTurns = fairTurns({
    total: GATE_POOL_SIZE,
    perLane: GATE_CONNECTIONS_PER_ORG,
    // As unbounded as pg's own queue, and bounded in time as a wait for one of its connections is.
    queue: Number.MAX_SAFE_INTEGER,
    maxWaitMs: CONNECTION_WAIT_MS,
    // Worded as pg words its own wait for a connection running out, which is a 503 (lib/http/unavailable.ts).
    refusal: () => new Error(`timeout exceeded when trying to connect: the gate's connections stayed in use for ${CONNECTION_WAIT_MS} ms`),
  });
  return {
    primary,
    gatePool,
    gateTurns,
    gateAnsweredAt: 0,
    prisma: new PrismaClient({ adapter: new PrismaPg(primary.pool) }),
    replica: replica && {
      database: replica,
      monitor: replicaMonitor({
        check: async () => (await query<ReplicaStatus & pg.QueryResultRow>(replica, REPLICA_CHECK_SQL, []))[0]!,
        maxLagSeconds: settings.replicaMaxLagSeconds,
      }),
    },
  };
}

/** The pools' connections as the metrics report them (db.client.connection.*), read when scraped. */
function samplePools(): void {
  const { current } = processDb();
  const { dbConnections, dbConnectionsMax, dbPending } = metrics();
  for (const gauge of [dbConnections, dbConnectionsMax, dbPending]) gauge.reset();
  if (!current) return;
  const pools: [string, pg.Pool][] = [[current.primary.name, current.primary.pool], ['gate', current.gatePool]];
  if (current.replica) pools.push([current.replica.database.name, current.replica.database.pool]);
  for (const [name, pool] of pools) {
    const labels = { db_client_connection_pool_name: name };
    dbConnections.set({ ...labels, db_client_connection_state: 'idle' }, pool.idleCount);
    dbConnections.set({ ...labels, db_client_connection_state: 'used' }, pool.totalCount - pool.idleCount);
    dbConnectionsMax.set(labels, pool.options.max ?? 10);
    dbPending.set(labels, pool.waitingCount);
  }
}

/** Created on first use, not at import: `next build` imports route modules without a database. */
function db(): Db {
  const slot = processDb();
  if (!slot.current) {
    slot.current = createDb();
    sampleOnScrape('db', samplePools);
  }
  return slot.current;
}

export function prisma(): PrismaClient {
  return db().prisma;
}

/**
 * The names under which `sql` prepares its statements: one per distinct text, at most `max` texts in
 * all; a text past the cap gets none and runs unnamed, as every statement once did. The cap bounds what
 * each pooled connection holds: PostgreSQL keeps a prepared statement's analysed query for the life
 * of the connection, and there is no eviction (what one holds: docs/performance/round-07-prepared-statements.md).
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  constructor(private readonly max: number) {}

  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max) {
      // A digest of the text: a name stands for one text only (pg refuses a name reused for another).
      name = `s_${createHash('sha256').update(text).digest('base64url')}`;
      this.names.set(text, name);
    }
    return name;
  }
}

/**
 * Texts `sql` prepares on each pool (one per process), first come first served. Values are always
 * parameters, so texts differ only by a statement's shape: which rollup parts a range reads, the
 * reach, the options. The benchmark's cases (every endpoint over 7, 30, 90 and 366 days, whole
 * organisation and one client) use 111 texts; 150 random ranges of up to 366 days per endpoint, every
 * other one a client's, use about 670 (whole quarters and blocks less days add shapes), so past the cap
 * the rarer shapes run unprepared, and a connection's prepared statements stay bounded (round 7).
 */
const PREPARED_STATEMENTS_MAX = 128;

/**
 * Runs one statement on `pool`, traced as the span `pg.query:<statement name>` (OpenTelemetry's
 * database conventions): the pool, the statement's name and its text, never its values. Traced here
 * rather than by @opentelemetry/instrumentation-pg, which patches pg through a hook on every require()
 * of the process, and Next.js requires its route modules on every request: what that cost is in
 * docs/performance/round-16-telemetry.md. Without tracing there is no span (lib/telemetry/tracing.ts).
 */
async function runStatement<Row extends pg.QueryResultRow>(pool: pg.Pool, poolName: string, statement: { name: string | undefined; text: string; values: unknown[] }): Promise<Row[]> {
  const { name, text } = statement;
  const spanName = `pg.query:${name ?? text.trim().split(/\s/, 1)[0]!.toUpperCase()}`;
  const attributes = { 'db.system.name': 'postgresql', 'db.client.connection.pool.name': poolName, 'db.query.text': text };
  return (await inLeafSpan(spanName, attributes, () => pool.query<Row>(statement), SpanKind.CLIENT)).rows;
}

function query<Row extends pg.QueryResultRow>(database: Database, text: string, values: unknown[]): Promise<Row[]> {
  return runStatement<Row>(database.pool, database.name, { name: database.statementNames.nameOf(text), text, values });
}

/**
 * Runs one parameterised SQL statement on the primary and returns its rows. The statement is prepared
 * on each pooled connection the first time that connection runs its text, and later calls only bind
 * and execute it: PostgreSQL parses and analyses it once per connection instead of on every call
 * (what that saves: docs/performance/round-07-prepared-statements.md). Each call is
 * still planned for its values (plan_cache_mode, above). With DATABASE_PREPARED_STATEMENTS=off every
 * statement runs unnamed.
 */
export async function sql<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  return query<Row>(db().primary, text, values);
}

/** The database a call's reads of synced data go to, chosen once for the call (withReadDatabase). */
const readPin = new AsyncLocalStorage<{ database: Database }>();

async function readDatabase(): Promise<Database> {
  const { primary, replica } = db();
  return replica && (await replica.monitor.verdict()).state === 'used' ? replica.database : primary;
}

/**
 * Runs `fn` with one database for every `readSql` in it: the replica when it is usable now, else the
 * primary. The data version and the data an answer is made of then come from the same database, so a
 * primary that is ahead of the replica never lends its version to the replica's older data.
 */
export async function withReadDatabase<T>(fn: () => Promise<T>): Promise<T> {
  return readPin.run({ database: await readDatabase() }, fn);
}

/** The replica could not run a statement, though the primary may: it is down, starting, or cancelled it to replay. */
function replicaCannotServe(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  // 40001 on a standby: cancelled by a conflict with recovery. 57014 (statement_timeout) is no
  // reason to run the same statement again elsewhere.
  return code === '40001' || (code !== '57014' && isUnavailable(error));
}

/**
 * `sql` for reads of the synced data (the metric surfaces, the client list, the data version): on the
 * database withReadDatabase chose for the call, or chosen now outside one. A statement the replica
 * cannot serve runs on the primary, and so does the rest of the call (only ever that way round, so
 * the data is never older than a version read before it).
 */
export async function readSql<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const pin = readPin.getStore();
  const database = pin?.database ?? (await readDatabase());
  const { primary, replica } = db();
  if (database === primary || !replica) return query<Row>(primary, text, values);
  try {
    return await query<Row>(database, text, values);
  } catch (error) {
    if (!replicaCannotServe(error)) throw error;
    replica.monitor.failed(error as Error);
    if (pin) pin.database = primary;
    return query<Row>(primary, text, values);
  }
}

/** The read replica's state for the readiness check: `none` when DATABASE_REPLICA_URL is unset. */
export async function replicaState(): Promise<ReplicaVerdict | { state: 'none' }> {
  const { replica } = db();
  return replica ? replica.monitor.verdict() : { state: 'none' };
}

/**
 * `sql` on the gate's own connections, for the lookups a request makes before its operation runs
 * (its credential). An operation runs several statements at once, so a flood of one organisation's
 * heavy requests can hold every connection of the main pool; the next request of another organisation
 * must still have its credential checked at once, not wait behind those statements for a connection
 * (and be refused after CONNECTION_WAIT_MS). `lane` is whose lookup it is (lib/auth/org-hints.ts): the
 * lanes take turns at the connections round robin, and one lane holds at most GATE_CONNECTIONS_PER_ORG
 * of them, so one organisation's flood of lookups (a flood of refusals costs one each) never keeps
 * another's waiting behind it, as one queue in arrival order did.
 */
export async function gateSql<Row extends pg.QueryResultRow>(text: string, values: unknown[], lane: string): Promise<Row[]> {
  const current = db();
  await current.gateTurns.take(lane);
  try {
    const rows = await runStatement<Row>(current.gatePool, 'gate', { name: current.primary.statementNames.nameOf(text), text, values });
    current.gateAnsweredAt = Date.now();
    return rows;
  } finally {
    current.gateTurns.release(lane);
  }
}

/**
 * Whether the gate's connections are all taken by requests that the database is answering: every
 * connection open and in use, and one of them answered within CONNECTION_WAIT_MS. A statement that
 * then waits for a connection waits on our own traffic (one organisation's burst of key lookups), not
 * on the database. Connections all in use and none answering for that long is a database that stopped
 * answering: not busy.
 */
export function gateBusy(): boolean {
  const { gatePool, gateAnsweredAt } = db();
  return gatePool.totalCount >= GATE_POOL_SIZE && gatePool.idleCount === 0 && Date.now() - gateAnsweredAt < CONNECTION_WAIT_MS;
}

/** Positional parameters collected while a statement is written: `add` returns the reference ($n) of a value. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Ends every pool (the server's shutdown, tests, scripts); the next query opens them again. */
export async function closeDb(): Promise<void> {
  const slot = processDb();
  const { current } = slot;
  slot.current = undefined;
  if (current) {
    await current.prisma.$disconnect();
    await Promise.all([current.primary.pool.end(), current.gatePool.end(), current.replica?.database.pool.end()]);
  }
}
