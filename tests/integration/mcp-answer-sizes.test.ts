// Every MCP tool answer fits a model's context (lib/mcp/budget.ts): each tool is called with its
// default and its largest arguments over a year on an organisation whose lists are as long as the
// `large` dataset's (the seed's `lists` scale: 60 clients, 6,000 posts, more than 500 campaigns, ad sets
// and ads with a year of data), and its answer is counted by gpt-tokenizer's o200k encoding; the
// default answers are counted at ranges from 1 to 366 days, the overviews' series by day, week or month.
// A cut list continues where it was cut: following `meta.nextOffset` from the default call walks REST's
// whole list. tools/list and describe_metrics are small, and the output schemas it lists state every
// field an answer always has. The sizes are printed. The tools are called in-process (toolAnswer, the
// MCP door's own step), so that hundreds of calls take seconds.
import Ajv2020 from 'ajv/dist/2020.js';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { closeDb } from '@/lib/db';
import { ANSWER_TOKEN_BUDGET, DEFAULT_ANSWER_TOKENS } from '@/lib/contract/limits';
import type { Operation } from '@/lib/contract/operation';
import { addDays } from '@/lib/time/days';
import { BYTES_PER_TOKEN } from '@/lib/mcp/budget';
import { TOOL_OPERATIONS } from '@/lib/mcp/catalogue';
import { toolAnswer, registerTools } from '@/lib/mcp/tools';
import { invoke } from '@/lib/operations/invoke';
import { applyMigrations } from '../../prisma/migrate';
import { seedDatabase } from '../../prisma/seed';
import { budgetMisses, measureToolAnswers, sizeCheckAuth, sizeTable, type ToolAnswerSize } from '../bench/mcp-sizes';
import { createDatabase, dropDatabase } from '../support/database';

const END_DATE = '2026-06-30';
const YEAR = { from: '2025-07-01', to: END_DATE };
/** What tools/list may cost a model, and one describe_metrics answer. */
const TOOL_LIST_TOKENS = 6_000;
const DESCRIBE_METRICS_TOKENS = 3_000;

let database: { name: string; url: string };
let org: { id: string; name: string };
let sizes: ToolAnswerSize[];

const operation = (name: string) => TOOL_OPERATIONS.find((candidate) => candidate.tool!.name === name)!;
const request = () => new Request('http://localhost/api/mcp');

beforeAll(async () => {
  database = await createDatabase('metrics_mcp_sizes');
  await applyMigrations(database.url);
  const seed = await seedDatabase(database.url, { scale: 'lists', seed: 1, endDate: END_DATE });
  org = seed.orgs.find((entry) => entry.slug === 'demo-agency')!;
  // This file's own database for lib/db, as db-frozen.test.ts does for its relay.
  await closeDb();
  process.env.DATABASE_URL = database.url;
  sizes = await measureToolAnswers(org, YEAR);
  console.log(`MCP tool answers, whole organisation, ${YEAR.from}…${YEAR.to} (seed scale \`lists\`):\n${sizeTable(sizes)}`);
}, 600_000);

afterAll(async () => {
  await closeDb();
  process.env.DATABASE_URL = inject('databaseUrl');
  if (database) await dropDatabase(database.name);
});

describe('the answer budget', () => {
  it('keeps every answer within 20,000 tokens whatever the arguments, and the defaults within 6,000', () => {
    expect(sizes.map((size) => `${size.tool} ${size.arguments}`)).toEqual(
      TOOL_OPERATIONS.flatMap((entry) => [`${entry.tool!.name} default`, `${entry.tool!.name} largest`]),
    );
    expect(budgetMisses(sizes)).toEqual([]);
    // The largest arguments of every list and series reach the budget: the cut is what keeps them within it.
    for (const tool of ['get_ads_overview', 'list_ad_entities', 'get_social_overview', 'list_social_posts']) {
      const largest = sizes.find((size) => size.tool === tool && size.arguments === 'largest')!;
      expect(largest.truncated, tool).toBe(true);
      expect(largest.tokens, tool).toBeGreaterThan(ANSWER_TOKEN_BUDGET * 0.75);
    }
  });

  it('estimates tokens from bytes at or above the tokenizer’s count', () => {
    for (const size of sizes) expect(Math.ceil(size.bytes / BYTES_PER_TOKEN), `${size.tool} ${size.arguments}`).toBeGreaterThanOrEqual(size.tokens);
  });

  it('cuts a list in the REST envelope, with a note whose offset continues it where it was cut', async () => {
    const auth = sizeCheckAuth(org);
    const args = { ...YEAR, level: 'ad', limit: 500 };
    const whole = (await invoke(operation('list_ad_entities'), auth, { kind: 'arguments', args }, request())) as { data: { rows: { id: string }[] } };
    const cut = await toolAnswer(operation('list_ad_entities'), auth, args, request());
    const rows = (cut.answer.data as { rows: { id: string }[]; truncated: boolean }).rows;
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(whole.data.rows.length);
    expect(cut.answer.data).toEqual({ rows: whole.data.rows.slice(0, rows.length), truncated: true });
    expect(cut.answer.meta.truncated).toBe(true);
    expect(cut.content).toHaveLength(2);
    expect(JSON.parse(cut.content[0]!.text)).toEqual(cut.answer);
    const note = cut.content[1]!.text;
    expect(note).toBe(
      `Truncated to fit the answer budget of 20,000 tokens: rows cut after ${rows.length}: call again with the same arguments and \`"offset": ${rows.length}\`. Or narrow with client, search, a shorter \`from\`…\`to\`.`,
    );
    expect(note).not.toMatch(/raise|increase|larger limit/i);

    const next = await toolAnswer(operation('list_ad_entities'), auth, { ...args, offset: rows.length }, request());
    const nextRows = (next.answer.data as { rows: { id: string }[] }).rows;
    expect(nextRows.map((row) => row.id)).toEqual(whole.data.rows.slice(rows.length, rows.length + nextRows.length).map((row) => row.id));
  });

  it('computes a long ads overview once, and coarsens its series by day until it fits', async () => {
    const overview = operation('get_ads_overview');
    const asked: unknown[] = [];
    const counting = { ...overview, run: (query: { granularity?: unknown }, ...rest: unknown[]) => (asked.push(query.granularity), (overview.run as (...args: unknown[]) => unknown)(query, ...rest)) };
    // A range no earlier test asked for: the response cache holds none of its answers.
    const range = { ...YEAR, from: '2025-07-02' };
    const answer = await toolAnswer(counting as typeof overview, sizeCheckAuth(org), range, request());
    // By day the year does not fit, by week neither: its series is the one computed by month.
    expect(answer.answer.meta.granularity).toBe('month');
    expect(asked).toEqual(['day']);
    const byMonth = await toolAnswer(overview, sizeCheckAuth(org), { ...range, granularity: 'month' }, request());
    const seriesOf = (whole: typeof answer) => (whole.answer.data as { series: unknown[] }).series;
    expect(seriesOf(answer)).toEqual(seriesOf(byMonth));
  });

  it('sends a long range by week within the default budget, whole', async () => {
    const weekly = await toolAnswer(operation('get_social_overview'), sizeCheckAuth(org), { ...YEAR, granularity: 'week' }, request());
    expect(weekly.content).toHaveLength(1);
    const platforms = (weekly.answer.data as { platforms: { series: { date: string }[] }[] }).platforms;
    // 2025-07-01 is a Tuesday: the first week is clipped to it, the others start on Mondays.
    expect(platforms[0]!.series.slice(0, 3).map((point) => point.date)).toEqual(['2025-07-01', '2025-07-07', '2025-07-14']);
    expect(platforms[0]!.series).toHaveLength(53);
    expect(countTokens(weekly.content[0]!.text)).toBeLessThan(ANSWER_TOKEN_BUDGET / 2);
  });
});

type JsonSchema = { $ref?: string; $defs?: Record<string, JsonSchema>; properties?: Record<string, JsonSchema>; required?: string[]; items?: JsonSchema; anyOf?: JsonSchema[] };

/** The path of every required field of `schema` present in `value` (an array by its first element), nested objects included. */
function requiredPaths(schema: JsonSchema, value: unknown, root: JsonSchema, path: (string | number)[] = []): (string | number)[][] {
  const resolved = schema.$ref ? root.$defs![schema.$ref.split('/').pop()!]! : schema;
  if (Array.isArray(value)) return value.length > 0 && resolved.items ? requiredPaths(resolved.items, value[0], root, [...path, 0]) : [];
  if (typeof value !== 'object' || value === null || !resolved.properties) return [];
  const record = value as Record<string, unknown>;
  return [
    ...(resolved.required ?? []).map((key) => [...path, key]),
    ...Object.entries(resolved.properties).flatMap(([key, child]) => (key in record ? requiredPaths(child, record[key], root, [...path, key]) : [])),
  ];
}

/** Every object schema with properties, wherever it is nested. */
function objectSchemas(schema: unknown): JsonSchema[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const children = Object.values(schema).flatMap(objectSchemas);
  return 'properties' in schema ? [schema as JsonSchema, ...children] : children;
}

describe('what a model reads before any data', () => {
  it('lists the tools in at most 6,000 tokens, and answers describe_metrics in at most 3,000 per call', async () => {
    const server = new McpServer({ name: 'sizes', version: '1.0.0' }, { capabilities: { tools: {} } });
    registerTools(server);
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'sizes', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const listed = countTokens(JSON.stringify(await client.listTools()));
      const describe = operation('describe_metrics');
      const answers: Record<string, number> = {};
      for (const args of [{}, { surface: 'ads' }, { surface: 'social' }, ...TOOL_OPERATIONS.slice(0, -1).map((entry) => ({ tool: entry.tool!.name }))]) {
        const { content } = await toolAnswer(describe, sizeCheckAuth(org), args, request());
        answers[JSON.stringify(args)] = countTokens(content[0]!.text);
      }
      console.log(`tools/list: ${listed} tokens (o200k)\ndescribe_metrics: ${Object.entries(answers).map(([args, tokens]) => `${args} ${tokens}`).join(', ')}`);
      expect(listed).toBeLessThanOrEqual(TOOL_LIST_TOKENS);
      // The output schemas state every field an answer always has, nested objects included: a
      // validating client refuses an answer without one.
      const ajv = new Ajv2020({ strict: false });
      for (const tool of (await client.listTools()).tools) {
        const schema = tool.outputSchema as JsonSchema;
        for (const object of objectSchemas(schema)) expect(object.required, `${tool.name}: ${Object.keys(object.properties!).join(', ')}`).toBeDefined();
        const validate = ajv.compile(schema);
        const args = sizes.find((size) => size.tool === tool.name && size.arguments === 'default')!.args;
        const { answer } = await toolAnswer(operation(tool.name), sizeCheckAuth(org), args, request());
        expect(validate(answer), `${tool.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        const paths = requiredPaths(schema, answer, schema);
        expect(paths.length, tool.name).toBeGreaterThan(4);
        for (const path of paths) {
          const broken = structuredClone(answer) as unknown as Record<string | number, unknown>;
          const parent = path.slice(0, -1).reduce<Record<string | number, unknown>>((node, key) => node[key] as Record<string | number, unknown>, broken);
          delete parent[path.at(-1)!];
          expect(validate(broken), `${tool.name} without ${path.join('.')}`).toBe(false);
        }
      }
      for (const [args, tokens] of Object.entries(answers)) expect(tokens, args).toBeLessThanOrEqual(DESCRIBE_METRICS_TOKENS);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

/** A tool's default arguments over the `days` days that end with the seed's last day. */
function defaultArgs(tool: string, days: number): Record<string, unknown> {
  const range = { from: addDays(END_DATE, 1 - days), to: END_DATE };
  return tool === 'list_ad_entities' ? { ...range, level: 'ad' } : range;
}

/** The tools whose default answer depends on the range (list_clients, describe_metrics and get_ad_breakdowns, whose default is one cached range, are measured above). */
const RANGED_TOOLS = ['get_ads_overview', 'list_ad_entities', 'get_social_overview', 'list_social_posts'];
/**
 * The ranges swept: every length up to a month (where the overviews leave days), the quarters' and
 * months' edges the issue names, and every 30th day to a year; the switches from day to week and from
 * week to month, where an answer is at its largest for its granularity (one more point in the series
 * than any shorter range), are found by bisection and added.
 */
const SWEEP = [...Array.from({ length: 31 }, (_, index) => index + 1), 45, 59, 60, 61, 62, 90, 91, 92, 93, 120, 150, 180, 181, 210, 240, 270, 300, 330, 364, 365, 366];

interface Measured {
  tokens: number;
  granularity: string | undefined;
}

describe('default answers at every range', () => {
  const measured = new Map<string, Map<number, Measured>>();
  const measure = async (tool: string, days: number): Promise<Measured> => {
    const byDays = measured.get(tool) ?? new Map<number, Measured>();
    measured.set(tool, byDays);
    if (!byDays.has(days)) {
      const { answer, content } = await toolAnswer(operation(tool), sizeCheckAuth(org), defaultArgs(tool, days), request());
      byDays.set(days, { tokens: countTokens(content.map((block) => block.text).join('\n')), granularity: answer.meta.granularity });
    }
    return byDays.get(days)!;
  };
  const order = ['day', 'week', 'month'];
  /** The first range length whose series is coarser than `granularity` (the granularity grows with the range). */
  const firstCoarserThan = async (tool: string, granularity: string): Promise<number> => {
    let low = 1;
    let high = 367;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (order.indexOf((await measure(tool, middle)).granularity!) > order.indexOf(granularity)) high = middle;
      else low = middle + 1;
    }
    return low;
  };

  it('keeps every tool within 6,000 tokens at default arguments from 1 to 366 days, the overviews’ series by day, then week, then month', async () => {
    for (const tool of RANGED_TOOLS) for (const days of SWEEP) await measure(tool, days);
    const switches: Record<string, number[]> = {};
    for (const tool of ['get_ads_overview', 'get_social_overview']) {
      switches[tool] = [await firstCoarserThan(tool, 'day'), await firstCoarserThan(tool, 'week')];
      for (const edge of switches[tool]) for (const days of [edge - 1, edge]) if (days >= 1 && days <= 366) await measure(tool, days);
    }
    const largest = Object.fromEntries([...measured].map(([tool, byDays]) => [tool, Math.max(...[...byDays.values()].map((entry) => entry.tokens))]));
    console.log(`Default answers, 1…366 days (${SWEEP.length} lengths and the switches): largest ${JSON.stringify(largest)}; series by week from ${JSON.stringify(switches)} days (then by month)`);
    for (const [tool, byDays] of measured) {
      for (const [days, { tokens }] of byDays) expect(tokens, `${tool} over ${days} days`).toBeLessThanOrEqual(DEFAULT_ANSWER_TOKENS);
      const lengths = [...byDays.keys()].sort((a, b) => a - b);
      if (tool === 'get_ads_overview' || tool === 'get_social_overview') {
        // A series at every length, never dropped, its buckets only ever coarser as the range grows.
        const granularities = lengths.map((days) => byDays.get(days)!.granularity!);
        expect(granularities[0], tool).toBe('day');
        expect(granularities.map((granularity) => order.indexOf(granularity)), tool).toEqual([...granularities.map((granularity) => order.indexOf(granularity))].sort());
        expect(byDays.get(366)!.granularity, tool).not.toBe('day');
      } else for (const days of lengths) expect(byDays.get(days)!.granularity, `${tool} ${days}`).toBeUndefined();
    }
  }, 120_000);

  it('says when and why the series is by week or month, and sends every bucket of the range', async () => {
    const args = defaultArgs('get_social_overview', 120);
    const { answer, content } = await toolAnswer(operation('get_social_overview'), sizeCheckAuth(org), args, request());
    expect(answer.meta.granularity).toBe('week');
    const rest = await invoke(operation('get_social_overview'), sizeCheckAuth(org), { kind: 'query', params: new URLSearchParams({ ...(args as Record<string, string>), granularity: 'week' }) }, request());
    expect(answer).toEqual({ ...(rest as object), meta: { ...(rest as { meta: object }).meta, granularity: 'week' } });
    expect(content).toHaveLength(2);
    expect(content[1]!.text).toBe(
      'The series is by week (`meta.granularity`): by day this answer would pass 6,000 tokens. For days, ask for `"granularity": "day"`, best with a shorter range.',
    );
    // Asked for by day, it comes by day.
    const daily = await toolAnswer(operation('get_social_overview'), sizeCheckAuth(org), { ...args, granularity: 'day' }, request());
    expect(daily.answer.meta.granularity).toBe('day');
    expect((daily.answer.data as { platforms: { series: unknown[] }[] }).platforms[0]!.series).toHaveLength(120);
  });
});

/** Ids of a list answer's rows, whichever tool answered it. */
function idsOf(data: unknown): string[] {
  const rows = Array.isArray(data) ? data : ((data as { rows?: unknown[]; posts?: unknown[] }).rows ?? (data as { posts: unknown[] }).posts);
  return (rows as { id: string }[]).map((row) => row.id);
}

/** REST's whole list for a query: its pages of up to 500 read by `offset` until one is not truncated. */
async function restList(operationOf: Operation, query: Record<string, string>): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const params = new URLSearchParams(operationOf.query.shape.offset ? { ...query, offset: String(ids.length) } : query);
    if (operationOf.query.shape.limit) params.set('limit', '500');
    const page = (await invoke(operationOf, sizeCheckAuth(org), { kind: 'query', params }, request())) as { data: unknown; meta: { truncated?: boolean } };
    ids.push(...idsOf(page.data));
    if (!page.meta.truncated || !operationOf.query.shape.offset) return ids;
  }
}

/** Follows `meta.nextOffset` from `args` (the first call) with `tool`, checking each cut answer's note; the ids read and the calls made. */
async function walk(tool: string, args: Record<string, unknown>, first = tool): Promise<{ ids: string[]; calls: number }> {
  const ids: string[] = [];
  let calls = 0;
  let next: Record<string, unknown> | null = args;
  let name = first;
  while (next) {
    const { answer, content } = await toolAnswer(operation(name), sizeCheckAuth(org), next, request());
    calls += 1;
    ids.push(...idsOf(name === 'get_ads_overview' ? (answer.data as { campaigns: unknown[] }).campaigns : answer.data));
    const nextOffset = answer.meta.nextOffset;
    // Cut and nextOffset go together, and the text says the same offset.
    expect(nextOffset !== undefined, `${name} ${JSON.stringify(next)}`).toBe(answer.meta.truncated === true);
    if (nextOffset === undefined) break;
    expect(content[1]!.text).toContain(`\`"offset": ${nextOffset}\``);
    // From the overview on into list_ad_entities: the same range and client, the campaigns' level.
    const same: Record<string, unknown> = Object.fromEntries(Object.entries(next).filter(([key]) => !['series', 'granularity', 'limit'].includes(key)));
    next = name === 'get_ads_overview' ? { ...same, level: 'campaign', offset: nextOffset } : { ...next, offset: nextOffset };
    name = tool;
  }
  return { ids, calls };
}

describe('reading on with meta.nextOffset', () => {
  const month = { from: '2026-06-01', to: '2026-06-30' };
  const quarter = { from: '2026-04-01', to: '2026-06-30' };

  it.each([
    ['list_clients', {}, {}],
    ['list_ad_entities', { ...month, level: 'adset' }, { ...month, level: 'adset' }],
    ['list_ad_entities', { ...month, level: 'ad' }, { ...month, level: 'ad' }],
    ['list_social_posts', month, month],
  ])('walks %s from the default call through REST’s whole list: same ids, same order, no gap, no duplicate', async (tool, args, query) => {
    const rest = await restList(operation(tool), query as Record<string, string>);
    const { ids, calls } = await walk(tool, args);
    expect(calls).toBeGreaterThan(2);
    expect(ids).toEqual(rest);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each([
    ['list_ad_entities', { ...YEAR, level: 'campaign', limit: 500 }, { ...YEAR, level: 'campaign' }],
    ['list_social_posts', { ...quarter, limit: 500 }, quarter],
  ])('walks %s cut by the answer budget through REST’s whole list, across REST’s pages of 500', async (tool, args, query) => {
    const rest = await restList(operation(tool), query as Record<string, string>);
    expect(rest.length).toBeGreaterThan(500);
    const { ids, calls } = await walk(tool, args);
    expect(calls).toBeGreaterThan(2);
    expect(ids).toEqual(rest);
  });

  it('walks get_ads_overview’s campaigns on into list_ad_entities, as REST lists the campaigns', async () => {
    const rest = await restList(operation('list_ad_entities'), { ...month, level: 'campaign' });
    const { ids } = await walk('list_ad_entities', month, 'get_ads_overview');
    expect(ids).toEqual(rest);
  });

  it('sends no nextOffset when the list is whole', async () => {
    const { answer, content } = await toolAnswer(operation('list_clients'), sizeCheckAuth(org), { limit: 50, offset: 50 }, request());
    expect(idsOf(answer.data).length).toBeGreaterThan(0);
    expect(answer.meta.truncated).toBeUndefined();
    expect(answer.meta.nextOffset).toBeUndefined();
    expect(content).toHaveLength(1);
  });
});
