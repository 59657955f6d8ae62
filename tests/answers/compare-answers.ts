// npm run compare:answers -- --record <file> | --against <file> [--database-url URL]
// Proof that a restructure changed no answer: calls every operation (tests/answers/calls.ts) on a
// database seeded at the `demo` scale with a fixed seed and end date (seeded on first use, as the
// benchmark's are), through the shared step both doors use, and records each answer's status and body
// bytes (REST: the envelope's JSON or the problem document, or the bytes of a binary answer; MCP: the
// text blocks of each tool's result). `--record` writes them to a file (keep it outside the repository:
// it is the state before the change); `--against` calls again and compares byte for byte, listing every
// call whose answer differs, and exits non-zero if any does. It also records the distinct SQL texts the
// calls sent, and says whether they are the same: a restructure that keeps them keeps the prepared
// statements' names and plans (a change of text is reported, not refused: a query may change on purpose
// while its answers stay the same). The gate (credential and rate limit) is not crossed: the credentials
// are built here, so that hundreds of calls are not limited.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ensureBenchDatabase, GROWTH_SEED } from '../bench/database';
import type { Call, CallFixtures } from './calls';

interface Answer {
  name: string;
  status: number;
  sha256: string;
  /** The body as text (JSON), or base64 for bytes that are not. */
  body: string;
}

interface Recording {
  seed: typeof GROWTH_SEED;
  answers: Answer[];
  /** The distinct SQL texts sent, sorted. */
  statements: string[];
}

// A database of its own: a benchmark that seeds its databases again cannot drop it mid-comparison.
const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/metrics_answers';
const USAGE = 'usage: npm run compare:answers -- --record <file> | --against <file> [--database-url URL]';
const REQUEST_ID = 'compare-answers';

function answerOf(name: string, status: number, bytes: Buffer, binary: boolean): Answer {
  return { name, status, sha256: createHash('sha256').update(bytes).digest('hex'), body: bytes.toString(binary ? 'base64' : 'utf8') };
}

async function loadFixtures(): Promise<CallFixtures> {
  const { sql } = await import('@/lib/db');
  const { loadFixtures: benchFixtures } = await import('../bench/cases');
  const { orgId, client, breakdownEntities } = await benchFixtures();
  const first = async (text: string, params: unknown[]) => (await sql<{ id: string }>(text, params))[0]!.id;
  // The client's first entity of a level, so that a call at either reach finds it.
  const clients = (table: string) =>
    first(`SELECT e.id FROM ${table} e JOIN ad_accounts a ON a.id = e.account_id WHERE e.org_id = $1 AND a.client_id = $2 ORDER BY e.platform_id LIMIT 1`, [orgId, client.id]);
  const breakdown = breakdownEntities[0]!;
  return {
    endDate: GROWTH_SEED.endDate,
    clientId: client.id,
    campaignId: await clients('campaigns'),
    adSetId: await clients('ad_sets'),
    adId: await clients('ads'),
    postId: await first(
      `SELECT p.id FROM social_posts p JOIN social_post_thumbnails t ON t.post_id = p.id
        WHERE p.org_id = $1 AND t.bytes IS NOT NULL ORDER BY p.post_id LIMIT 1`,
      [orgId],
    ),
    breakdown: { level: breakdown.level, entityId: breakdown.entityId, from: breakdown.from, to: breakdown.to },
  };
}

/** Every call's answer, REST then (for operations with a tool face) MCP. */
async function answerAll(): Promise<Answer[]> {
  const { sql } = await import('@/lib/db');
  const { SCOPES } = await import('@/lib/contract/scopes');
  const { invokeJson } = await import('@/lib/operations/invoke');
  const { toApiError } = await import('@/lib/operations/failures');
  const { problemBody, problemResponse } = await import('@/lib/operations/problems');
  const { answerResponse } = await import('@/lib/rest/responses');
  const { toolAnswer } = await import('@/lib/mcp/tools');
  const { everyCall } = await import('./calls');
  const fixtures = await loadFixtures();
  const [org] = await sql<{ id: string; name: string }>(`SELECT id, name FROM organizations WHERE slug = 'demo-agency'`);
  const credential = (reach: Call['reach']) => ({
    kind: 'api_key' as const,
    keyId: '00000000-0000-4000-8000-00000000a11e',
    keyName: 'answers',
    keyPrefix: 'mk_answers',
    expiresAt: null,
    orgId: org!.id,
    orgName: org!.name,
    scopes: [...SCOPES],
    clientIds: reach === 'org' ? null : [fixtures.clientId],
  });
  const answers: Answer[] = [];
  for (const call of everyCall(fixtures)) {
    const auth = credential(call.reach);
    const request = new Request(`http://localhost/api/v1${call.operation.path}?${call.params}`);
    let response: Response;
    try {
      const result = await invokeJson(call.operation, auth, { kind: 'query', params: call.params }, request);
      response = result instanceof Response ? result : answerResponse(result, request);
    } catch (error) {
      response = problemResponse(toApiError(error, REQUEST_ID));
    }
    const binary = !/json/.test(response.headers.get('content-type') ?? '');
    answers.push(answerOf(`REST ${call.name}`, response.status, Buffer.from(await response.arrayBuffer()), binary));
    if (!call.operation.tool) continue;
    // The tool's JSON arguments: the query's values, numbers as numbers.
    const args = Object.fromEntries([...call.params].map(([key, value]) => [key, /^\d+$/.test(value) ? Number(value) : value]));
    let status = 200;
    let text: string;
    try {
      text = JSON.stringify((await toolAnswer(call.operation, auth, args, request)).content);
    } catch (error) {
      const problem = toApiError(error, REQUEST_ID);
      status = problem.status;
      text = JSON.stringify(problemBody(problem));
    }
    answers.push(answerOf(`MCP ${call.operation.tool.name} ${call.name}`, status, Buffer.from(text), false));
  }
  return answers;
}

/** Every SQL text that lib/db's connections send from now on (pg's one Client class runs them all). */
function recordStatements(): Set<string> {
  const texts = new Set<string>();
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    if (text) texts.add(text);
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  return texts;
}

/** Lines describing how `after` differs from `before`: each changed, missing or new answer. */
function differences(before: Answer[], after: Answer[]): string[] {
  const old = new Map(before.map((answer) => [answer.name, answer]));
  const lines: string[] = [];
  for (const answer of after) {
    const was = old.get(answer.name);
    old.delete(answer.name);
    if (!was) lines.push(`new: ${answer.name}`);
    else if (was.status !== answer.status || was.sha256 !== answer.sha256) {
      const at = [...was.body].findIndex((char, i) => char !== answer.body[i]);
      lines.push(
        `differs: ${answer.name}: status ${was.status} → ${answer.status}, ${was.body.length} → ${answer.body.length} characters` +
          (at >= 0 ? `, from character ${at}: ${JSON.stringify(was.body.slice(at, at + 80))} → ${JSON.stringify(answer.body.slice(at, at + 80))}` : ''),
      );
    }
  }
  for (const name of old.keys()) lines.push(`missing: ${name}`);
  return lines;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { record: { type: 'string' }, against: { type: 'string' }, 'database-url': { type: 'string' } } });
  if (!values.record === !values.against) {
    console.error(USAGE);
    return 2;
  }
  const databaseUrl = values['database-url'] ?? process.env.ANSWERS_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  await ensureBenchDatabase(databaseUrl, (line) => console.log(line), GROWTH_SEED);
  process.env.DATABASE_URL = databaseUrl;
  // Every answer computed, none from the response cache.
  process.env.RESPONSE_CACHE_MAX_BYTES = '0';
  const sent = recordStatements();
  const started = performance.now();
  const answers = await answerAll();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const statements = [...sent].sort();
  if (values.record) {
    writeFileSync(values.record, JSON.stringify({ seed: GROWTH_SEED, answers, statements } satisfies Recording));
    console.log(`recorded ${answers.length} answers and ${statements.length} distinct statements in ${seconds} s to ${values.record}`);
    return 0;
  }
  const before = JSON.parse(readFileSync(values.against!, 'utf8')) as Recording;
  const lines = differences(before.answers, answers);
  for (const line of lines) console.log(line);
  const kept = new Set(before.statements);
  const changed = statements.filter((text) => !kept.has(text)).length;
  console.log(
    `${statements.length} distinct statements (${before.statements.length} before): ${changed === 0 && statements.length === kept.size ? 'the same texts' : `${changed} new or changed texts`}`,
  );
  console.log(`${answers.length} answers compared in ${seconds} s: ${lines.length === 0 ? 'all identical' : `${lines.length} differ`}`);
  return lines.length === 0 ? 0 : 1;
}

process.exitCode = await main();
// The database pool would keep the process alive.
process.exit();
