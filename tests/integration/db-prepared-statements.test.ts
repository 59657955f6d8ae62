// `sql` on the real database: each statement is prepared on the connection that runs it (so later
// calls skip PostgreSQL's parse and analysis) and every call is still planned for its own values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, sql } from '@/lib/db';

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
