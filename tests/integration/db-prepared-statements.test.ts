// `sql` on the real database: each statement is prepared on the connection that runs it (so later
// calls skip PostgreSQL's parse and analysis) and every call is still planned for its own values;
// behind a transaction-mode pooler, nothing prepared and no startup options (DATABASE_PREPARED_STATEMENTS,
// DATABASE_SESSION_SETTINGS), and a bad value of either refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { closeDb, databaseSettings, sql } from '@/lib/db';

// The row of pg_prepared_statements whose text is this very statement's, as the statement itself sees
// it: a prepared statement is listed from its Parse on, before it executes.
const SELF = `SELECT count(*)::int AS prepared, coalesce(sum(custom_plans), 0)::int AS custom_plans,
                     coalesce(sum(generic_plans), 0)::int AS generic_plans, current_setting('plan_cache_mode') AS mode
                FROM pg_prepared_statements WHERE statement = $1`;

interface SelfRow {
  prepared: number;
  custom_plans: number;
  generic_plans: number;
  mode: string;
}

describe('sql: statements prepared once per connection, planned per call', () => {
  beforeAll(async () => {
    // One connection, so that every call below meets the statement that the first one prepared.
    await closeDb();
    process.env.DATABASE_POOL_SIZE = '1';
  });
  afterAll(async () => {
    await closeDb();
    delete process.env.DATABASE_POOL_SIZE;
  });

  it('prepares a statement on its first call and reuses it on the next, with a custom plan each time', async () => {
    const seen: SelfRow[] = [];
    // Past the five calls after which PostgreSQL's default (auto) would switch to a generic plan.
    for (let call = 0; call < 8; call++) seen.push((await sql<SelfRow>(SELF, [SELF]))[0]!);
    expect(seen).toEqual(seen.map((_, call) => ({ prepared: 1, custom_plans: call + 1, generic_plans: 0, mode: 'force_custom_plan' })));
  });

  it('prepares each distinct text under its own name', async () => {
    const other = `${SELF} AND name IS NOT NULL`;
    await sql(other, [other]);
    const names = await sql<{ name: string; statement: string }>(
      'SELECT name, statement FROM pg_prepared_statements WHERE statement = ANY($1::text[]) ORDER BY statement',
      [[SELF, other]],
    );
    expect(names.map((row) => row.statement)).toEqual([SELF, other]);
    expect(new Set(names.map((row) => row.name)).size).toBe(2);
    for (const { name } of names) expect(name).toMatch(/^s_[\w-]{43}$/);
  });
});

describe('settings for a transaction-mode pooler', () => {
  /** Runs `fn` on fresh pools made with `env`, then puts the defaults back. */
  async function withEnv(env: Record<string, string>, fn: () => Promise<void>): Promise<void> {
    await closeDb();
    Object.assign(process.env, { DATABASE_POOL_SIZE: '1', ...env });
    try {
      await fn();
    } finally {
      await closeDb();
      for (const name of ['DATABASE_POOL_SIZE', ...Object.keys(env)]) delete process.env[name];
    }
  }

  it('DATABASE_PREPARED_STATEMENTS=off runs every statement unnamed: nothing is prepared', async () => {
    await withEnv({ DATABASE_PREPARED_STATEMENTS: 'off' }, async () => {
      const seen: SelfRow[] = [];
      for (let call = 0; call < 3; call++) seen.push((await sql<SelfRow>(SELF, [SELF]))[0]!);
      expect(seen).toEqual(seen.map(() => ({ prepared: 0, custom_plans: 0, generic_plans: 0, mode: 'force_custom_plan' })));
    });
  });

  it('DATABASE_SESSION_SETTINGS=server sends no startup options: the sessions have the server\'s own settings', async () => {
    const settings = `SELECT current_setting('work_mem') AS work_mem, current_setting('statement_timeout') AS statement_timeout`;
    const server = await plainSession(settings);
    await withEnv({ DATABASE_SESSION_SETTINGS: 'server' }, async () => {
      expect(await sql(settings)).toEqual([server]);
    });
    expect(await sql(settings)).toEqual([{ work_mem: '64MB', statement_timeout: '10s' }]);
  });

  it('refuses a value it does not know, naming the variable', () => {
    for (const [name, value, message] of [
      ['DATABASE_PREPARED_STATEMENTS', 'maybe', 'DATABASE_PREPARED_STATEMENTS must be one of on, off, not "maybe"'],
      ['DATABASE_SESSION_SETTINGS', 'pooler', 'DATABASE_SESSION_SETTINGS must be one of startup, server, not "pooler"'],
      ['DATABASE_REPLICA_MAX_LAG', '30s', 'DATABASE_REPLICA_MAX_LAG must be a number of seconds, not "30s"'],
    ] as const) {
      process.env[name] = value;
      try {
        expect(() => databaseSettings()).toThrow(message);
      } finally {
        delete process.env[name];
      }
    }
  });
});

/** The settings a session of the machine's server has when it is given none (no startup options). */
async function plainSession(text: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<Record<string, string>>(text)).rows[0]!;
  } finally {
    await client.end();
  }
}
