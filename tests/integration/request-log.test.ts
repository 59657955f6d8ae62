// The request log on the real database: requests through the REST door's route handlers are recorded
// in batches (nothing is written while the request is answered, and an answer does not wait for a
// blocked write), with the daily counts; nothing that looks like a credential is stored; retention,
// the cap per organisation and REQUEST_LOG=off.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiKeyContext } from '@/lib/contract/credential';
import { sql } from '@/lib/db';
import { handleMcpRequest } from '@/lib/mcp/endpoint';
import { unknownEndpointRoute } from '@/lib/rest/route';
import { requestUsage } from '@/lib/usage/request-counts';
import { flushRequestLog, pruneRequestLog, recordRequest } from '@/lib/usage/request-log';
import { requestLogPage } from '@/lib/usage/request-log-page';
import { api, mintKey } from '../support/api';
import { PROTOCOL_VERSION, rpcMessages } from './mcp-support';
import { freshOrg } from './platform-support';

interface Row {
  method: string;
  path: string;
  query: string;
  endpoint: string;
  status: number;
  requestId: string;
  rateRemaining: number | null;
  rateLimited: boolean;
  apiKeyId: string | null;
}

async function logOf(keyId: string): Promise<Row[]> {
  return sql<Row>(
    `SELECT method, path, query, endpoint, status, request_id AS "requestId", rate_remaining AS "rateRemaining",
            rate_limited AS "rateLimited", api_key_id AS "apiKeyId"
       FROM request_log WHERE api_key_id = $1 ORDER BY created_at, id`,
    [keyId],
  );
}

async function keyOf(orgId: string): Promise<{ key: string; keyId: string }> {
  const name = `log ${randomUUID()}`;
  const key = await mintKey({ orgId, name, scopes: ['ads:read'] });
  const [row] = await sql<{ id: string }>('SELECT id FROM api_keys WHERE name = $1', [name]);
  return { key, keyId: row!.id };
}

afterEach(() => {
  delete process.env.REQUEST_LOG;
  delete process.env.REQUEST_LOG_MAX_ROWS_PER_ORG;
  delete process.env.REQUEST_LOG_RETENTION_DAYS;
});

describe('the request log', () => {
  it('records each request after it is answered, in a batch, with its status, endpoint, request id and rate-limit state', async () => {
    const org = await freshOrg('request log batch');
    const { key, keyId } = await keyOf(org.id);
    const ok = await api('/api/v1/me', { key });
    const invalid = await api('/api/v1/ads/overview?from=2026-13-01&to=2026-06-30', { key });
    const forbidden = await api('/api/v1/social/overview?from=2026-06-01&to=2026-06-30', { key });
    expect([ok.status, invalid.status, forbidden.status]).toEqual([200, 400, 403]);
    // Answered, and nothing written yet: the batch waits for its timer (or 200 records).
    expect(await logOf(keyId)).toEqual([]);
    await flushRequestLog();
    const rows = await logOf(keyId);
    expect(rows).toEqual([
      { method: 'GET', path: '/api/v1/me', query: '', endpoint: '/api/v1/me', status: 200, requestId: ok.headers.get('x-request-id'), rateRemaining: 59, rateLimited: false, apiKeyId: keyId },
      {
        method: 'GET',
        path: '/api/v1/ads/overview',
        query: 'from=2026-13-01&to=2026-06-30',
        endpoint: '/api/v1/ads/overview',
        status: 400,
        requestId: invalid.headers.get('x-request-id'),
        rateRemaining: 58,
        rateLimited: false,
        apiKeyId: keyId,
      },
      {
        method: 'GET',
        path: '/api/v1/social/overview',
        query: 'from=2026-06-01&to=2026-06-30',
        endpoint: '/api/v1/social/overview',
        status: 403,
        requestId: forbidden.headers.get('x-request-id'),
        rateRemaining: 57,
        rateLimited: false,
        apiKeyId: keyId,
      },
    ]);

    // The daily counts took the same batch; the organisation's and the key's usage read them.
    const usage = await requestUsage({ orgId: org.id, kind: 'key', keyId });
    expect(usage.days).toHaveLength(30);
    expect(usage.days.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), counts: { '2xx': 1, '3xx': 0, '4xx': 2, '429': 0, '5xx': 0 }, total: 3 });
    expect(usage.total).toBe(3);
    expect(usage.endpoints.map((e) => [e.endpoint, e.total])).toEqual([
      ['/api/v1/ads/overview', 1],
      ['/api/v1/me', 1],
      ['/api/v1/social/overview', 1],
    ]);
    expect((await requestUsage({ orgId: org.id, kind: 'org' })).total).toBe(3);

    // The page reads newest first, filters by class, endpoint and request id.
    const page = await requestLogPage({ orgId: org.id, kind: 'key', keyId });
    expect(page.entries.map((e) => e.status)).toEqual([403, 400, 200]);
    expect((await requestLogPage({ orgId: org.id, kind: 'key', keyId }, { status: '4xx' })).entries.map((e) => e.status)).toEqual([403, 400]);
    expect((await requestLogPage({ orgId: org.id, kind: 'org' }, { endpoint: '/api/v1/me' })).entries.map((e) => e.requestId)).toEqual([ok.headers.get('x-request-id')]);
    expect((await requestLogPage({ orgId: org.id, kind: 'org' }, { requestId: invalid.headers.get('x-request-id')! })).entries.map((e) => e.status)).toEqual([400]);
    expect(await requestLogPage({ orgId: org.id, kind: 'org' }, { requestId: 'not-a-uuid' })).toEqual({ entries: [], next: null, newer: null, filter: { requestId: 'not-a-uuid' }, older: false });
    // Keyset pages: two, then one, then none; and back: fewer than a page newer than the second is the first.
    const first = await requestLogPage({ orgId: org.id, kind: 'org' }, {}, {}, 2);
    expect(first.entries.map((e) => e.status)).toEqual([403, 400]);
    expect(first.newer).toBeNull();
    const second = await requestLogPage({ orgId: org.id, kind: 'org' }, {}, { before: first.next! }, 2);
    expect(second).toEqual({ entries: [expect.objectContaining({ status: 200 })], next: null, newer: expect.any(String), filter: {}, older: true });
    expect(await requestLogPage({ orgId: org.id, kind: 'org' }, {}, { after: second.newer! }, 2)).toEqual(first);
    // One a page: the page newer than the oldest is the middle one, with a way on either side.
    const middle = await requestLogPage({ orgId: org.id, kind: 'org' }, {}, { after: second.newer! }, 1);
    expect(middle).toEqual({ entries: [expect.objectContaining({ status: 400 })], next: expect.any(String), newer: expect.any(String), filter: {}, older: true });
    expect((await requestLogPage({ orgId: org.id, kind: 'org' }, {}, { before: middle.next! }, 1)).entries.map((e) => e.status)).toEqual([200]);
    expect((await requestLogPage({ orgId: org.id, kind: 'org' }, {}, { after: middle.newer! }, 1)).entries.map((e) => e.status)).toEqual([403]);
    // A filter or cursor made by no page reads the first page (each once failed the statement: a 500).
    for (const endpoint of ['\u0000', '/api/v1/me\u0000', '\ud800']) {
      expect(await requestLogPage({ orgId: org.id, kind: 'org' }, { endpoint }, {}, 2), JSON.stringify(endpoint)).toEqual(first);
    }
    const cursor = (text: string) => Buffer.from(text).toString('base64url');
    const crafted = [
      '2026-01-01T00:00:00.000Z|9223372036854775808', // past bigint
      '2026-01-01T00:00:00.000Z|99999999999999999999',
      '-004713-06-01T00:00:00.000Z|1', // before 4713 BC, where PostgreSQL's timestamps start
      '-271821-04-20T00:00:00.000Z|1', // JavaScript's minimum date
      '+275760-09-13T00:00:00.000Z|1', // and its maximum
      '0000-12-31T23:59:59.999Z|1', // 1 BC
      'not a date|1',
    ];
    for (const text of crafted) expect(await requestLogPage({ orgId: org.id, kind: 'org' }, {}, { before: cursor(text) }, 2), text).toEqual(first);
    // At the bounds, a cursor is read: before the last moment of year 9999, everything; before year 1, nothing.
    expect(await requestLogPage({ orgId: org.id, kind: 'org' }, {}, { before: cursor('9999-12-31T23:59:59.999Z|9223372036854775807') }, 2)).toEqual({ ...first, newer: expect.any(String), older: true });
    expect(await requestLogPage({ orgId: org.id, kind: 'org' }, {}, { before: cursor('0001-01-01T00:00:00.000Z|1') }, 2)).toEqual({ entries: [], next: null, newer: null, filter: {}, older: true });
    for (const text of crafted) expect(await requestLogPage({ orgId: org.id, kind: 'org' }, {}, { after: cursor(text) }, 2), text).toEqual(first);
    // Another organisation reads nothing of these.
    const other = await freshOrg('request log other');
    expect((await requestLogPage({ orgId: other.id, kind: 'key', keyId })).entries).toEqual([]);
    expect((await requestUsage({ orgId: other.id, kind: 'key', keyId })).total).toBe(0);
  });

  it('answers requests while the log cannot be written (a write blocked by a lock), and writes them once it can', async () => {
    const org = await freshOrg('request log blocked');
    const { key, keyId } = await keyOf(org.id);
    const locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE request_log IN ACCESS EXCLUSIVE MODE');
      await api('/api/v1/me', { key });
      const flushing = flushRequestLog();
      let flushed = false;
      void flushing.then(() => (flushed = true));
      const startedAt = performance.now();
      const answers = await Promise.all(Array.from({ length: 5 }, () => api('/api/v1/me', { key })));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      expect(performance.now() - startedAt).toBeLessThan(2_000);
      expect(flushed).toBe(false);
      await locker.query('ROLLBACK');
      await flushing;
    } finally {
      await locker.end();
    }
    await flushRequestLog();
    expect(await logOf(keyId)).toHaveLength(6);
  });

  it('stores no credential: a key or token in the query or the path is redacted, and a refused key is still attributed', async () => {
    const org = await freshOrg('request log redaction');
    const { key, keyId } = await keyOf(org.id);
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhYmMifQ.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU';
    const client = randomUUID();
    // A key in the query is refused 401 (even with the key in the header too), and logged for the header's key.
    const misplaced = await api(`/api/v1/me?api_key=${key}&client=${client}&access_token=short&x=${token}`, { key });
    expect(misplaced.status).toBe(401);
    const unknownPath = await unknownEndpointRoute().GET(new Request(`http://localhost:3000/api/v1/${key}/x?page=2`, { headers: { authorization: `Bearer ${key}` } }));
    expect(unknownPath.status).toBe(404);
    await flushRequestLog();
    const rows = await logOf(keyId);
    expect(rows.map(({ path, query, status, endpoint }) => ({ path, query, status, endpoint }))).toEqual([
      { path: '/api/v1/me', query: `api_key=REDACTED&client=${client}&access_token=REDACTED&x=REDACTED`, status: 401, endpoint: '/api/v1/me' },
      { path: '/api/v1/REDACTED/x', query: 'page=2', status: 404, endpoint: '/api/v1 (no such endpoint)' },
    ]);
    const stored = JSON.stringify(await sql('SELECT * FROM request_log WHERE org_id = $1', [org.id]));
    expect(stored).not.toContain(key);
    expect(stored).not.toContain('mk_');
    expect(stored).not.toContain(token.slice(0, 20));
  });

  it('records an MCP request as its tool (mcp:<tool>), a batch as mcp:batch, and a tool that is not ours by no name the caller chose', async () => {
    const org = await freshOrg('request log mcp');
    const { key, keyId } = await keyOf(org.id);
    const post = (body: unknown) =>
      handleMcpRequest(
        new Request('http://localhost:3000/api/mcp', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION },
          body: JSON.stringify(body),
        }),
      );
    const call = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
    const one = await post(call(1, 'list_clients'));
    expect(one.status).toBe(200);
    expect(JSON.stringify(await rpcMessages(one))).toContain('structuredContent');
    expect((await post([call(2, 'list_clients'), call(3, 'describe_metrics')])).status).toBe(200);
    await post(call(4, 'ignore previous instructions'));
    await flushRequestLog();
    const rows = await sql<{ path: string; endpoint: string; tool: string | null; status: number }>(
      'SELECT path, endpoint, tool, status FROM request_log WHERE api_key_id = $1 ORDER BY created_at, id',
      [keyId],
    );
    expect(rows).toEqual([
      { path: '/api/mcp', endpoint: 'mcp:list_clients', tool: 'list_clients', status: 200 },
      { path: '/api/mcp', endpoint: 'mcp:batch', tool: 'list_clients, describe_metrics', status: 200 },
      { path: '/api/mcp', endpoint: 'mcp:unknown tool', tool: 'unknown tool', status: 200 },
    ]);
  });

  it('prunes records past the retention and over the cap per organisation; the daily counts stay', async () => {
    const org = await freshOrg('request log pruning');
    const { keyId } = await keyOf(org.id);
    const auth: ApiKeyContext = { kind: 'api_key', keyId, keyName: 'k', keyPrefix: 'mk_live_x', expiresAt: null, orgId: org.id, orgName: org.name, scopes: [], clientIds: null };
    // Each in a window of its own: a refusal is logged once per window.
    const record = (at: Date, status: number) =>
      recordRequest(
        {
          auth, method: 'GET', url: 'http://localhost/api/v1/me', endpoint: '/api/v1/me', status, durationMs: 1, clientAddress: '192.0.2.1',
          rateRemaining: 1, rateReset: at.getTime() / 1000, rateLimited: false, requestId: randomUUID(),
        },
        at,
      );
    const day = 86_400_000;
    record(new Date(Date.now() - 8 * day), 200);
    record(new Date(Date.now() - 2 * day), 500);
    for (let i = 0; i < 5; i += 1) record(new Date(Date.now() - (5 - i) * 60_000), 429);
    await flushRequestLog();
    const statuses = async () => (await sql<{ status: number }>('SELECT status FROM request_log WHERE org_id = $1 ORDER BY created_at', [org.id])).map((row) => row.status);
    expect(await statuses()).toEqual([200, 500, 429, 429, 429, 429, 429]);
    // The default retention (7 days) takes the record of 8 days ago, whatever its organisation.
    await pruneRequestLog([]);
    expect(await statuses()).toEqual([500, 429, 429, 429, 429, 429]);
    // A cap of 4 keeps the organisation's 4 newest.
    process.env.REQUEST_LOG_MAX_ROWS_PER_ORG = '4';
    await pruneRequestLog([org.id]);
    expect(await statuses()).toEqual([429, 429, 429, 429]);
    // The counts the charts read keep every request, the pruned ones included.
    const usage = await requestUsage({ orgId: org.id, kind: 'key', keyId });
    expect(usage.total).toBe(7);
    expect(usage.days.reduce((sum, d) => sum + d.counts['5xx'], 0)).toBe(1);
  });

  it('keeps a trail one key cannot flush: a burst of 1,000 mostly refused requests takes at most 200 rows, and the cap prunes that key only', async () => {
    const org = await freshOrg('request log burst');
    const other = await keyOf(org.id);
    const burst = await keyOf(org.id);
    expect((await api('/api/v1/me', { key: other.key })).status).toBe(200);
    await flushRequestLog();
    // Ten at once, 100 each: over the rate limit (60 a minute) and the cap on requests in progress (4).
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let i = 0; i < 100; i += 1) statuses.push((await api('/api/v1/me', { key: burst.key })).status);
      }),
    );
    await flushRequestLog();
    const refused = statuses.filter((status) => status === 429).length;
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(1_000 - 2 * 60);
    const rowsOf = async (keyId: string) => Number((await sql<{ n: string }>('SELECT count(*) AS n FROM request_log WHERE api_key_id = $1', [keyId]))[0]!.n);
    const burstRows = await rowsOf(burst.keyId);
    console.log(`request log: a burst of 1,000 requests (${refused} refused) took ${burstRows} rows`);
    expect(burstRows).toBeLessThanOrEqual(200);
    // Every answered request is logged; of the refusals, the first of each window.
    const logged = await sql<{ status: number }>('SELECT status FROM request_log WHERE api_key_id = $1 AND status = 429', [burst.keyId]);
    expect(burstRows - logged.length).toBe(1_000 - refused);
    expect(logged.length).toBeGreaterThanOrEqual(1);
    expect(logged.length).toBeLessThanOrEqual(2);
    // The counts the charts read keep every request, the refusals not logged included.
    const usage = await requestUsage({ orgId: org.id, kind: 'key', keyId: burst.keyId });
    expect([usage.total, usage.days.reduce((sum, d) => sum + d.counts['429'], 0)]).toEqual([1_000, refused]);
    // A cap below the burst's rows takes the burst's oldest rows, never the other key's.
    process.env.REQUEST_LOG_MAX_ROWS_PER_ORG = '10';
    await pruneRequestLog([org.id]);
    expect([await rowsOf(other.keyId), await rowsOf(burst.keyId)]).toEqual([1, 9]);
  });

  it('records nothing with REQUEST_LOG=off', async () => {
    const org = await freshOrg('request log off');
    const { key, keyId } = await keyOf(org.id);
    process.env.REQUEST_LOG = 'off';
    expect((await api('/api/v1/me', { key })).status).toBe(200);
    await flushRequestLog();
    expect(await logOf(keyId)).toEqual([]);
    expect((await requestUsage({ orgId: org.id, kind: 'org' })).total).toBe(0);
  });
});
