// EXPLAIN (ANALYZE, BUFFERS) of the statements behind the slowest cases: the statements a floor runs are
// recorded (every `sql()` of lib/db goes through pg.Pool#query), then each is explained on its own.
import pg from 'pg';
import { performance } from 'node:perf_hooks';
import { sql } from '@/lib/db';

interface Statement {
  text: string;
  values: unknown[];
}

export interface ExplainedStatement {
  /** Time of the statement alone, as run by the data function. */
  ms: number;
  text: string;
  plan: string;
}

/** Runs `work` once and returns the statements it sent through any pg.Pool of this process. */
async function recordStatements(work: () => Promise<unknown>): Promise<Statement[]> {
  const statements: Statement[] = [];
  const original = pg.Pool.prototype.query;
  // pg's overloads make a typed wrapper unwieldy; the arguments are passed through untouched.
  const recording = function (this: pg.Pool, ...args: unknown[]) {
    const [first, second] = args;
    // sql() passes a query config (its statement's name, text and values); other callers may pass the text.
    if (typeof first === 'string') statements.push({ text: first, values: Array.isArray(second) ? second : [] });
    else if (first && typeof first === 'object' && 'text' in first) {
      const { text, values } = first as { text: string; values?: unknown[] };
      statements.push({ text, values: values ?? [] });
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  pg.Pool.prototype.query = recording as typeof original;
  try {
    await work();
  } finally {
    pg.Pool.prototype.query = original;
  }
  return statements;
}

/** Each statement of `work`, slowest first, with its plan. */
export async function explainWork(work: () => Promise<unknown>): Promise<ExplainedStatement[]> {
  const explained: ExplainedStatement[] = [];
  const statements = await recordStatements(work);
  // Every data function runs SQL: none recorded means the recorder no longer sees how sql() calls pg.
  if (statements.length === 0) throw new Error('no statement was recorded to explain: see recordStatements');
  for (const statement of statements) {
    const t0 = performance.now();
    await sql(statement.text, statement.values);
    const ms = performance.now() - t0;
    const rows = await sql<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values);
    explained.push({ ms, text: statement.text, plan: rows.map((row) => row['QUERY PLAN']).join('\n') });
  }
  return explained.sort((a, b) => b.ms - a.ms);
}
