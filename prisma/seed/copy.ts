// Loading tables with COPY … FROM STDIN (text format), the fastest bulk path PostgreSQL offers.
// Rows are generated lazily and streamed, so even the largest table never sits in memory. Each table is
// loaded in one transaction: a failed load leaves the table as it was (empty). COPY fires the tables'
// statement-level triggers, so the monthly rollups the migrations maintain fill themselves.
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** A column value: strings are sent as they are (dates, timestamps, numerics, enums, uuids). */
export type Value = string | number | boolean | null | Buffer;
export type Row = Value[];

export interface TableData {
  table: string;
  columns: readonly string[];
  /** For progress lines; exact for most tables, an estimate where rows with nothing to report are skipped. */
  expectedRows: number;
  rows: () => Iterable<Row>;
}

/** A source's tables: the entities others point at (loaded first), then its facts. */
export interface SourceTables {
  entities: TableData[];
  facts: TableData[];
}

/** Tables expected to be smaller than this get only their final count logged, and keep their indexes while loading. */
const BIG_TABLE_ROWS = 50_000;
const CHUNK_CHARS = 1 << 16;
const NEEDS_ESCAPE = /[\\\t\n\r]/;

function encodeValue(value: Value): string {
  if (typeof value === 'number') return String(value);
  if (value === null) return '\\N';
  if (typeof value === 'string') {
    return NEEDS_ESCAPE.test(value)
      ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
      : value;
  }
  if (typeof value === 'boolean') return value ? 't' : 'f';
  // bytea in hex form; the backslash itself is escaped in COPY's text format.
  return `\\\\x${value.toString('hex')}`;
}

/** One row as a line of COPY text format (also what the determinism test digests). */
export function encodeRow(row: Row): string {
  let line = encodeValue(row[0] ?? null);
  for (let i = 1; i < row.length; i++) line += `\t${encodeValue(row[i] ?? null)}`;
  return `${line}\n`;
}

interface IndexPlan {
  drop: string[];
  create: string[];
}

/**
 * For a big table that no foreign key points at: statements that drop its primary key and indexes
 * before the load and rebuild them after. One sorted build per index is several times cheaper than
 * maintaining the index row by row, and the definitions come from the catalog, so what is rebuilt is
 * exactly what the migrations created.
 */
async function deferrableIndexes(client: pg.Client, table: string): Promise<IndexPlan | null> {
  const referenced = await client.query('SELECT 1 FROM pg_constraint WHERE confrelid = $1::regclass', [`public."${table}"`]);
  if (referenced.rowCount) return null;
  const constraints = await client.query<{ name: string; definition: string; index: string }>(
    `SELECT c.conname AS name, pg_get_constraintdef(c.oid) AS definition, i.relname AS index
     FROM pg_constraint c JOIN pg_class i ON i.oid = c.conindid
     WHERE c.conrelid = $1::regclass AND c.contype IN ('p', 'u')`,
    [`public."${table}"`],
  );
  const owned = new Set(constraints.rows.map((c) => c.index));
  const indexes = (
    await client.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1`,
      [table],
    )
  ).rows.filter((i) => !owned.has(i.name));
  return {
    drop: [
      ...indexes.map((i) => `DROP INDEX "${i.name}"`),
      ...constraints.rows.map((c) => `ALTER TABLE "${table}" DROP CONSTRAINT "${c.name}"`),
    ],
    create: [
      ...constraints.rows.map((c) => `ALTER TABLE "${table}" ADD CONSTRAINT "${c.name}" ${c.definition}`),
      ...indexes.map((i) => i.definition),
    ],
  };
}

export async function copyTable(client: pg.Client, data: TableData, log: (line: string) => void): Promise<number> {
  const started = performance.now();
  const columns = data.columns.map((c) => `"${c}"`).join(', ');
  const expected = Math.max(data.expectedRows, 1);
  const big = data.expectedRows >= BIG_TABLE_ROWS;
  let written = 0;

  function* chunks(): Generator<string> {
    let nextReport = big ? expected / 10 : Infinity;
    let chunk = '';
    for (const row of data.rows()) {
      chunk += encodeRow(row);
      written++;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
      if (written >= nextReport && written < expected) {
        log(`${data.table}: ${written.toLocaleString('en-US')} / ${expected.toLocaleString('en-US')} rows (${Math.floor((100 * written) / expected)}%)`);
        nextReport += expected / 10;
      }
    }
    if (chunk) yield chunk;
  }

  await client.query('BEGIN');
  try {
    const plan = big ? await deferrableIndexes(client, data.table) : null;
    if (plan) {
      for (const statement of plan.drop) await client.query(statement);
      // FREEZE writes the rows as already frozen (no later hint-bit and freeze passes over the whole
      // table); PostgreSQL allows it only for a table truncated in the same transaction.
      await client.query(`TRUNCATE "${data.table}"`);
    }
    const options = plan ? ' WITH (FREEZE)' : '';
    await pipeline(Readable.from(chunks()), client.query(copyFrom(`COPY "${data.table}" (${columns}) FROM STDIN${options}`)));
    if (plan) {
      log(`${data.table}: building ${plan.create.length} index(es)`);
      for (const statement of plan.create) await client.query(statement);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
  log(`${data.table}: ${written.toLocaleString('en-US')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return written;
}
