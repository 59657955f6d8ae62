// /me and /clients against the seeded database: every field compared with what independent SQL over
// the raw tables says it must be. Also lastUsedAt and the 500 path of the route wrapper.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { clientsOperation, meOperation } from '@/lib/account/operations';
import { recordKeyUse } from '@/lib/auth/last-used';
import { SCOPES } from '@/lib/contract/scopes';
import { sql } from '@/lib/db';
import { restRoute } from '@/lib/rest/route';
import { logger } from '@/lib/telemetry/logger';
import { api, mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import { clientsOf, seededOrgs } from './platform-support';

const { main } = seededOrgs();
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const iso = (value: Date | null) => (value ? value.toISOString() : null);

interface ExpectedClient {
  id: string;
  name: string;
  adAccounts: unknown[];
  pages: unknown[];
  analyticsProperties: unknown[];
  searchConsoleSites: unknown[];
  commerceStores: unknown[];
}

/** What /clients must answer for these client ids, built from the raw tables. */
async function expectedClients(orgId: string, clientIds: string[] | null): Promise<{ clients: ExpectedClient[]; syncedAt: string | null }> {
  const clients = (await clientsOf(orgId)).filter((c) => clientIds === null || clientIds.includes(c.id));
  const syncs = new Map(
    (
      await sql<{ resource_id: string; at: Date }>(
        `SELECT resource_id, max(finished_at) AS at FROM sync_runs WHERE org_id = $1 AND status = 'succeeded' AND finished_at IS NOT NULL GROUP BY resource_id`,
        [orgId],
      )
    ).map((row) => [row.resource_id, row.at]),
  );
  const rows = async <R extends { id: string; client_id: string }>(table: string) =>
    sql<R>(`SELECT * FROM ${table} WHERE org_id = $1 AND client_id IS NOT NULL`, [orgId]);
  const [accounts, pages, properties, sites, stores] = await Promise.all([
    rows<{ id: string; client_id: string; platform_account_id: string; name: string; currency: string | null }>('ad_accounts'),
    rows<{ id: string; client_id: string; page_id: string; name: string; ig_username: string | null }>('social_pages'),
    rows<{ id: string; client_id: string; property_id: string; name: string; timezone: string | null }>('analytics_properties'),
    rows<{ id: string; client_id: string; site_url: string }>('search_console_sites'),
    rows<{ id: string; client_id: string; shop_domain: string; name: string | null; currency: string | null; timezone: string | null }>('commerce_stores'),
  ]);
  const contributing: string[] = [];
  const of = <R extends { id: string; client_id: string }>(list: R[], clientId: string) => {
    const mine = list.filter((r) => r.client_id === clientId);
    contributing.push(...mine.map((r) => r.id));
    return mine;
  };
  const synced = (id: string) => iso(syncs.get(id) ?? null);
  const result = clients.map((client) => ({
    id: client.id,
    name: client.name,
    adAccounts: of(accounts, client.id).map((a) => ({ id: a.id, platformAccountId: a.platform_account_id, name: a.name, currency: a.currency, lastSyncedAt: synced(a.id) })),
    pages: of(pages, client.id).map((p) => ({ pageId: p.page_id, name: p.name, igUsername: p.ig_username })),
    analyticsProperties: of(properties, client.id).map((p) => ({ propertyId: p.property_id, name: p.name, timezone: p.timezone, lastSyncedAt: synced(p.id) })),
    searchConsoleSites: of(sites, client.id).map((s) => ({ siteUrl: s.site_url, lastSyncedAt: synced(s.id) })),
    commerceStores: of(stores, client.id).map((s) => ({ shopDomain: s.shop_domain, name: s.name, currency: s.currency, timezone: s.timezone, lastSyncedAt: synced(s.id) })),
  }));
  const times = contributing.map((id) => syncs.get(id)).filter((t): t is Date => Boolean(t));
  return { clients: result, syncedAt: times.length ? iso(new Date(Math.min(...times.map((t) => t.getTime())))) : null };
}

/** Order inside each nested list is the service's choice; compare as sets. */
function normalised(clients: ExpectedClient[]) {
  const sort = (list: unknown[]) => [...list].map((x) => JSON.stringify(x)).sort();
  return clients.map((c) => ({
    ...c,
    adAccounts: sort(c.adAccounts),
    pages: sort(c.pages),
    analyticsProperties: sort(c.analyticsProperties),
    searchConsoleSites: sort(c.searchConsoleSites),
    commerceStores: sort(c.commerceStores),
  }));
}

describe('GET /me', () => {
  it('describes an unrestricted key: clientIds null', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000);
    const key = await mintKey({ orgId: main.id, scopes: ['social:read', 'ads:read'], name: 'me test', expiresAt });
    const body = await expectContract<{ data: unknown; meta: unknown }>(meOperation, await api('/api/v1/me', { key }));
    const [row] = await sql<{ id: string; prefix: string; expires_at: Date }>('SELECT id, prefix, expires_at FROM api_keys WHERE hash = $1', [hashOf(key)]);
    expect(body).toEqual({
      data: {
        key: { id: row!.id, name: 'me test', prefix: row!.prefix, expiresAt: row!.expires_at.toISOString() },
        org: { id: main.id, name: main.name },
        scopes: ['social:read', 'ads:read'],
        clientIds: null,
      },
      meta: { timezone: 'Asia/Kolkata', syncedAt: null },
    });
  });

  it('describes a restricted key: its clients', async () => {
    const clients = (await clientsOf(main.id)).slice(0, 2).map((c) => c.id);
    const key = await mintKey({ orgId: main.id, clientIds: clients });
    const body = await expectContract<{ data: { clientIds: string[]; scopes: string[]; key: { expiresAt: null } } }>(meOperation, await api('/api/v1/me', { key }));
    expect([...body.data.clientIds].sort()).toEqual([...clients].sort());
    expect(body.data.scopes).toEqual([...SCOPES]);
    expect(body.data.key.expiresAt).toBeNull();
  });
});

describe('GET /clients', () => {
  it('lists every client of the organisation with every resource, for an unrestricted key', async () => {
    const key = await mintKey({ orgId: main.id, scopes: ['store:read'] });
    const body = await expectContract<{ data: ExpectedClient[]; meta: { syncedAt: string | null } }>(clientsOperation, await api('/api/v1/clients', { key }));
    const expected = await expectedClients(main.id, null);
    expect(body.data.map((c) => c.id)).toEqual(expected.clients.map((c) => c.id));
    expect(normalised(body.data)).toEqual(normalised(expected.clients));
    expect(body.meta).toEqual({ timezone: 'Asia/Kolkata', syncedAt: expected.syncedAt });
    // The seed fills every kind of resource somewhere, so each nested list is exercised.
    for (const list of ['adAccounts', 'pages', 'analyticsProperties', 'searchConsoleSites', 'commerceStores'] as const) {
      expect(body.data.some((c) => c[list].length > 0), list).toBe(true);
    }
  });

  it('lists only the clients a restricted key can read', async () => {
    const all = await clientsOf(main.id);
    const chosen = [all[all.length - 1]!.id];
    const key = await mintKey({ orgId: main.id, clientIds: chosen });
    const body = await expectContract<{ data: ExpectedClient[]; meta: { syncedAt: string | null } }>(clientsOperation, await api('/api/v1/clients', { key }));
    const expected = await expectedClients(main.id, chosen);
    expect(normalised(body.data)).toEqual(normalised(expected.clients));
    expect(body.meta.syncedAt).toBe(expected.syncedAt);
  });

  it('refuses parameters (it takes none)', async () => {
    const key = await mintKey({ orgId: main.id });
    const body = await expectProblem(await api('/api/v1/clients?client=x&limit=1', { key }), 400, 'validation_failed');
    expect(body.errors!.map((e) => e.path).sort()).toEqual(['client', 'limit']);
  });
});

describe('lastUsedAt', () => {
  async function lastUsed(key: string): Promise<Date | null> {
    const [row] = await sql<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_keys WHERE hash = $1', [hashOf(key)]);
    return row!.last_used_at;
  }

  it('is written in the background on first use, then at most once a minute', async () => {
    const key = await mintKey({ orgId: main.id });
    expect(await lastUsed(key)).toBeNull();
    await api('/api/v1/me', { key });
    await vi.waitFor(async () => expect(await lastUsed(key)).not.toBeNull(), { timeout: 5_000 });
    const first = await lastUsed(key);
    await api('/api/v1/me', { key });
    await api('/api/v1/me', { key });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await lastUsed(key)).toEqual(first);
  });

  it('writes again once a minute has passed (and the database agrees)', async () => {
    const key = await mintKey({ orgId: main.id });
    const [row] = await sql<{ id: string }>('SELECT id FROM api_keys WHERE hash = $1', [hashOf(key)]);
    const start = Date.now();
    await recordKeyUse(row!.id, start);
    const first = await lastUsed(key);
    await recordKeyUse(row!.id, start + 30_000);
    expect(await lastUsed(key)).toEqual(first);
    // Another process's write a minute ago: the SQL condition lets the next one through.
    await sql(`UPDATE api_keys SET last_used_at = now() - interval '61 seconds' WHERE id = $1`, [row!.id]);
    await recordKeyUse(row!.id, start + 61_000);
    expect((await lastUsed(key))!.getTime()).toBeGreaterThan(Date.now() - 5_000);
  });
});

describe('unexpected failures', () => {
  let key: string;
  beforeAll(async () => {
    key = await mintKey({ orgId: main.id });
  });

  it('are 500 internal with a request id and nothing of the error disclosed', async () => {
    const errors = vi.spyOn(logger(), 'error').mockImplementation(() => {});
    const { GET: handler } = restRoute({
      ...meOperation,
      run: async () => {
        throw new Error('secret internals: password=hunter2 at /srv/app.ts:12');
      },
    });
    const response = await handler(new Request('http://localhost/api/v1/me', { headers: { authorization: `Bearer ${key}` } }));
    const requestId = response.headers.get('x-request-id');
    const body = await expectProblem(response, 500, 'internal');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.detail).toContain(requestId!);
    expect(JSON.stringify(body)).not.toMatch(/hunter2|secret|app\.ts/);
    expect(errors.mock.calls.some((call) => JSON.stringify(call).includes(requestId!))).toBe(true);
    errors.mockRestore();
  });

  it('a database that cannot be reached is 503 unavailable with Retry-After', async () => {
    const errors = vi.spyOn(logger(), 'error').mockImplementation(() => {});
    const { GET: handler } = restRoute({
      ...meOperation,
      run: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      },
    });
    const response = await handler(new Request('http://localhost/api/v1/me', { headers: { authorization: `Bearer ${key}` } }));
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await expectProblem(response, 503, 'unavailable');
    expect(body.detail).not.toContain('5432');
    errors.mockRestore();
  });
});
