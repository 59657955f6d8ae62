// The one database pool and the one PrismaClient, shared by every route in the process.
// Hot read paths use `sql` (hand-written, planned SQL on the same pool); everything else uses Prisma.
import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client';

interface Db {
  pool: pg.Pool;
  /** A few connections of their own for the lookups each request makes before its operation (see gateSql). */
  gatePool: pg.Pool;
  prisma: PrismaClient;
  /** The names of the statements prepared on the pool's connections, which go with them. */
  statementNames: StatementNames;
}

const globalForDb = globalThis as unknown as { metricsDb?: Db };

/** How long a query waits for a pooled connection before it fails (503) rather than hang. */
export const CONNECTION_WAIT_MS = 5_000;

/** Connections of the gate's pool: a credential lookup takes well under a millisecond of each. */
const GATE_POOL_SIZE = 3;

/** How much longer than the statement timeout the client waits for an answer (see query_timeout). */
const QUERY_TIMEOUT_MARGIN_MS = 1_000;

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

function createDb(): Db {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error('DATABASE_URL is not set');
  const statementTimeout = statementTimeoutMs();
  const pool = new pg.Pool({
    connectionString,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    // A request should fail fast (503) rather than hang when the database is unreachable.
    connectionTimeoutMillis: CONNECTION_WAIT_MS,
    // A server that stops answering (frozen, or the network gone silent) never cancels anything: the
    // client gives up a little after statement_timeout would have, and the request is answered 503.
    query_timeout: statementTimeout + QUERY_TIMEOUT_MARGIN_MS,
    // Year-long aggregations sort and hash more than PostgreSQL's 4 MB default allows in memory; JIT
    // compilation costs 100-200 ms per query and never pays off on these short, index-driven plans.
    // Parallel workers are off by default: requests run side by side and each statement is tens of
    // milliseconds, so starting workers costs more than it saves (measured on 2 cores: the sum of the
    // benchmark's floors 7 % lower serial, the heaviest ads statements a third faster; the web dimension
    // tables a quarter slower). DATABASE_PARALLEL_WORKERS sets max_parallel_workers_per_gather.
    // random_page_cost 1.1: the rows read are in memory (shared buffers, the OS cache) or on SSD, where a
    // random page costs little more than a sequential one; at the default 4, which assumes spinning
    // disks, the planner reads a whole monthly rollup rather than the index-only range it needs (the
    // year of a whole organisation's ads: 78 ms instead of 62 on the benchmark's data).
    // statement_timeout bounds every statement, so no request holds a connection for long: the
    // heaviest legitimate ones (a year of a whole organisation) take 0.1-0.5 s, 10 s leaves room for
    // a loaded machine; a statement cancelled by it is answered 503 (lib/http/unavailable.ts).
    // idle_in_transaction_session_timeout ends a session left inside a transaction (its locks and
    // its connection with it); the app's transactions are a few short statements.
    // plan_cache_mode=force_custom_plan: `sql` prepares its statements (see StatementNames), and a
    // prepared statement would otherwise switch after five calls to one generic plan, made without
    // the values; the range and the reach in the values decide the plan (a day or a year, one client
    // or the whole organisation), so each call is planned for its own.
    options: [
      `-c work_mem=${process.env.DATABASE_WORK_MEM ?? '64MB'}`,
      '-c jit=off',
      '-c plan_cache_mode=force_custom_plan',
      `-c max_parallel_workers_per_gather=${process.env.DATABASE_PARALLEL_WORKERS ?? 0}`,
      `-c random_page_cost=${process.env.DATABASE_RANDOM_PAGE_COST ?? 1.1}`,
      `-c statement_timeout=${statementTimeout}`,
      `-c idle_in_transaction_session_timeout=${process.env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT ?? '30s'}`,
    ].join(' '),
  });
  const gatePool = new pg.Pool({ ...pool.options, max: GATE_POOL_SIZE });
  // An idle client's connection error must not crash the process; the next query reports it.
  pool.on('error', () => {});
  gatePool.on('error', () => {});
  return { pool, gatePool, prisma: new PrismaClient({ adapter: new PrismaPg(pool) }), statementNames: new StatementNames(PREPARED_STATEMENTS_MAX) };
}

/** Created on first use, not at import: `next build` imports route modules without a database. */
function db(): Db {
  globalForDb.metricsDb ??= createDb();
  return globalForDb.metricsDb;
}

export function prisma(): PrismaClient {
  return db().prisma;
}

/**
 * The names under which `sql` prepares its statements: one per distinct text, at most `max` texts in
 * all; a text past the cap gets none and runs unnamed, as every statement once did. The cap bounds what
 * each pooled connection holds: PostgreSQL keeps a prepared statement's analysed query for the life
 * of the connection, about 130 kB each on average (5.9 MB for 44 on one connection), and there is no
 * eviction.
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
 * Texts `sql` prepares on the pool (one per process), first come first served. Values are always
 * parameters, so texts differ only by a statement's shape: which rollup parts a range reads, the
 * reach, the options. The benchmark's cases (every endpoint over 7, 30, 90 and 366 days, whole
 * organisation and one client) use 111 texts; 150 random ranges of up to 366 days per endpoint, every
 * other one a client's, use about 670 (whole quarters and blocks less days add shapes), so past the cap
 * the rarer shapes run unprepared. At 128, a connection holds at most about 17 MB of prepared statements.
 */
const PREPARED_STATEMENTS_MAX = 128;

/**
 * Runs one parameterised SQL statement and returns its rows. The statement is prepared on each pooled
 * connection the first time that connection runs its text, and later calls only bind and execute it:
 * PostgreSQL parses and analyses it once per connection instead of on every call (0.3-0.7 ms of the
 * database's time for each of an ads overview's statements; the data function of a whole
 * organisation's overview over a year made about 10 % more calls a second at c=8). Each call is still
 * planned for its values (plan_cache_mode, above).
 */
export async function sql<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const { pool, statementNames } = db();
  const result = await pool.query<Row>({ name: statementNames.nameOf(text), text, values });
  return result.rows;
}

/**
 * `sql` on the gate's own connections, for the lookups a request makes before its operation runs
 * (its credential, its organisation's data version). An operation runs several statements at once,
 * so a flood of one organisation's heavy requests can hold every connection of the main pool; the
 * next request of another organisation must still have its credential checked at once, not wait
 * behind those statements for a connection (and be refused after CONNECTION_WAIT_MS).
 */
export async function gateSql<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const { gatePool, statementNames } = db();
  const result = await gatePool.query<Row>({ name: statementNames.nameOf(text), text, values });
  return result.rows;
}

/** Positional parameters collected while a statement is written: `add` returns the reference ($n) of a value. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export async function closeDb(): Promise<void> {
  const current = globalForDb.metricsDb;
  globalForDb.metricsDb = undefined;
  if (current) {
    await current.prisma.$disconnect();
    await Promise.all([current.pool.end(), current.gatePool.end()]);
  }
}
