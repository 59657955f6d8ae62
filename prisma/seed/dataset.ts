// Assembles the whole dataset: every table, in foreign-key order, as lazily generated rows.
// Nothing here touches the database, so the determinism test can digest a dataset in memory.
import { accountBreakdownTable, breakdownCacheTables, cacheRanges } from './ads/breakdowns';
import { adEntityTables, buildAdAccounts } from './ads/entities';
import { AdsLedger, insightsTable } from './ads/insights';
import { analyticsTables, buildProperties } from './analytics';
import { Calendar } from './calendar';
import type { TableData } from './copy';
import type { OrgModel, SeedContext } from './context';
import { buildOrg, hashPasswords, peopleTables } from './people';
import { DEMO_PASSWORD, SCALES, type Scale } from './scales';
import { buildSites, searchConsoleTables } from './search-console';
import { buildPages, socialTables } from './social';
import { buildStores, storeTables } from './store';
import { syncRunsTable, type SyncedResource } from './sync-runs';

export interface DatasetOptions {
  scale: Scale;
  seed: number;
  /** YYYY-MM-DD, the last day with data (an IST day for ads and social). */
  endDate: string;
}

export interface Dataset {
  orgs: OrgModel[];
  users: { email: string; password: string; role: 'admin' | 'member'; orgSlug: string }[];
  /** Every table in foreign-key order: `first`, then each lane in turn. */
  tables: TableData[];
  /** Organisations, people and the entities the facts point at: loaded first, in order. */
  first: TableData[];
  /**
   * The fact tables, in lanes that can load at the same time on separate connections (each lane in
   * order). Row generation never shares state across lanes, so loading them concurrently yields the
   * same rows as loading them one after another.
   */
  lanes: TableData[][];
}

export async function buildDataset(options: DatasetOptions): Promise<Dataset> {
  const shape = SCALES[options.scale];
  const ctx: SeedContext = { seed: options.seed, shape, calendar: new Calendar(options.endDate, shape.days) };
  const orgs = shape.orgs.map((orgShape, i) => buildOrg(ctx, orgShape, i));
  const accounts = orgs.flatMap((org) => buildAdAccounts(ctx, org));
  const pages = orgs.flatMap((org) => buildPages(ctx, org));
  const properties = orgs.flatMap((org) => buildProperties(ctx, org));
  const sites = orgs.flatMap((org) => buildSites(ctx, org));
  const stores = orgs.flatMap((org) => buildStores(ctx, org));

  // The deliberate sync problems described in sync-runs.ts, all in the first organisation.
  const inFirstOrg = <T extends { org: OrgModel }>(items: readonly T[]) => items.filter((item) => item.org === orgs[0]);
  const failingAccount = inFirstOrg(accounts)[1];
  const busyPage = inFirstOrg(pages)[0];
  const failingStore = inFirstOrg(stores)[0];
  const resources: SyncedResource[] = [
    ...accounts.map((a) => ({ org: a.org, source: 'ads' as const, id: a.id, failingRuns: a === failingAccount ? 3 : 0 })),
    ...pages.map((p) => ({ org: p.org, source: 'social' as const, id: p.id, running: p === busyPage })),
    ...properties.map((p) => ({ org: p.org, source: 'analytics' as const, id: p.id })),
    ...sites.map((s) => ({ org: s.org, source: 'search_console' as const, id: s.id, neverSucceeded: s.neverSynced })),
    ...stores.map((s) => ({ org: s.org, source: 'store' as const, id: s.id, failingRuns: s === failingStore ? 2 : 0 })),
  ];

  const ledger = new AdsLedger(cacheRanges(ctx.calendar));
  const sampledEntities = accounts.reduce(
    (n, a) => n + a.campaigns.reduce((m, c) => m + Number(c.sampled) + c.adSets.reduce((k, s) => k + Number(s.sampled) + s.ads.filter((ad) => ad.sampled).length, 0), 0),
    0,
  );
  const passwordHashes = await hashPasswords(options.seed, orgs, DEMO_PASSWORD);

  const sources = [socialTables(ctx, pages), analyticsTables(ctx, properties), searchConsoleTables(ctx, sites), storeTables(ctx, stores)];
  const first = [...peopleTables(orgs, passwordHashes), ...adEntityTables(accounts), ...sources.flatMap((s) => s.entities)];
  const lanes = [
    [
      // The insights pass fills the ledger that the breakdown tables after it read.
      insightsTable(ctx.calendar, options.seed, accounts, ledger),
      accountBreakdownTable(ctx.calendar, options.seed, accounts, ledger),
      ...breakdownCacheTables(ctx.calendar, options.seed, ledger, sampledEntities),
    ],
    [...sources.flatMap((s) => s.facts), syncRunsTable(ctx.calendar, options.seed, resources)],
  ];

  return {
    orgs,
    users: orgs.flatMap((org) => org.users.map((u) => ({ email: u.email, password: DEMO_PASSWORD, role: u.role, orgSlug: org.slug }))),
    tables: [...first, ...lanes.flat()],
    first,
    lanes,
  };
}
