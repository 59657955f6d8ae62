// What is measured: every REST endpoint with realistic parameters (whole organisation and one client;
// 7, 30, 90 and 366-day ranges ending at the seed's end date; each level of /ads/entities), each with
// its floor: the endpoint's own data function called in-process (see floor.ts), and whether the
// response cache keeps its answers (then its warm path is measured too).
import type { AuthContext } from '@/lib/contract/credential';
import type { Reach } from '@/lib/reach/reach';
import { SCOPES } from '@/lib/contract/scopes';
import { listClients } from '@/lib/account/clients';
import { clientsOperation, meOperation } from '@/lib/account/operations';
import { sql } from '@/lib/db';
import type { Operation } from '@/lib/contract/operation';
import { parseQuery } from '@/lib/contract/query';
import { getAdBreakdowns } from '@/lib/metrics/ads/breakdowns';
import { listAdEntities } from '@/lib/metrics/ads/entities';
import { adsBreakdownsOperation, adsEntitiesOperation, adsOverviewOperation } from '@/lib/metrics/ads/operations';
import { getAdsOverview } from '@/lib/metrics/ads/overview';
import { socialOverviewOperation, socialPostsOperation } from '@/lib/metrics/social/operations';
import { getSocialOverview } from '@/lib/metrics/social/overview';
import { listSocialPosts } from '@/lib/metrics/social/posts';
import { storeOverviewOperation } from '@/lib/metrics/store/operations';
import { getStoreOverview } from '@/lib/metrics/store/overview';
import { websiteOverviewOperation, websiteSearchOperation } from '@/lib/metrics/website/operations';
import { getWebsiteOverview } from '@/lib/metrics/website/overview';
import { getWebsiteSearch } from '@/lib/metrics/website/search';
import { addDays } from '@/lib/time/days';
import { BENCH_SEED } from './database';

export const RANGES_DAYS = [7, 30, 90, 366] as const;
export type CaseKind = 'liveness' | 'platform' | 'data';

export interface BenchCase {
  /** e.g. `/ads/overview org 366d`. */
  name: string;
  kind: CaseKind;
  endpoint: string;
  /** The whole organisation, one client, or one ad entity (/ads/breakdowns). */
  scope: 'org' | 'client' | 'entity' | null;
  days: number | null;
  connections: 1 | 8;
  /** Path and query as requested over HTTP. */
  path: string;
  floor: (() => Promise<unknown>) | null;
  /** The response cache keeps this endpoint's answers: a repeated query is answered from memory. */
  cacheable: boolean;
}

export interface Fixtures {
  orgId: string;
  orgName: string;
  client: { id: string; name: string };
  breakdownEntities: { level: 'campaign' | 'adset' | 'ad'; entityId: string; from: string; to: string; rows: number }[];
}

/** The main organisation, its client with the most ad accounts, and per level the cached breakdown with the most rows. */
export async function loadFixtures(): Promise<Fixtures> {
  const [org] = await sql<{ id: string; name: string }>(`SELECT id, name FROM organizations WHERE slug = 'demo-agency'`);
  if (!org) throw new Error('the benchmark database has no demo-agency organisation');
  const [client] = await sql<{ id: string; name: string }>(
    `SELECT c.id, c.name FROM clients c JOIN ad_accounts a ON a.client_id = c.id
      WHERE c.org_id = $1 GROUP BY c.id, c.name ORDER BY count(*) DESC, c.name LIMIT 1`,
    [org.id],
  );
  if (!client) throw new Error('the benchmark organisation has no client with ad accounts');
  const breakdownEntities = await sql<{ level: 'campaign' | 'adset' | 'ad'; entityId: string; from: string; to: string; rows: number }>(
    `SELECT DISTINCT ON (c.level) c.level::text AS level, c.entity_id AS "entityId",
            to_char(c.date_from, 'YYYY-MM-DD') AS "from", to_char(c.date_to, 'YYYY-MM-DD') AS "to", count(r.*)::int AS rows
       FROM ad_breakdown_cache c JOIN ad_breakdown_cache_rows r ON r.cache_id = c.id
      WHERE c.org_id = $1 GROUP BY c.id ORDER BY c.level, count(r.*) DESC, c.entity_id`,
    [org.id],
  );
  return { orgId: org.id, orgName: org.name, client, breakdownEntities };
}

type DataFunction = (reach: Reach, query: never) => Promise<unknown>;

interface RangedEndpoint {
  endpoint: string;
  operation: Operation;
  run: DataFunction;
  extra?: Record<string, string>;
}

/** The endpoints taking client, from and to; /ads/entities once per level. */
const RANGED: RangedEndpoint[] = [
  { endpoint: '/ads/overview', operation: adsOverviewOperation, run: getAdsOverview as DataFunction },
  ...(['campaign', 'adset', 'ad'] as const).map((level) => ({
    endpoint: `/ads/entities ${level}`,
    operation: adsEntitiesOperation,
    run: listAdEntities as DataFunction,
    extra: { level },
  })),
  { endpoint: '/social/overview', operation: socialOverviewOperation, run: getSocialOverview as DataFunction },
  { endpoint: '/social/posts', operation: socialPostsOperation, run: listSocialPosts as DataFunction },
  { endpoint: '/website/overview', operation: websiteOverviewOperation, run: getWebsiteOverview as DataFunction },
  { endpoint: '/website/search', operation: websiteSearchOperation, run: getWebsiteSearch as DataFunction },
  { endpoint: '/store/overview', operation: storeOverviewOperation, run: getStoreOverview as DataFunction },
];

const apiPath = (operation: Operation, params: Record<string, string>) => `/api/v1${operation.path}?${new URLSearchParams(params)}`;

/** The floor calls the data function with the query exactly as the route would have parsed it. */
function floorOf(operation: Operation, run: DataFunction, reach: Reach, params: Record<string, string>) {
  const query = parseQuery(new URLSearchParams(params), operation.query) as never;
  return () => run(reach, query);
}

export function buildCases(fixtures: Fixtures): BenchCase[] {
  const cases: BenchCase[] = [];
  const orgReach: Reach = { orgId: fixtures.orgId, clientIds: null };
  const clientReach: Reach = { orgId: fixtures.orgId, clientIds: [fixtures.client.id] };
  // What the gate finds for an unrestricted all-scope key; only orgId and clientIds are read by /clients.
  const auth: AuthContext = {
    kind: 'api_key',
    keyId: '00000000-0000-0000-0000-000000000000',
    keyName: 'bench floor',
    keyPrefix: 'mk_live_xxxx',
    expiresAt: null,
    orgId: fixtures.orgId,
    orgName: fixtures.orgName,
    scopes: [...SCOPES],
    clientIds: null,
  };

  const platform = (connections: 1 | 8) => {
    cases.push({ name: '/api/health (liveness)', kind: 'liveness', endpoint: '/api/health', scope: null, days: null, connections, path: '/api/health', floor: null, cacheable: false });
    cases.push({ name: '/me', kind: 'platform', endpoint: '/me', scope: null, days: null, connections, path: '/api/v1/me', floor: null, cacheable: meOperation.cacheable === true });
    cases.push({
      name: '/clients',
      kind: 'data',
      endpoint: '/clients',
      scope: 'org',
      days: null,
      connections,
      path: '/api/v1/clients',
      floor: () => listClients(auth),
      cacheable: clientsOperation.cacheable === true,
    });
  };
  const ranged = (connections: 1 | 8, scopes: ('org' | 'client')[], days: readonly number[]) => {
    for (const { endpoint, operation, run, extra } of RANGED) {
      for (const scope of scopes) {
        for (const span of days) {
          const to = BENCH_SEED.endDate;
          const params: Record<string, string> = { ...extra, from: addDays(to, -(span - 1)), to };
          if (scope === 'client') params.client = fixtures.client.id;
          cases.push({
            name: `${endpoint} ${scope} ${span}d`,
            kind: 'data',
            endpoint,
            scope,
            days: span,
            connections,
            path: apiPath(operation, params),
            floor: floorOf(operation, run, scope === 'org' ? orgReach : clientReach, params),
            cacheable: operation.cacheable === true,
          });
        }
      }
    }
  };

  platform(1);
  ranged(1, ['org', 'client'], RANGES_DAYS);
  for (const cached of fixtures.breakdownEntities) {
    const params = { level: cached.level, entityId: cached.entityId, from: cached.from, to: cached.to };
    const span = Math.round((Date.parse(cached.to) - Date.parse(cached.from)) / 86_400_000) + 1;
    cases.push({
      name: `/ads/breakdowns ${cached.level} (${cached.rows} cached rows)`,
      kind: 'data',
      endpoint: `/ads/breakdowns ${cached.level}`,
      scope: 'entity',
      days: span,
      connections: 1,
      path: apiPath(adsBreakdownsOperation, params),
      floor: floorOf(adsBreakdownsOperation, getAdBreakdowns as DataFunction, orgReach, params),
      cacheable: adsBreakdownsOperation.cacheable === true,
    });
  }
  // Under load, the heaviest case of each endpoint only: the whole organisation over a year.
  platform(8);
  ranged(8, ['org'], [366]);
  return cases;
}
