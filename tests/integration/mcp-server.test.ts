// The MCP server on a real production server (`npm start`: scripts/server.mjs), driven by both official client SDKs over Streamable
// HTTP: the seven tools as listed, every tool's answer equal to the REST answer for the same query,
// bad arguments, reach (a restricted key, a member's OAuth grant), the 401 and 403 challenges, the
// Origin check, CORS, the rate limit shared with REST, and the protected-resource metadata.
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashKey } from '@/lib/keys/issuing';
import { sql } from '@/lib/db';
import { DATA_USE_RULE } from '@/lib/contract/data-use';
import { PROTOCOL_RATE_LIMIT, RATE_LIMIT } from '@/lib/contract/limits';
import { argumentsHash } from '@/lib/usage/tool-calls';
import { mintKey } from '../support/api';
import { personOf } from './platform-support';
import { awayFromWindowEdge } from '../support/rate-limit-window';
import { startTestServer, type TestServer } from '../support/http-server';
import { connectOverHttp, discover } from '../support/oauth-flow';
import { connect, MCP_PATH, postRpc, problemOf, rpcMessages, SDKS, toolCall, type McpTestClient, type ToolResult } from './mcp-support';

const TOOLS = ['list_clients', 'get_ads_overview', 'list_ad_entities', 'get_ad_breakdowns', 'get_social_overview', 'list_social_posts', 'describe_metrics'];
const RANGE = { from: '2026-05-01', to: '2026-06-30' };
const REDIRECT = 'http://127.0.0.1:43118/callback';

let server: TestServer;
let as: oauth.AuthorizationServer;
let orgId: string;
let key: string;
let clientIds: string[];
let member: { userId: string; orgId: string; membershipId: string };

async function rest(path: string, credential = key): Promise<unknown> {
  const response = await server.request(path, { key: credential });
  expect(response.status, path).toBe(200);
  return response.json();
}

/** A success's answer: its JSON text and structuredContent alike; `notes` text blocks after it (a cut list's or a coarsened series' note). */
function expectSuccess(result: ToolResult, notes = 0): Record<string, unknown> {
  expect(result.isError ?? false, JSON.stringify(result.content).slice(0, 500)).toBe(false);
  expect(result.content).toHaveLength(1 + notes);
  expect(result.content.map((block) => block.type)).toEqual(result.content.map(() => 'text'));
  expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent);
  return result.structuredContent!;
}

/** A REST answer as a tool sends it: `meta` with the keys of MCP's own (`granularity`, `nextOffset`). */
function asTool(answer: unknown, meta: Record<string, unknown>): unknown {
  const { meta: own, ...rest } = answer as { meta: Record<string, unknown> };
  return { ...rest, meta: { ...own, ...meta } };
}

const previousAppUrl = process.env.APP_URL;

beforeAll(async () => {
  server = await startTestServer({ databaseUrl: inject('databaseUrl') });
  // The OAuth helpers run in this process and build URLs from APP_URL: the server's.
  process.env.APP_URL = server.origin;
  as = await discover(server.origin);
  orgId = inject('seed').orgs.find((org) => org.slug === 'demo-agency')!.id;
  key = await mintKey({ orgId, scopes: ['ads:read', 'social:read'] });
  clientIds = (await sql<{ id: string }>('SELECT id FROM clients WHERE org_id = $1 ORDER BY name, id', [orgId])).map((row) => row.id);
  member = await personOf('member@demo.agency');
}, 300_000);

afterAll(async () => {
  if (previousAppUrl === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = previousAppUrl;
  await server?.stop();
});

describe.each(SDKS)('with %s', (sdk) => {
  let client: McpTestClient;
  beforeAll(async () => {
    // A key of its own for each SDK: together they call more than one key's 60 a minute.
    key = await mintKey({ orgId, scopes: ['ads:read', 'social:read'] });
    client = await connect(sdk, server.origin, key);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('tells the assistant the data-use rule in the instructions it connects with', () => {
    expect(client.instructions()!.split('\n')).toContain(`Use of the data: ${DATA_USE_RULE}`);
  });

  it('lists the seven tools with titles, typed argument schemas, the envelope as output and read-only annotations', async () => {
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/\w/);
      if (tool.name !== 'describe_metrics') expect(tool.description, tool.name).toMatch(/ Fields: describe_metrics\.$/);
      expect(tool.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false });
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(tool.outputSchema).toMatchObject({ type: 'object', required: ['data', 'meta'] });
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName.get_ads_overview!.inputSchema.properties!)).toEqual(['client', 'from', 'to', 'campaignId', 'adSetId', 'adId', 'granularity', 'limit', 'series']);
    expect(byName.get_social_overview!.inputSchema.properties!.series).toMatchObject({ type: 'string', enum: ['auto', 'all', 'none'], default: 'auto' });
    // No default: without it the series comes by day, or by week or month when by day it would not fit.
    expect(byName.get_social_overview!.inputSchema.properties!.granularity).toEqual({ type: 'string', enum: ['day', 'week', 'month'], description: expect.stringContaining('`meta.granularity`') });
    for (const list of ['list_clients', 'list_ad_entities', 'list_social_posts']) expect(byName[list]!.description, list).toContain('`offset` = `meta.nextOffset`');
    expect(byName.get_ads_overview!.inputSchema.required).toEqual(['from', 'to']);
    expect(byName.list_ad_entities!.inputSchema.properties!.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 500, default: 10 });
    expect(byName.list_social_posts!.inputSchema.properties!.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 500, default: 20 });
    expect(byName.list_ad_entities!.inputSchema.properties!.offset).toMatchObject({ type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 });
    expect(byName.list_ad_entities!.inputSchema.properties!.level).toMatchObject({ type: 'string', enum: ['campaign', 'adset', 'ad'] });
    expect(Object.keys(byName.list_clients!.inputSchema.properties!)).toEqual(['limit', 'offset']);
    expect(Object.keys(byName.describe_metrics!.inputSchema.properties!)).toEqual(['surface', 'tool']);
  });

  it('answers every tool with exactly the REST answer to the same query', async () => {
    const clients = await rest('/api/v1/clients');
    expect(expectSuccess(await client.callTool('list_clients'))).toEqual(clients);

    const query = new URLSearchParams(RANGE).toString();
    // An overview's `meta` also says the granularity of its series; asked by day (REST's default), it is REST's.
    const byDay = { granularity: 'day' };
    expect(expectSuccess(await client.callTool('get_ads_overview', { ...RANGE, limit: 500, ...byDay }))).toEqual(asTool(await rest(`/api/v1/ads/overview?${query}`), byDay));
    expect(expectSuccess(await client.callTool('get_ads_overview', { ...RANGE, client: clientIds[0], limit: 500, ...byDay }))).toEqual(
      asTool(await rest(`/api/v1/ads/overview?${query}&client=${clientIds[0]}`), byDay),
    );
    // REST lists up to the cap; the tool's `limit` set to the cap asks for the same.
    const entities = (await rest(`/api/v1/ads/entities?${query}&level=ad`)) as { data: { rows: { id: string }[] } };
    expect(expectSuccess(await client.callTool('list_ad_entities', { ...RANGE, level: 'ad', limit: 500 }))).toEqual(entities);
    const campaign = entities.data.rows[0]!;
    expect(expectSuccess(await client.callTool('get_ad_breakdowns', { ...RANGE, level: 'ad', entityId: campaign.id }))).toEqual(
      await rest(`/api/v1/ads/breakdowns?${query}&level=ad&entityId=${campaign.id}`),
    );
    expect(expectSuccess(await client.callTool('get_social_overview', { ...RANGE, ...byDay }))).toEqual(asTool(await rest(`/api/v1/social/overview?${query}`), byDay));
    const posts = (await rest(`/api/v1/social/posts?${query}`)) as { meta: { truncated: boolean } };
    const cut = posts.meta.truncated;
    expect(expectSuccess(await client.callTool('list_social_posts', { ...RANGE, limit: 100 }), cut ? 1 : 0)).toEqual(cut ? asTool(posts, { nextOffset: 100 }) : posts);
  });

  it('describes the common rules, a surface’s rules and metrics, and one tool’s fields, each on its own', async () => {
    type Described = {
      data: { rules: Record<string, string>; metrics: Record<'ads' | 'socialPlatform' | 'socialPost', { name: string; unit: string }[]>; fields: { path: string; type: string; metric: string | null }[] };
      meta: Record<string, unknown>;
    };
    const common = expectSuccess(await client.callTool('describe_metrics')) as Described;
    expect(common.meta).toEqual({ timezone: 'Asia/Kolkata', syncedAt: null });
    expect(common.data.rules.nullMeansNotReported).toContain('never zero');
    expect(common.data.rules.seriesBuckets).toContain('ISO week');
    expect(common.data.metrics).toEqual({ ads: [], socialPlatform: [], socialPost: [] });
    expect(common.data.fields).toEqual([]);

    const ads = expectSuccess(await client.callTool('describe_metrics', { surface: 'ads' })) as Described;
    expect(ads.data.rules.reach).toContain('PEAK');
    expect(ads.data.metrics.ads.map((metric) => metric.name)).toContain('spend');
    const social = expectSuccess(await client.callTool('describe_metrics', { surface: 'social' })) as Described;
    expect(social.data.rules.followers).toContain('LAST level');

    const overview = expectSuccess(await client.callTool('describe_metrics', { tool: 'get_ads_overview' })) as Described;
    expect(overview.data.rules).toEqual({});
    expect(overview.data.fields).toContainEqual(expect.objectContaining({ path: 'data.kpis.spend', metric: 'spend' }));
    expect(overview.data.fields).toContainEqual(expect.objectContaining({ path: 'data.campaigns[].ctr', metric: 'ctr' }));
    expect(overview.data.fields).toContainEqual(expect.objectContaining({ path: 'meta.currency', type: 'string|null' }));
    const posts = expectSuccess(await client.callTool('describe_metrics', { tool: 'list_social_posts' })) as Described;
    expect(posts.data.fields).toContainEqual(expect.objectContaining({ path: 'data.posts[].likes', metric: 'likes' }));
    // The tool's own answer, `meta` keys of MCP's own included: the offset that reads on, the series' buckets.
    expect(posts.data.fields).toContainEqual({ path: 'meta.nextOffset', type: 'integer', description: 'Set when a list came cut: the `offset` that reads on.', metric: null });
    expect(overview.data.fields).toContainEqual({ path: 'meta.granularity', type: 'string', description: 'The buckets of the series.', metric: null });
    // Every metric a field names is defined in its surface's answer.
    const names = new Set([...ads.data.metrics.ads, ...social.data.metrics.socialPlatform, ...social.data.metrics.socialPost].map((metric) => metric.name));
    for (const tool of TOOLS.slice(0, 6)) {
      const described = expectSuccess(await client.callTool('describe_metrics', { tool })) as Described;
      for (const field of described.data.fields) if (field.metric) expect(names.has(field.metric), field.path).toBe(true);
    }
    expect(problemOf(await client.callTool('describe_metrics', { surface: 'ads', tool: 'list_clients' }))).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'tool', message: 'give `surface` or `tool`, not both' }],
    });
  });

  it('cuts lists at `limit` (default 20 posts), says so in `truncated` as REST does at its cap, and gives the offset that reads on', async () => {
    const query = new URLSearchParams(RANGE).toString();
    const all = (await rest(`/api/v1/ads/entities?${query}&level=ad`)) as { data: { rows: unknown[] }; meta: Record<string, unknown> };
    expect(all.data.rows.length).toBeGreaterThan(4);
    const result = await client.callTool('list_ad_entities', { ...RANGE, level: 'ad', limit: 2 });
    const cut = expectSuccess(result, 1) as typeof all;
    expect(cut.data).toEqual({ rows: all.data.rows.slice(0, 2), truncated: true });
    expect(cut.meta).toMatchObject({ truncated: true, nextOffset: 2 });
    expect(result.content[1]!.text).toBe('More rows follow: call again with the same arguments and `"offset": 2`.');
    const next = await client.callTool('list_ad_entities', { ...RANGE, level: 'ad', limit: 2, offset: 2 });
    expect((expectSuccess(next, 1) as typeof all).data.rows).toEqual(all.data.rows.slice(2, 4));
    expect(next.content[1]!.text).toBe('More rows follow: call again with the same arguments and `"offset": 4`.');

    const posts = (await rest(`/api/v1/social/posts?${query}&limit=500`)) as { data: { posts: unknown[] } };
    const more = posts.data.posts.length > 20;
    const listed = expectSuccess(await client.callTool('list_social_posts', RANGE), more ? 1 : 0) as typeof posts & { data: { truncated: boolean }; meta: { nextOffset?: number } };
    expect(listed.data.posts).toEqual(posts.data.posts.slice(0, 20));
    expect(listed.data.truncated).toBe(more);
    expect(listed.meta.nextOffset).toBe(more ? 20 : undefined);
    // `offset` continues the list, as on REST, whose `meta` keeps the spec's keys: no nextOffset there.
    const page = (await rest(`/api/v1/social/posts?${query}&limit=2&offset=2`)) as typeof posts & { meta: Record<string, unknown> };
    expect(Object.keys(page.meta)).not.toContain('nextOffset');
    const second = expectSuccess(await client.callTool('list_social_posts', { ...RANGE, limit: 2, offset: 2 }), 1) as typeof posts;
    expect(second).toEqual(asTool(page, { nextOffset: 4 }));
    expect(second.data.posts).toEqual(posts.data.posts.slice(2, 4));
  });

  it('sends a long range\'s series by week or month by default (and says so), by day when asked, and never drops it', async () => {
    const year = { from: '2025-07-01', to: '2026-06-30' };
    const query = new URLSearchParams(year).toString();
    const ads = (await rest(`/api/v1/ads/overview?${query}`)) as { data: { series: unknown[]; campaigns: unknown[] } };
    const social = (await rest(`/api/v1/social/overview?${query}`)) as { data: { platforms: { series: unknown[] }[] } };
    expect(ads.data.series).toHaveLength(365);
    // `all`, or `granularity` given: that series whole, as REST sends it.
    expect(expectSuccess(await client.callTool('get_ads_overview', { ...year, limit: 500, series: 'all' }))).toEqual(asTool(ads, { granularity: 'day' }));
    const weekly = await rest(`/api/v1/social/overview?${query}&granularity=week`);
    expect(expectSuccess(await client.callTool('get_social_overview', { ...year, granularity: 'week' }))).toEqual(asTool(weekly, { granularity: 'week' }));
    // By default a year is too long by day for 6,000 tokens: by week or month, with a note saying so.
    for (const tool of ['get_ads_overview', 'get_social_overview']) {
      const result = await client.callTool(tool, year);
      const answer = expectSuccess(result, 1) as { meta: { granularity: string } };
      expect(['week', 'month'], tool).toContain(answer.meta.granularity);
      const path = tool === 'get_ads_overview' ? 'ads' : 'social';
      const coarse = await rest(`/api/v1/${path}/overview?${query}&granularity=${answer.meta.granularity}`);
      const note = `The series is by ${answer.meta.granularity} (\`meta.granularity\`): by day this answer would pass 6,000 tokens. For days, ask for \`"granularity": "day"\`, best with a shorter range.`;
      // The demo's campaigns of a year fit in the default `limit` of 10: nothing else is cut.
      if (tool === 'get_ads_overview') expect((coarse as typeof ads).data.campaigns.length).toBeLessThanOrEqual(10);
      expect(answer).toEqual(asTool(coarse, { granularity: answer.meta.granularity }));
      expect(result.content[1]!.text).toBe(note);
    }
    // Every day of a year of two platforms is over the answer budget: cut, with how to read on.
    const daily = await client.callTool('get_social_overview', { ...year, series: 'all' });
    expectSuccess(daily, 1);
    const cut = daily.structuredContent as typeof social & { meta: { truncated: boolean } };
    expect(cut.meta.truncated).toBe(true);
    const kept = cut.data.platforms[0]!.series.length;
    expect(kept).toBeGreaterThan(30);
    expect(kept).toBeLessThan(365);
    expect(cut.data.platforms.map((platform) => platform.series)).toEqual(social.data.platforms.map((platform) => platform.series.slice(0, kept)));
    expect(daily.content[1]!.text).toMatch(/^Truncated to fit the answer budget of 20,000 tokens: series cut after \d+: it ends with the point of \d{4}-\d{2}-\d{2}; ask for `"granularity": "week"`/);
    // `none` leaves it out whatever the range.
    expect((expectSuccess(await client.callTool('get_ads_overview', { ...RANGE, series: 'none' })) as typeof ads).data.series).toEqual([]);
    expect(problemOf(await client.callTool('get_social_overview', { ...RANGE, series: 'weekly', granularity: 'year' }))).toMatchObject({
      code: 'validation_failed',
      errors: [
        { path: 'granularity', message: expect.any(String) },
        { path: 'series', message: expect.any(String) },
      ],
    });
  });

  it('answers bad arguments with the REST problem: code, detail and every problem in errors[]', async () => {
    const problem = problemOf(await client.callTool('get_ads_overview', { from: '2026-02-30', to: 20260630, clientId: 'x' }));
    expect(problem).toEqual({
      type: `${server.origin}/docs/errors#validation_failed`,
      title: 'Validation failed',
      status: 400,
      detail: 'The query has 3 problems; see errors[].',
      code: 'validation_failed',
      errors: [
        { path: 'to', message: 'must be a string' },
        { path: 'clientId', message: 'is not a parameter of this tool' },
        { path: 'from', message: 'is not a real calendar date' },
      ],
    });
    const counts = problemOf(await client.callTool('list_social_posts', { ...RANGE, limit: '10' }));
    expect(counts.errors).toEqual([{ path: 'limit', message: 'must be a number' }]);
    const range = problemOf(await client.callTool('list_ad_entities', { level: 'ad', from: '2025-01-01', to: '2026-06-30', limit: 501 }));
    expect(range.errors).toEqual([
      { path: 'limit', message: 'must be a whole number from 1 to 500' },
      { path: 'to', message: 'the range may not exceed 366 days (from and to included)' },
    ]);
  });

  it('answers an id outside the reach as not found', async () => {
    const problem = problemOf(await client.callTool('get_ads_overview', { ...RANGE, client: '00000000-0000-4000-8000-000000000000' }));
    expect(problem.code).toBe('not_found');
    expect(problem.status).toBe(404);
  });
});

describe('reach', () => {
  it('a key restricted to one client sees that client only', async () => {
    const restricted = await mintKey({ orgId, scopes: ['ads:read'], clientIds: [clientIds[1]!] });
    const client = await connect(SDKS[0]!, server.origin, restricted);
    try {
      const clients = expectSuccess(await client.callTool('list_clients')) as { data: { id: string }[] };
      expect(clients.data.map((entry) => entry.id)).toEqual([clientIds[1]]);
      const other = problemOf(await client.callTool('get_ads_overview', { ...RANGE, client: clientIds[0] }));
      expect(other.code).toBe('not_found');
      // Lacking social:read, an API key gets `forbidden` as a tool result: no authorization server can widen a key.
      const forbidden = problemOf(await client.callTool('get_social_overview', RANGE));
      expect(forbidden).toMatchObject({ code: 'forbidden', status: 403, detail: 'This credential lacks the scope social:read, which get_social_overview requires.' });
    } finally {
      await client.close();
    }
  });

  it("a member's OAuth grant sees the member's clients only, as listed for them now", async () => {
    const { tokens } = await connectOverHttp(server.origin, as, member, REDIRECT);
    const allowed = (await sql<{ clientId: string }>('SELECT client_id AS "clientId" FROM member_client_access WHERE membership_id = $1', [member.membershipId])).map(
      (row) => row.clientId,
    );
    expect(allowed.length).toBeGreaterThan(0);
    expect(allowed.length).toBeLessThan(clientIds.length);
    const client = await connect(SDKS[1]!, server.origin, tokens.access_token);
    try {
      const clients = expectSuccess(await client.callTool('list_clients')) as { data: { id: string }[] };
      expect(clients.data.map((entry) => entry.id).sort()).toEqual([...allowed].sort());
      const outside = clientIds.find((id) => !allowed.includes(id))!;
      expect(problemOf(await client.callTool('get_social_overview', { ...RANGE, client: outside })).code).toBe('not_found');
    } finally {
      await client.close();
    }
  });
});

describe('authorization', () => {
  const challenge = () => `Bearer resource_metadata="${server.origin}/.well-known/oauth-protected-resource/api/mcp", scope="ads:read social:read"`;

  it('answers 401 with the discovery challenge without a credential, and names invalid_token for a bad one', async () => {
    const missing = await postRpc(server.origin, toolCall(1, 'list_clients'));
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe(challenge());
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect(missing.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT.limit));
    expect(missing.headers.get('ratelimit-policy')).toBe(`"default";q=${RATE_LIMIT.limit};w=${RATE_LIMIT.windowSeconds}`);
    expect(missing.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${missing.headers.get('x-ratelimit-remaining')};t=([0-9]|[1-5][0-9]|60)$`));
    expect(await missing.json()).toMatchObject({ code: 'unauthorized', status: 401 });

    for (const token of ['not-a-token-we-issued', 'mk_live_short']) {
      const bad = await postRpc(server.origin, toolCall(1, 'list_clients'), { token });
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toBe(`${challenge()}, error="invalid_token"`);
    }
  });

  it('challenges an OAuth grant lacking a tool’s scope with 403 insufficient_scope (step-up), and lists all seven tools', async () => {
    const { tokens } = await connectOverHttp(server.origin, as, member, REDIRECT, { scope: 'social:read' });
    const listed = await rpcMessages(await postRpc(server.origin, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: tokens.access_token }));
    expect((listed[0]!.result as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual(TOOLS);

    const response = await postRpc(server.origin, toolCall(2, 'get_ads_overview', RANGE), { token: tokens.access_token });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", error_description="This tool needs the scope ads:read", scope="ads:read social:read", resource_metadata="${server.origin}/.well-known/oauth-protected-resource/api/mcp"`,
    );
    expect(response.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT.limit));

    const allowed = await rpcMessages(await postRpc(server.origin, toolCall(3, 'get_social_overview', RANGE), { token: tokens.access_token }));
    expect((allowed[0]!.result as ToolResult).isError ?? false).toBe(false);
  });

  it('serves the protected-resource metadata at both well-known addresses, with CORS', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(new URL(path, server.origin), { headers: { origin: 'https://claude.ai' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: `${server.origin}/api/mcp`,
        authorization_servers: [server.origin],
        scopes_supported: ['ads:read', 'social:read'],
        bearer_methods_supported: ['header'],
      });
      const preflight = await fetch(new URL(path, server.origin), { method: 'OPTIONS', headers: { origin: 'https://claude.ai' } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    }
  });
});

describe('transport', () => {
  it('answers GET and DELETE with 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await server.request(MCP_PATH, { key, method, headers: { accept: 'text/event-stream' } });
      expect(response.status, method).toBe(405);
    }
  });

  it('refuses a foreign Origin with 403 and serves the app’s own origin with CORS', async () => {
    const foreign = await postRpc(server.origin, toolCall(1, 'list_clients'), { token: key, headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('content-type')).toBe('application/problem+json');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreign.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT.limit));
    expect(await foreign.json()).toMatchObject({ code: 'forbidden', detail: 'Requests from the origin https://evil.example are not allowed.' });

    const own = await postRpc(server.origin, toolCall(1, 'list_clients'), { token: key, headers: { origin: server.origin } });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(server.origin);
    expect(own.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    // A browser client may read the standard rate-limit fields as well as X-RateLimit-*.
    expect(own.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Reset, RateLimit-Policy, RateLimit, Retry-After');
    expect(own.headers.get('ratelimit-policy')).toBe(`"default";q=${RATE_LIMIT.limit};w=${RATE_LIMIT.windowSeconds}`);
    expect(own.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${own.headers.get('x-ratelimit-remaining')};t=([0-9]|[1-5][0-9]|60)$`));
    expect(own.headers.get('access-control-allow-credentials')).toBeNull();

    const preflight = await fetch(new URL(MCP_PATH, server.origin), {
      method: 'OPTIONS',
      headers: { origin: server.origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
  });

  it('answers malformed JSON-RPC with JSON-RPC errors, never a 500', async () => {
    const parse = await postRpc(server.origin, null, { token: key, raw: '{"jsonrpc":' });
    expect(parse.status).toBe(400);
    expect((await rpcMessages(parse))[0]!.error).toMatchObject({ code: -32700 });
    const invalid = await postRpc(server.origin, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'no_such_tool' } }, { token: key });
    expect(invalid.status).toBeLessThan(500);
    const [message] = await rpcMessages(invalid);
    expect(message!.error ?? (message!.result as ToolResult).isError).toBeTruthy();
  });

  it('refuses an unknown protocol version naming every revision it serves, 2026-07-28 first', async () => {
    const refused = await postRpc(server.origin, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: key, headers: { 'mcp-protocol-version': '2024-01-01' } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toBe('application/json');
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Bad Request: Unsupported protocol version: 2024-01-01 (supported versions: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)' },
      id: null,
    });
  });
});

describe('usage record', () => {
  it('records each tool call after answering it: credential, tool, argument hash, rows, duration and outcome', async () => {
    const recorded = await mintKey({ orgId, scopes: ['ads:read', 'social:read'] });
    const [{ id: keyId }] = (await sql<{ id: string }>('SELECT id FROM api_keys WHERE hash = $1', [hashKey(recorded)])) as [{ id: string }];
    const args = { level: 'campaign', ...RANGE };
    const answered = await postRpc(server.origin, [toolCall(1, 'list_clients'), toolCall(2, 'list_ad_entities', args), toolCall(3, 'list_ad_entities', { level: 'team' })], { token: recorded });
    expect(answered.status).toBe(200);
    // Written off the request's path, in a batch within half a second: wait for the three rows.
    let rows: { tool: string; argumentsHash: string; rows: number | null; durationMs: number; outcome: string }[] = [];
    for (let attempt = 0; attempt < 50 && rows.length < 3; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await sql(
        `SELECT tool, arguments_hash AS "argumentsHash", rows, duration_ms AS "durationMs", outcome FROM mcp_tool_calls
          WHERE api_key_id = $1 ORDER BY tool, outcome`,
        [keyId],
      );
    }
    const clients = (await rest('/api/v1/clients', recorded)) as { data: unknown[] };
    const entities = (await rest(`/api/v1/ads/entities?${new URLSearchParams(args)}`, recorded)) as { data: { rows: unknown[] } };
    expect(rows).toEqual([
      { tool: 'list_ad_entities', argumentsHash: argumentsHash(args), rows: Math.min(entities.data.rows.length, 50), durationMs: expect.any(Number), outcome: 'ok' },
      { tool: 'list_ad_entities', argumentsHash: argumentsHash({ level: 'team' }), rows: null, durationMs: expect.any(Number), outcome: 'validation_failed' },
      { tool: 'list_clients', argumentsHash: argumentsHash({}), rows: clients.data.length, durationMs: expect.any(Number), outcome: 'ok' },
    ]);
  });

  it('refuses a body over 64 KiB before reading more of it, with the rate-limit headers', async () => {
    const response = await postRpc(server.origin, null, { token: key, raw: JSON.stringify(toolCall(1, 'list_clients', { padding: 'x'.repeat(70_000) })) });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT.limit));
    expect(await response.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body', message: 'must be at most 64 KiB, sent without pause' }] });
  });
});

describe('rate limit', () => {
  it('counts every tool call in the window shared with REST, and refuses the 61st as an isError result', async () => {
    // 62 requests one after another must fall into one fixed window.
    await awayFromWindowEdge();
    const limited = await mintKey({ orgId, scopes: ['ads:read', 'social:read'] });
    const remaining = (response: Response) => Number(response.headers.get('x-ratelimit-remaining'));
    const first = await server.request('/api/v1/clients', { key: limited });
    expect(remaining(first)).toBe(RATE_LIMIT.limit - 1);
    const one = await postRpc(server.origin, toolCall(1, 'list_clients'), { token: limited });
    expect(one.status).toBe(200);
    expect(remaining(one)).toBe(RATE_LIMIT.limit - 2);

    // Spend the rest of the window, less one, in one batch of calls; then a call that is allowed and one that is not.
    const spent = await postRpc(server.origin, Array.from({ length: RATE_LIMIT.limit - 3 }, (_, index) => toolCall(index + 10, 'list_clients')), { token: limited });
    expect(remaining(spent)).toBe(1);
    const last = await postRpc(server.origin, toolCall(2, 'describe_metrics'), { token: limited });
    expect(remaining(last)).toBe(0);
    expect(((await rpcMessages(last))[0]!.result as ToolResult).isError ?? false).toBe(false);
    const refused = await postRpc(server.origin, toolCall(3, 'list_clients'), { token: limited });
    expect(refused.status).toBe(200);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(problemOf((await rpcMessages(refused))[0]!.result as ToolResult)).toMatchObject({ code: 'rate_limited', status: 429 });
    // The same window on REST.
    expect((await server.request('/api/v1/clients', { key: limited })).status).toBe(429);
  });

  it('counts protocol messages in their own window of 300, never in the tool calls’ 60, with that window’s headers', async () => {
    await awayFromWindowEdge();
    const connecting = await mintKey({ orgId, scopes: ['ads:read', 'social:read'] });
    const window = (response: Response) => [response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')];
    const initialize = await postRpc(
      server.origin,
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } } },
      { token: connecting },
    );
    expect(initialize.status).toBe(200);
    expect(window(initialize)).toEqual([String(PROTOCOL_RATE_LIMIT.limit), String(PROTOCOL_RATE_LIMIT.limit - 1)]);
    // The standard fields name the protocol window as a policy of its own.
    expect(initialize.headers.get('ratelimit-policy')).toBe(`"protocol";q=${PROTOCOL_RATE_LIMIT.limit};w=${PROTOCOL_RATE_LIMIT.windowSeconds}`);
    expect(initialize.headers.get('ratelimit')).toMatch(new RegExp(`^"protocol";r=${PROTOCOL_RATE_LIMIT.limit - 1};t=([0-9]|[1-5][0-9]|60)$`));
    const initialized = await postRpc(server.origin, { jsonrpc: '2.0', method: 'notifications/initialized' }, { token: connecting });
    expect(initialized.status).toBe(202);
    expect(window(initialized)).toEqual([String(PROTOCOL_RATE_LIMIT.limit), String(PROTOCOL_RATE_LIMIT.limit - 2)]);
    for (const [id, method] of [[2, 'tools/list'], [3, 'ping']] as const) {
      const response = await postRpc(server.origin, { jsonrpc: '2.0', id, method }, { token: connecting });
      expect(response.status, method).toBe(200);
      expect((await rpcMessages(response))[0]!.error, method).toBeUndefined();
    }
    // A batch of protocol messages only is one protocol unit.
    const batch = await postRpc(server.origin, [{ jsonrpc: '2.0', id: 4, method: 'tools/list' }, { jsonrpc: '2.0', id: 5, method: 'ping' }], { token: connecting });
    expect(window(batch)).toEqual([String(PROTOCOL_RATE_LIMIT.limit), String(PROTOCOL_RATE_LIMIT.limit - 5)]);

    // None of that touched the data window: the first tool call is its first unit, and REST shares it.
    const call = await postRpc(server.origin, toolCall(6, 'list_clients'), { token: connecting });
    expect(window(call)).toEqual([String(RATE_LIMIT.limit), String(RATE_LIMIT.limit - 1)]);
    expect(call.headers.get('ratelimit-policy')).toBe(`"default";q=${RATE_LIMIT.limit};w=${RATE_LIMIT.windowSeconds}`);
    const viaRest = await server.request('/api/v1/clients', { key: connecting });
    expect(window(viaRest)).toEqual([String(RATE_LIMIT.limit), String(RATE_LIMIT.limit - 2)]);
  });

  it.each(SDKS)('spends none of the data window on %s’s own connect sequence (its GET probe answered 405 included), nor on a DELETE', async (sdk) => {
    await awayFromWindowEdge();
    const connecting = await mintKey({ orgId, scopes: ['ads:read', 'social:read'] });
    // Every request the SDK's transport makes, with the window that counted it; the GET probe is sent
    // without being awaited by the SDK, so the test waits for each request itself.
    const sent: Promise<{ request: string; status: number; limit: string | null }>[] = [];
    const recording: typeof fetch = (input, init) => {
      const made = fetch(input, init);
      sent.push(
        made.then(async (response) => {
          const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method: string }) : null;
          return { request: `${init?.method ?? 'GET'} ${body?.method ?? ''}`.trim(), status: response.status, limit: response.headers.get('x-ratelimit-limit') };
        }),
      );
      return made;
    };
    const client = await connect(sdk, server.origin, connecting, recording);
    try {
      expect(await client.listTools()).toHaveLength(TOOLS.length);
      // Every answer in before closing: closing aborts a request still in flight (the GET probe, under load).
      await Promise.all(sent);
    } finally {
      await client.close();
    }
    const deleted = await server.request(MCP_PATH, { key: connecting, method: 'DELETE' });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get('x-ratelimit-limit')).toBe(String(PROTOCOL_RATE_LIMIT.limit));
    const requests = await Promise.all(sent);
    expect(requests.map(({ request }) => request)).toEqual(expect.arrayContaining(['POST initialize', 'POST notifications/initialized', 'POST tools/list']));
    expect(requests).toContainEqual({ request: 'GET', status: 405, limit: String(PROTOCOL_RATE_LIMIT.limit) });
    for (const request of requests) expect(request.limit, request.request).toBe(String(PROTOCOL_RATE_LIMIT.limit));
    // The data window is whole: REST's first request with the key is its first unit.
    const viaRest = await server.request('/api/v1/clients', { key: connecting });
    expect(viaRest.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT.limit - 1));
  });

  it('counts a tool call once in the data window whether it fails validation, names no tool, or rides in a batch with protocol messages', async () => {
    await awayFromWindowEdge();
    const mixed = await mintKey({ orgId, scopes: ['ads:read', 'social:read'] });
    const response = await postRpc(
      server.origin,
      [toolCall(1, 'list_ad_entities', { level: 'team' }), toolCall(2, 'no_such_tool'), toolCall(3, 'list_clients'), { jsonrpc: '2.0', id: 4, method: 'tools/list' }],
      { token: mixed },
    );
    expect(response.status).toBe(200);
    // Three tool calls, three units of the data window; the tools/list beside them is not counted.
    expect(response.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT.limit));
    expect(response.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT.limit - 3));
    const messages = await rpcMessages(response);
    expect(messages).toHaveLength(4);
    expect(problemOf(messages.find((message) => message.id === 1)!.result as ToolResult)).toMatchObject({ code: 'validation_failed' });
    const after = await server.request('/api/v1/clients', { key: mixed });
    expect(after.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT.limit - 4));
    const protocol = await postRpc(server.origin, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, { token: mixed });
    expect(protocol.headers.get('x-ratelimit-remaining')).toBe(String(PROTOCOL_RATE_LIMIT.limit - 1));
  });

  it('refuses protocol messages past 300 a minute with a 429 naming that window, the tool calls’ window untouched', async () => {
    await awayFromWindowEdge();
    const busy = await mintKey({ orgId, scopes: ['ads:read', 'social:read'] });
    const [{ id: keyId }] = (await sql<{ id: string }>('SELECT id FROM api_keys WHERE hash = $1', [hashKey(busy)])) as [{ id: string }];
    const ping = (id: number) => postRpc(server.origin, { jsonrpc: '2.0', id, method: 'ping' }, { token: busy });
    const first = await ping(1);
    expect(first.headers.get('x-ratelimit-remaining')).toBe(String(PROTOCOL_RATE_LIMIT.limit - 1));
    // The protocol window is a counter of its own in the real Redis, beside the data window's. Spending
    // 298 more there directly stands for 298 pings (sent one by one, they outlast a window on a busy machine).
    const bucket = Number(first.headers.get('x-ratelimit-reset')) / PROTOCOL_RATE_LIMIT.windowSeconds - 1;
    const counter = `${server.rateLimitPrefix}:protocol:key:${keyId}:${bucket}`;
    expect(await server.standIn!.redis.get(counter)).toBe('1');
    await server.standIn!.redis.incrBy(counter, PROTOCOL_RATE_LIMIT.limit - 2);

    const last = await ping(2);
    expect(last.status).toBe(200);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = await ping(3);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(PROTOCOL_RATE_LIMIT.limit));
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({
      code: 'rate_limited',
      detail: `More than ${PROTOCOL_RATE_LIMIT.limit} MCP protocol messages in ${PROTOCOL_RATE_LIMIT.windowSeconds} s for this credential. Retry in ${refused.headers.get('retry-after')} s (Retry-After).`,
    });
    const call = await postRpc(server.origin, toolCall(1, 'list_clients'), { token: busy });
    expect(((await rpcMessages(call))[0]!.result as ToolResult).isError ?? false).toBe(false);
    expect(call.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT.limit - 1));
  });

  it('counts each tool call of a JSON-RPC batch: of 70 in one request, 60 are answered and 10 refused', async () => {
    await awayFromWindowEdge();
    const batchKey = await mintKey({ orgId, scopes: ['ads:read', 'social:read'] });
    const response = await postRpc(server.origin, Array.from({ length: 70 }, (_, index) => toolCall(index + 1, 'list_clients')), { token: batchKey });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
    const results = (await rpcMessages(response)).map((message) => message.result as ToolResult);
    expect(results).toHaveLength(70);
    expect(results.filter((result) => !result.isError)).toHaveLength(RATE_LIMIT.limit);
    const refused = results.filter((result) => result.isError);
    expect(refused).toHaveLength(70 - RATE_LIMIT.limit);
    for (const result of refused) expect(problemOf(result)).toMatchObject({ code: 'rate_limited', status: 429 });
  });

  it('keeps REST answering correctly after a burst of MCP calls in the same process', async () => {
    const burstKey = await mintKey({ orgId, scopes: ['ads:read', 'social:read'] });
    const client = await connect(SDKS[0]!, server.origin, burstKey);
    try {
      await Promise.all(Array.from({ length: 20 }, (_, index) => index % 2 ? client.callTool('list_clients') : client.callTool('get_social_overview', RANGE)));
    } finally {
      await client.close();
    }
    const other = await mintKey({ orgId, scopes: ['ads:read', 'social:read'] });
    const response = await server.request(`/api/v1/ads/overview?${new URLSearchParams(RANGE)}`, { key: other });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(((await response.json()) as { meta: { timezone: string } }).meta.timezone).toBe('Asia/Kolkata');
    expect((await server.request('/api/v1/clients', { key: other })).status).toBe(200);
  });
});
