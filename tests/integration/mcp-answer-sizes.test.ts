// Every MCP tool answer fits a model's context (lib/mcp/budget.ts): each tool is called with its
// default and its largest arguments over a year on an organisation whose lists are as long as the
// `large` dataset's (the seed's `lists` scale: 60 clients, 6,000 posts, more than 500 campaigns, ad sets
// and ads with a year of data), and its answer is counted by gpt-tokenizer's o200k encoding. A cut
// list continues where it was cut; tools/list and describe_metrics are small. The sizes are printed.
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { closeDb } from '@/lib/db';
import { ANSWER_TOKEN_BUDGET, BYTES_PER_TOKEN } from '@/lib/mcp/budget';
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
      for (const [args, tokens] of Object.entries(answers)) expect(tokens, args).toBeLessThanOrEqual(DESCRIBE_METRICS_TOKENS);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
