// /clients: the clients a key can read, each with every synced resource assigned to it.
import type { AuthContext } from '../contract/credential';
import { readSql as sql } from '../db';
import { envelope } from '../contract/envelope';
import { lastSuccessfulSyncs, oldestSync } from '../metrics/freshness';
import type { ClientDescription } from './schemas';

interface ClientRow {
  id: string;
  name: string;
}

interface ResourceRow {
  id: string;
  client_id: string;
}

/** The clients of the key's organisation, narrowed to its client list when it has one. */
const CLIENTS = `
  SELECT id, name FROM clients
   WHERE org_id = $1 AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[]))
   ORDER BY name, id`;

// Each resource query is limited to the same organisation and to the clients found above.
const resourceQuery = (table: string, columns: string, order: string) => `
  SELECT id, client_id, ${columns} FROM ${table}
   WHERE org_id = $1 AND client_id = ANY($2::uuid[])
   ORDER BY ${order}, id`;

function groupByClient<R extends ResourceRow>(rows: R[]): Map<string, R[]> {
  const groups = new Map<string, R[]>();
  for (const row of rows) {
    const group = groups.get(row.client_id) ?? [];
    group.push(row);
    groups.set(row.client_id, group);
  }
  return groups;
}

export async function listClients(auth: AuthContext) {
  const clients = await sql<ClientRow>(CLIENTS, [auth.orgId, auth.clientIds]);
  const ids = clients.map((client) => client.id);
  const params = [auth.orgId, ids];
  const [accounts, pages, properties, sites, stores] = await Promise.all([
    sql<ResourceRow & { platform_account_id: string; name: string; currency: string | null }>(
      resourceQuery('ad_accounts', 'platform_account_id, name, currency', 'name'),
      params,
    ),
    sql<ResourceRow & { page_id: string; name: string; ig_username: string | null }>(
      resourceQuery('social_pages', 'page_id, name, ig_username', 'name'),
      params,
    ),
    sql<ResourceRow & { property_id: string; name: string; timezone: string | null }>(
      resourceQuery('analytics_properties', 'property_id, name, timezone', 'name'),
      params,
    ),
    sql<ResourceRow & { site_url: string }>(resourceQuery('search_console_sites', 'site_url', 'site_url'), params),
    sql<ResourceRow & { shop_domain: string; name: string | null; currency: string | null; timezone: string | null }>(
      resourceQuery('commerce_stores', 'shop_domain, name, currency, timezone', 'shop_domain'),
      params,
    ),
  ]);
  // Pages carry no freshness of their own in the response, but their data is part of what is listed.
  const syncedResources = [accounts, pages, properties, sites, stores].flatMap((rows) => rows.map((row) => row.id));
  const syncs = await lastSuccessfulSyncs(syncedResources);
  const synced = (id: string) => syncs.get(id)?.toISOString() ?? null;

  const byClient = {
    accounts: groupByClient(accounts),
    pages: groupByClient(pages),
    properties: groupByClient(properties),
    sites: groupByClient(sites),
    stores: groupByClient(stores),
  };
  const data: ClientDescription[] = clients.map((client) => ({
    id: client.id,
    name: client.name,
    adAccounts: (byClient.accounts.get(client.id) ?? []).map((a) => ({
      id: a.id,
      platformAccountId: a.platform_account_id,
      name: a.name,
      currency: a.currency,
      lastSyncedAt: synced(a.id),
    })),
    pages: (byClient.pages.get(client.id) ?? []).map((p) => ({ pageId: p.page_id, name: p.name, igUsername: p.ig_username })),
    analyticsProperties: (byClient.properties.get(client.id) ?? []).map((p) => ({
      propertyId: p.property_id,
      name: p.name,
      timezone: p.timezone,
      lastSyncedAt: synced(p.id),
    })),
    searchConsoleSites: (byClient.sites.get(client.id) ?? []).map((s) => ({ siteUrl: s.site_url, lastSyncedAt: synced(s.id) })),
    commerceStores: (byClient.stores.get(client.id) ?? []).map((s) => ({
      shopDomain: s.shop_domain,
      name: s.name,
      currency: s.currency,
      timezone: s.timezone,
      lastSyncedAt: synced(s.id),
    })),
  }));
  return envelope(data, { syncedAt: oldestSync(syncs) });
}
