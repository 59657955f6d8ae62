// The response cache and the ETag on a real production server (`npm start`: scripts/server.mjs) (the cache on, its default) beside one
// with the cache off: answers follow every write to an organisation's data (a sync, or a write without
// one), never cross organisations or reaches, 304 only for an identical body, and the same bytes with
// the cache off. Each organisation here is this file's own, so parallel files are not disturbed.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiKeyContext } from '@/lib/contract/credential';
import { sql } from '@/lib/db';
import { invokeJson } from '@/lib/operations/invoke';
import { adsOverviewOperation } from '@/lib/metrics/ads/operations';
import { RATE_LIMIT } from '@/lib/contract/limits';
import { mintKey } from '../support/api';
import { startTestServer, type TestServer } from '../support/http-server';
import { createAccount, createClient, createOrg, dropOrg, insertInsights, recordSync } from './ads-fixtures';

const FROM = '2026-05-01';
const TO = '2026-05-31';
const OVERVIEW = `/api/v1/ads/overview?from=${FROM}&to=${TO}`;

let cached: TestServer;
let uncached: TestServer;

interface Org {
  id: string;
  clientA: string;
  clientB: string;
  accountA: string;
  accountB: string;
}
const orgs: Org[] = [];

/** An organisation with two clients, one account each and account-level spend on two days of May. */
async function createAdsOrg(name: string, spendA: string, spendB: string): Promise<Org> {
  const id = await createOrg(name);
  const clientA = await createClient(id, `${name} A`);
  const clientB = await createClient(id, `${name} B`);
  const accountA = (await createAccount(id, { clientId: clientA, name: `${name} account A`, currency: 'USD' })).id;
  const accountB = (await createAccount(id, { clientId: clientB, name: `${name} account B`, currency: 'USD' })).id;
  const day = (accountId: string, date: string, spend: string) => ({ level: 'account' as const, entityId: accountId, accountId, date, spend, impressions: 1000, reach: 500, clicks: 10 });
  await insertInsights(id, [day(accountA, '2026-05-10', spendA), day(accountB, '2026-05-10', spendB)]);
  await recordSync(id, accountA, '2026-06-01T00:00:00Z');
  await recordSync(id, accountB, '2026-06-01T00:00:00Z');
  const org = { id, clientA, clientB, accountA, accountB };
  orgs.push(org);
  return org;
}

beforeAll(async () => {
  const databaseUrl = inject('databaseUrl');
  [cached, uncached] = await Promise.all([startTestServer({ databaseUrl }), startTestServer({ databaseUrl, env: { RESPONSE_CACHE_MAX_BYTES: '0' } })]);
}, 300_000);

afterAll(async () => {
  await Promise.all([cached?.stop(), uncached?.stop()]);
  for (const org of orgs) await dropOrg(org.id);
});

type Overview = { data: { kpis: { spend: number } }; meta: { syncedAt: string | null } };

async function overview(server: TestServer, key: string, query = '', headers: Record<string, string> = {}) {
  const response = await server.request(`${OVERVIEW}${query}`, { key, headers });
  expect(response.status).toBe(200);
  const etag = response.headers.get('etag');
  expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
  return { etag: etag!, text: await response.text() };
}
const spendOf = (text: string) => (JSON.parse(text) as Overview).data.kpis.spend;

describe('answers follow the data', () => {
  it('a sync that writes rows changes the next identical request, with a new ETag; the old ETag then gets a 200', async () => {
    const org = await createAdsOrg('cache-sync', '100.00', '20.00');
    const key = await mintKey({ orgId: org.id, scopes: ['ads:read'] });
    const before = await overview(cached, key);
    expect(spendOf(before.text)).toBe(120);
    expect((await overview(cached, key)).text).toBe(before.text);

    // What the dashboard's sync does: rows, then its run.
    await insertInsights(org.id, [{ level: 'account', entityId: org.accountA, accountId: org.accountA, date: '2026-05-11', spend: '7.50', impressions: 10, reach: 5, clicks: 1 }]);
    await recordSync(org.id, org.accountA, '2026-06-02T00:00:00Z');

    const after = await cached.request(OVERVIEW, { key, headers: { 'if-none-match': before.etag } });
    expect(after.status).toBe(200);
    const afterText = await after.text();
    expect(spendOf(afterText)).toBe(127.5);
    expect(after.headers.get('etag')).not.toBe(before.etag);
    // The oldest last sync of the accounts read: B's did not move.
    expect((JSON.parse(afterText) as Overview).meta.syncedAt).toBe('2026-06-01T00:00:00.000Z');
    expect(afterText).toBe((await overview(uncached, key)).text);
  });

  it('a write without a sync run (a renamed client) changes the next answer too', async () => {
    const org = await createAdsOrg('cache-rename', '1.00', '2.00');
    const key = await mintKey({ orgId: org.id, scopes: ['ads:read'] });
    const names = async () => {
      const response = await cached.request('/api/v1/clients', { key });
      expect(response.status).toBe(200);
      return ((await response.json()) as { data: { name: string }[] }).data.map((client) => client.name);
    };
    expect(await names()).toEqual(['cache-rename A', 'cache-rename B']);
    await sql('UPDATE clients SET name = $2 WHERE id = $1', [org.clientA, 'cache-rename A, renamed']);
    expect(await names()).toEqual(['cache-rename A, renamed', 'cache-rename B']);
  });

  it('a repeated request is served from the cache (the same bytes), until a write', async () => {
    const org = await createAdsOrg('cache-hit', '3.00', '4.00');
    const auth: ApiKeyContext = {
      kind: 'api_key',
      keyId: randomUUID(),
      keyName: 'in-process',
      keyPrefix: 'mk_live_test',
      expiresAt: null,
      orgId: org.id,
      orgName: 'cache-hit',
      scopes: ['ads:read'],
      clientIds: null,
    };
    const call = async () => {
      const answer = await invokeJson(adsOverviewOperation, auth, { kind: 'query', params: new URLSearchParams({ from: FROM, to: TO }) }, new Request('http://localhost/'));
      if (answer instanceof Response) throw new Error('a JSON operation answered a Response');
      return answer;
    };
    const first = await call();
    expect(await call()).toBe(first);
    await sql('UPDATE ad_accounts SET name = name WHERE id = $1', [org.accountB]);
    const afterWrite = await call();
    expect(afterWrite).not.toBe(first);
    expect(afterWrite.body.equals(first.body)).toBe(true);
  });
});

describe('no answer crosses an organisation or a reach', () => {
  it('two organisations with the same query each get their own figures', async () => {
    const one = await createAdsOrg('cache-org-one', '10.00', '1.00');
    const two = await createAdsOrg('cache-org-two', '30.00', '3.00');
    const keyOne = await mintKey({ orgId: one.id, scopes: ['ads:read'] });
    const keyTwo = await mintKey({ orgId: two.id, scopes: ['ads:read'] });
    for (let round = 0; round < 2; round++) {
      expect(spendOf((await overview(cached, keyOne)).text)).toBe(11);
      expect(spendOf((await overview(cached, keyTwo)).text)).toBe(33);
    }
  });

  it('keys restricted to different clients, an unrestricted key and a `client` narrowing each get their own reach', async () => {
    const org = await createAdsOrg('cache-reach', '50.00', '5.00');
    const all = await mintKey({ orgId: org.id, scopes: ['ads:read'] });
    const onlyA = await mintKey({ orgId: org.id, scopes: ['ads:read'], clientIds: [org.clientA] });
    const onlyB = await mintKey({ orgId: org.id, scopes: ['ads:read'], clientIds: [org.clientB] });
    for (let round = 0; round < 2; round++) {
      expect(spendOf((await overview(cached, all)).text)).toBe(55);
      expect(spendOf((await overview(cached, onlyA)).text)).toBe(50);
      expect(spendOf((await overview(cached, onlyB)).text)).toBe(5);
      expect(spendOf((await overview(cached, all, `&client=${org.clientA}`)).text)).toBe(50);
      expect(spendOf((await overview(cached, all, `&client=${org.clientB}`)).text)).toBe(5);
      expect(spendOf((await overview(cached, onlyA, `&client=${org.clientA}`)).text)).toBe(50);
    }
    // Narrowing outside the key's list stays a 404, cached answers or not.
    const outside = await cached.request(`${OVERVIEW}&client=${org.clientB}`, { key: onlyA });
    expect(outside.status).toBe(404);
  });
});

describe('ETag and 304', () => {
  it('If-None-Match with the ETag (strong or weak, alone or in a list) is a 304 with the headers and no body; another tag is a 200', async () => {
    const org = await createAdsOrg('cache-etag', '9.00', '1.00');
    const key = await mintKey({ orgId: org.id, scopes: ['ads:read'] });
    const first = await overview(cached, key);
    for (const header of [first.etag, `W/${first.etag}`, `"other", ${first.etag}`, '*']) {
      const response = await cached.request(OVERVIEW, { key, headers: { 'if-none-match': header } });
      expect(response.status).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe(first.etag);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT.limit));
      expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    }
    const other = await cached.request(OVERVIEW, { key, headers: { 'if-none-match': '"other"' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).toBe(first.etag);
    expect(await other.text()).toBe(first.text);
  });

  it('the ETag is the SHA-256 of the body, the same with the cache off; a different reach gets a different tag', async () => {
    const org = await createAdsOrg('cache-etag-reach', '8.00', '2.00');
    const all = await mintKey({ orgId: org.id, scopes: ['ads:read'] });
    const onlyA = await mintKey({ orgId: org.id, scopes: ['ads:read'], clientIds: [org.clientA] });
    const whole = await overview(cached, all);
    expect(whole.etag).toBe(`"${createHash('sha256').update(whole.text).digest('base64url')}"`);
    expect(await overview(uncached, all)).toEqual(whole);
    const narrowed = await cached.request(OVERVIEW, { key: onlyA, headers: { 'if-none-match': whole.etag } });
    expect(narrowed.status).toBe(200);
    expect(spendOf(await narrowed.text())).toBe(8);
  });
});

describe('the cache off answers the same', () => {
  it('every cached endpoint gives the same status, ETag and bytes with RESPONSE_CACHE_MAX_BYTES=0, twice', async () => {
    const org = await createAdsOrg('cache-off', '12.00', '3.00');
    const key = await mintKey({ orgId: org.id });
    const paths = [
      '/api/v1/clients',
      OVERVIEW,
      `/api/v1/ads/entities?from=${FROM}&to=${TO}&level=campaign`,
      `/api/v1/social/overview?from=${FROM}&to=${TO}`,
      `/api/v1/social/posts?from=${FROM}&to=${TO}`,
      `/api/v1/website/overview?from=${FROM}&to=${TO}`,
      `/api/v1/website/search?from=${FROM}&to=${TO}`,
      `/api/v1/store/overview?from=${FROM}&to=${TO}`,
    ];
    for (const path of paths) {
      const answers = [];
      for (const server of [cached, cached, uncached, uncached]) {
        const response = await server.request(path, { key });
        answers.push({ status: response.status, etag: response.headers.get('etag'), body: await response.text() });
      }
      expect(answers[0]!.status, path).toBe(200);
      for (const answer of answers.slice(1)) expect(answer, path).toEqual(answers[0]);
    }
  });
});
