// /ads/overview on the seeded `tiny` data and on a hand-made organisation: every figure is recomputed
// here from the stored rows, and every response is checked against the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { sql } from '@/lib/db';
import { adsOverviewOperation } from '@/lib/metrics/ads/operations';
import { getAdsOverview } from '@/lib/metrics/ads/overview';
import type { AdsOverviewData } from '@/lib/metrics/ads/schemas';
import type { Meta } from '@/lib/contract/envelope';
import { api, mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import {
  createAccount,
  createClient,
  createOrg,
  createCampaign,
  dropOrg,
  expectedResults,
  inRange,
  insertInsights,
  peakDailyReach,
  recordSync,
  storedInsights,
  sumMoney,
  sumReported,
  type StoredInsight,
} from './ads-fixtures';

type Body = { data: AdsOverviewData; meta: Meta };

const FROM = '2026-06-01';
const TO = '2026-06-30';
const PREVIOUS = { from: '2026-05-02', to: '2026-05-31' };

const seed = inject('seed');
const org = seed.orgs[0]!;
const otherOrg = seed.orgs[1]!;

interface AccountRow {
  id: string;
  name: string;
  platform_account_id: string;
  client_id: string | null;
  client_name: string | null;
  currency: string | null;
  balance: string | null;
  amount_spent: string | null;
  spend_cap: string | null;
  low_balance_threshold: string | null;
}

let key: string;
let insights: StoredInsight[];
let accounts: AccountRow[];

beforeAll(async () => {
  key = await mintKey({ orgId: org.id, scopes: ['ads:read'] });
  insights = await storedInsights(org.id);
  accounts = await sql<AccountRow>(
    `SELECT a.id, a.name, a.platform_account_id, a.client_id, c.name AS client_name, a.currency, a.balance::text, a.amount_spent::text,
            a.spend_cap::text, a.low_balance_threshold::text
       FROM ad_accounts a LEFT JOIN clients c ON c.id = a.client_id WHERE a.org_id = $1`,
    [org.id],
  );
});

async function overview(query: string, withKey = key): Promise<Body> {
  return expectContract<Body>(adsOverviewOperation, await api(`/api/v1/ads/overview?${query}`, { key: withKey }));
}

async function oldestSyncOf(accountIds: string[]): Promise<string | null> {
  const [row] = await sql<{ oldest: Date | null }>(
    `SELECT min(last) AS oldest FROM (
       SELECT max(finished_at) AS last FROM sync_runs WHERE resource_id = ANY($1::uuid[]) AND status = 'succeeded' GROUP BY resource_id) s`,
    [accountIds],
  );
  return row?.oldest?.toISOString() ?? null;
}

/** Totals over rows as the spec defines them: sums, peak daily reach, ratios of sums. */
function figures(rows: StoredInsight[]) {
  const spend = sumMoney(rows.map((r) => r.spend));
  const impressions = rows.reduce((n, r) => n + r.impressions, 0);
  const clicks = rows.reduce((n, r) => n + r.clicks, 0);
  return { spend, impressions, clicks, reach: peakDailyReach(rows), linkClicks: rows.reduce((n, r) => n + r.link_clicks, 0) };
}

/** The whole overview expected for a set of accounts without an id filter. */
function expectedForAccounts(accountIds: string[]) {
  const mine = insights.filter((r) => accountIds.includes(r.account_id));
  const accountRows = mine.filter((r) => r.level === 'account');
  const campaignRows = mine.filter((r) => r.level === 'campaign');
  const current = inRange(accountRows, FROM, TO);
  const previous = inRange(accountRows, PREVIOUS.from, PREVIOUS.to);
  const outcome = expectedResults(inRange(campaignRows, FROM, TO));
  const now = figures(current);
  const before = figures(previous);
  const previousResults = inRange(campaignRows, PREVIOUS.from, PREVIOUS.to).filter((r) => r.result_type === outcome.resultType);
  return {
    kpis: {
      spend: now.spend,
      impressions: now.impressions,
      reach: now.reach,
      clicks: now.clicks,
      ctr: now.impressions ? (now.clicks / now.impressions) * 100 : 0,
      cpc: now.clicks ? now.spend / now.clicks : 0,
      videoViews: sumReported(current.map((r) => r.video_views)) ?? 0,
      purchaseValue: sumMoney(current.map((r) => r.purchase_value)),
      results: outcome.results ?? 0,
      resultType: outcome.resultType,
      costPerResult: outcome.costPerResult,
    },
    previous: {
      spend: before.spend,
      results: sumReported(previousResults.map((r) => r.results)) ?? 0,
      impressions: before.impressions,
      clicks: before.clicks,
      reach: before.reach,
    },
    linkClicks: now.linkClicks,
    current,
    campaignRows: inRange(campaignRows, FROM, TO),
    outcome,
  };
}

describe('GET /ads/overview for the whole organisation', () => {
  let body: Body;
  beforeAll(async () => {
    body = await overview(`from=${FROM}&to=${TO}`);
  });

  it('computes the KPIs and the previous period from account-level rows, results from campaign rows', () => {
    const expected = expectedForAccounts(accounts.map((a) => a.id));
    expect(expected.current.length).toBeGreaterThan(0);
    expect(body.data.kpis).toEqual({
      ...expected.kpis,
      ctr: expect.closeTo(expected.kpis.ctr, 10),
      cpc: expect.closeTo(expected.kpis.cpc, 10),
      costPerResult: expected.kpis.costPerResult === null ? null : expect.closeTo(expected.kpis.costPerResult, 10),
    });
    expect(body.data.previous).toEqual(expected.previous);
    expect(body.data.widgets.funnel).toEqual({
      impressions: expected.kpis.impressions,
      reach: expected.kpis.reach,
      clicks: expected.kpis.clicks,
      linkClicks: expected.linkClicks,
      results: expected.kpis.results,
      resultType: expected.kpis.resultType,
    });
    const video = (pick: (r: StoredInsight) => number | null) => sumReported(expected.current.map(pick)) ?? 0;
    expect(body.data.widgets.video).toEqual({
      views3s: video((r) => r.video_3s_views),
      thruplay: video((r) => r.thruplays),
      p25: video((r) => r.video_p25),
      p50: video((r) => r.video_p50),
      p75: video((r) => r.video_p75),
      p100: video((r) => r.video_p100),
    });
  });

  it('never adds results of different types: the seeded campaigns optimise for several', () => {
    const types = new Set(inRange(insights, FROM, TO).filter((r) => r.level === 'campaign' && r.result_type).map((r) => r.result_type));
    expect(types.size).toBeGreaterThan(1);
    const allResults = sumReported(inRange(insights, FROM, TO).filter((r) => r.level === 'campaign').map((r) => r.results));
    expect(body.data.kpis.results).toBeLessThan(allResults ?? 0);
  });

  it('has a series point for every IST day of the range, with that day figures', () => {
    const expected = expectedForAccounts(accounts.map((a) => a.id));
    expect(body.data.series.map((p) => p.date)).toEqual(Array.from({ length: 30 }, (_, i) => `2026-06-${String(i + 1).padStart(2, '0')}`));
    for (const point of body.data.series) {
      const day = expected.current.filter((r) => r.date === point.date);
      const dayResults = expected.campaignRows.filter((r) => r.date === point.date && r.result_type === expected.outcome.resultType);
      expect(point).toEqual({
        date: point.date,
        spend: sumMoney(day.map((r) => r.spend)),
        impressions: day.reduce((n, r) => n + r.impressions, 0),
        clicks: day.reduce((n, r) => n + r.clicks, 0),
        reach: day.reduce((n, r) => n + r.reach, 0),
        results: sumReported(dayResults.map((r) => r.results)) ?? 0,
      });
    }
    expect(body.data.kpis.reach).toBe(Math.max(...body.data.series.map((p) => p.reach)));
  });

  it('groups the series by ISO week or calendar month on request: sums, and reach the peak day, the rest unchanged', async () => {
    const weekly = await overview(`from=${FROM}&to=${TO}&granularity=week`);
    // 2026-06-01 is a Monday: four whole weeks and 29-30 June.
    const weeks = [['01', '07'], ['08', '14'], ['15', '21'], ['22', '28'], ['29', '30']].map(([from, to]) => ({ from: `2026-06-${from}`, to: `2026-06-${to}` }));
    expect(weekly.data.series).toEqual(
      weeks.map((week) => {
        const days = body.data.series.filter((point) => point.date >= week.from && point.date <= week.to);
        return {
          date: week.from,
          spend: expect.closeTo(days.reduce((sum, point) => sum + point.spend, 0), 2),
          impressions: days.reduce((sum, point) => sum + point.impressions, 0),
          clicks: days.reduce((sum, point) => sum + point.clicks, 0),
          reach: Math.max(...days.map((point) => point.reach)),
          results: days.reduce((sum, point) => sum + point.results, 0),
        };
      }),
    );
    expect({ ...weekly.data, series: [] }).toEqual({ ...body.data, series: [] });
    // A month is the range here: its point is the KPIs.
    const monthly = await overview(`from=${FROM}&to=${TO}&granularity=month`);
    const { kpis } = body.data;
    expect(monthly.data.series).toEqual([{ date: FROM, spend: kpis.spend, impressions: kpis.impressions, clicks: kpis.clicks, reach: kpis.reach, results: kpis.results }]);
  });

  it('by week or month is its answer by day with the series coarsened, as the MCP door makes it without computing again', async () => {
    const { coarsen } = adsOverviewOperation.tool!;
    const reach = { orgId: org.id, clientIds: null };
    // Whole weeks and months, ranges starting mid-week and mid-month, a year, one day.
    for (const range of [{ from: FROM, to: TO }, { from: '2026-05-13', to: '2026-06-30' }, { from: '2025-07-01', to: '2026-06-30' }, { from: '2026-06-17', to: '2026-06-17' }]) {
      const byDay = await getAdsOverview(reach, { ...range, granularity: 'day' });
      for (const granularity of ['week', 'month'] as const) {
        expect(coarsen!(byDay as never, granularity), `${range.from}…${range.to} by ${granularity}`).toEqual(await getAdsOverview(reach, { ...range, granularity }));
      }
    }
  });

  it('lists the campaigns with data, by spend then name, with account and client lineage', async () => {
    const expected = expectedForAccounts(accounts.map((a) => a.id));
    const names = new Map((await sql<{ id: string; name: string; platform_id: string; status: string | null; effective_status: string | null }>(
      'SELECT id, name, platform_id, status, effective_status FROM campaigns WHERE org_id = $1', [org.id])).map((c) => [c.id, c]));
    const ids = [...new Set(expected.campaignRows.map((r) => r.entity_id))];
    const rows = ids.map((id) => {
      const rowsOf = expected.campaignRows.filter((r) => r.entity_id === id);
      const campaign = names.get(id)!;
      const account = accounts.find((a) => a.id === rowsOf[0]!.account_id)!;
      const f = figures(rowsOf);
      return {
        id,
        name: campaign.name,
        status: campaign.status,
        effectiveStatus: campaign.effective_status,
        spend: f.spend,
        impressions: f.impressions,
        clicks: f.clicks,
        ctr: f.impressions ? (f.clicks / f.impressions) * 100 : 0,
        account: { id: account.id, platformAccountId: account.platform_account_id, name: account.name },
        client: account.client_id ? { id: account.client_id, name: account.client_name } : { id: null, name: account.name },
      };
    });
    rows.sort((a, b) => b.spend - a.spend || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    expect(body.data.campaigns).toEqual(rows.map((r) => ({ ...r, ctr: expect.closeTo(r.ctr, 10) })));
    expect(body.data.campaigns.some((c) => c.client?.id === null)).toBe(true);
    expect(body.data.widgets.topCampaigns.map((c) => c.platformId)).toEqual(rows.slice(0, 10).map((r) => names.get(r.id)!.platform_id));
    const top = body.data.widgets.topCampaigns[0]!;
    const topOutcome = expectedResults(expected.campaignRows.filter((r) => r.entity_id === rows[0]!.id));
    expect({ results: top.results, resultType: top.resultType }).toEqual({ results: topOutcome.results, resultType: topOutcome.resultType });
    expect(body.meta.truncated).toBe(false);
  });

  it('sums the funds of the accounts in reach and lists those under their threshold', () => {
    const sumOf = (pick: (a: AccountRow) => string | null) => {
      const values = accounts.map(pick).filter((v): v is string => v !== null);
      return values.length ? sumMoney(values) : null;
    };
    expect(body.data.funds).toEqual({ balance: sumOf((a) => a.balance), spent: sumOf((a) => a.amount_spent), cap: sumOf((a) => a.spend_cap) });
    const low = accounts
      .filter((a) => a.balance !== null && a.low_balance_threshold !== null && Number(a.balance) < Number(a.low_balance_threshold))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(low.length).toBeGreaterThan(0);
    expect(body.data.lowBalance).toEqual(
      low.map((a) => ({ accountName: a.name, balance: Number(a.balance), threshold: Number(a.low_balance_threshold), currency: a.currency })),
    );
  });

  it('sums the account-level breakdowns for the widgets (reach: per account the peak day, summed over accounts)', async () => {
    const rows = await sql<{ breakdown: string; account_id: string; key1: string; key2: string; spend: string; impressions: number; clicks: number; reach: number }>(
      `SELECT breakdown::text, account_id, key1, key2, spend::text, impressions::float8 AS impressions, clicks::float8 AS clicks, reach::float8 AS reach
         FROM ad_account_breakdowns_daily WHERE org_id = $1 AND date BETWEEN $2 AND $3`,
      [org.id, FROM, TO],
    );
    const group = (breakdown: string) => {
      const keys = [...new Set(rows.filter((r) => r.breakdown === breakdown).map((r) => `${r.key1}\u0000${r.key2}`))];
      return keys
        .map((k) => {
          const [key1, key2] = k.split('\u0000') as [string, string];
          const of = rows.filter((r) => r.breakdown === breakdown && r.key1 === key1 && r.key2 === key2);
          const peakByAccount = new Map<string, number>();
          for (const r of of) peakByAccount.set(r.account_id, Math.max(peakByAccount.get(r.account_id) ?? 0, r.reach));
          return {
            key1,
            key2,
            spend: sumMoney(of.map((r) => r.spend)),
            impressions: of.reduce((n, r) => n + r.impressions, 0),
            clicks: of.reduce((n, r) => n + r.clicks, 0),
            reach: [...peakByAccount.values()].reduce((n, peak) => n + peak, 0),
          };
        })
        .sort((a, b) => b.spend - a.spend || (a.key1 < b.key1 ? -1 : a.key1 > b.key1 ? 1 : a.key2 < b.key2 ? -1 : 1));
    };
    expect(body.data.widgets.ageGender).toEqual(
      group('age_gender').map((g) => ({ age: g.key1, gender: g.key2, impressions: g.impressions, clicks: g.clicks, spend: g.spend, reach: g.reach })),
    );
    expect(body.data.widgets.platforms).toEqual(group('platform').map((g) => ({ platform: g.key1, impressions: g.impressions, spend: g.spend, clicks: g.clicks })));
    expect(body.data.widgets.placements).toEqual(
      group('placement').map((g) => ({ platform: g.key1, position: g.key2, impressions: g.impressions, spend: g.spend, clicks: g.clicks })),
    );
    expect(body.data.widgets.ageGender.length).toBeGreaterThan(0);
  });

  it('reports freshness, range and a null currency for accounts in INR and USD', async () => {
    expect(new Set(accounts.map((a) => a.currency)).size).toBeGreaterThan(1);
    expect(body.meta).toEqual({
      timezone: 'Asia/Kolkata',
      syncedAt: await oldestSyncOf(accounts.map((a) => a.id)),
      from: FROM,
      to: TO,
      truncated: false,
      currency: null,
    });
  });
});

describe('GET /ads/overview narrowed by client and key reach', () => {
  const singleCurrencyClient = () => {
    const byClient = new Map<string, Set<string | null>>();
    for (const a of accounts) if (a.client_id) byClient.set(a.client_id, (byClient.get(a.client_id) ?? new Set()).add(a.currency));
    const [clientId, currencies] = [...byClient.entries()].find(([, set]) => set.size === 1)!;
    return { clientId, currency: [...currencies][0]! };
  };

  it('restricts every figure to the client and reports its one currency', async () => {
    const { clientId, currency } = singleCurrencyClient();
    const mine = accounts.filter((a) => a.client_id === clientId);
    const body = await overview(`client=${clientId}&from=${FROM}&to=${TO}`);
    const expected = expectedForAccounts(mine.map((a) => a.id));
    expect(body.data.kpis.spend).toBe(expected.kpis.spend);
    expect(body.data.previous).toEqual(expected.previous);
    expect(body.data.campaigns.every((c) => c.client?.id === clientId)).toBe(true);
    expect(body.meta.currency).toBe(currency);
    expect(body.meta.syncedAt).toBe(await oldestSyncOf(mine.map((a) => a.id)));
  });

  it('a key restricted to one client sees only that client, never the unassigned account', async () => {
    const { clientId } = singleCurrencyClient();
    const restricted = await mintKey({ orgId: org.id, scopes: ['ads:read'], clientIds: [clientId] });
    const body = await overview(`from=${FROM}&to=${TO}`, restricted);
    const expected = expectedForAccounts(accounts.filter((a) => a.client_id === clientId).map((a) => a.id));
    expect(body.data.kpis).toEqual({ ...expected.kpis, ctr: expect.closeTo(expected.kpis.ctr, 10), cpc: expect.closeTo(expected.kpis.cpc, 10), costPerResult: expected.kpis.costPerResult === null ? null : expect.closeTo(expected.kpis.costPerResult, 10) });
    expect(body.data.campaigns.every((c) => c.client?.id === clientId)).toBe(true);

    const otherClient = accounts.find((a) => a.client_id && a.client_id !== clientId)!.client_id!;
    await expectProblem(await api(`/api/v1/ads/overview?client=${otherClient}&from=${FROM}&to=${TO}`, { key: restricted }), 404, 'not_found');
    const [outside] = await sql<{ platform_id: string }>(
      `SELECT c.platform_id FROM campaigns c JOIN ad_accounts a ON a.id = c.account_id WHERE c.org_id = $1 AND a.client_id IS DISTINCT FROM $2 LIMIT 1`,
      [org.id, clientId],
    );
    await expectProblem(await api(`/api/v1/ads/overview?campaignId=${outside!.platform_id}&from=${FROM}&to=${TO}`, { key: restricted }), 404, 'not_found');
  });

  it('never shows another organisation: its data, clients and ids are unknown here', async () => {
    const otherKey = await mintKey({ orgId: otherOrg.id, scopes: ['ads:read'] });
    const otherBody = await overview(`from=${FROM}&to=${TO}`, otherKey);
    const otherRows = inRange(await storedInsights(otherOrg.id), FROM, TO).filter((r) => r.level === 'account');
    expect(otherBody.data.kpis.spend).toBe(sumMoney(otherRows.map((r) => r.spend)));
    const ourCampaigns = new Set((await sql<{ id: string }>('SELECT id FROM campaigns WHERE org_id = $1', [org.id])).map((c) => c.id));
    expect(otherBody.data.campaigns.some((c) => ourCampaigns.has(c.id))).toBe(false);

    const [theirs] = await sql<{ id: string; platform_id: string; client_id: string }>(
      `SELECT c.id, c.platform_id, a.client_id FROM campaigns c JOIN ad_accounts a ON a.id = c.account_id WHERE c.org_id = $1 AND a.client_id IS NOT NULL LIMIT 1`,
      [otherOrg.id],
    );
    for (const query of [`campaignId=${theirs!.id}`, `campaignId=${theirs!.platform_id}`, `client=${theirs!.client_id}`]) {
      await expectProblem(await api(`/api/v1/ads/overview?${query}&from=${FROM}&to=${TO}`, { key }), 404, 'not_found');
    }
  });
});

describe('GET /ads/overview with id filters', () => {
  interface Lineage {
    ad_id: string;
    ad_platform_id: string;
    ad_set_id: string;
    ad_set_platform_id: string;
    campaign_id: string;
    campaign_platform_id: string;
    account_id: string;
  }
  let lineage: Lineage;

  beforeAll(async () => {
    // An ad that delivered in the range, with its ad set and campaign.
    [lineage] = (await sql<Lineage>(
      `SELECT d.id AS ad_id, d.platform_id AS ad_platform_id, s.id AS ad_set_id, s.platform_id AS ad_set_platform_id,
              c.id AS campaign_id, c.platform_id AS campaign_platform_id, d.account_id
         FROM ads d JOIN ad_sets s ON s.id = d.ad_set_id JOIN campaigns c ON c.id = d.campaign_id
        WHERE d.org_id = $1 AND EXISTS (SELECT 1 FROM ad_insights_daily i WHERE i.level = 'ad' AND i.entity_id = d.id AND i.date BETWEEN $2 AND $3)
        ORDER BY d.platform_id LIMIT 1`,
      [org.id, FROM, TO],
    )) as [Lineage];
  });

  function expectedForEntity(level: StoredInsight['level'], entityId: string) {
    const rows = insights.filter((r) => r.level === level && r.entity_id === entityId);
    const current = inRange(rows, FROM, TO);
    const f = figures(current);
    const outcome = expectedResults(current);
    return { spend: f.spend, impressions: f.impressions, clicks: f.clicks, reach: f.reach, results: outcome.results ?? 0, resultType: outcome.resultType, previousSpend: sumMoney(inRange(rows, PREVIOUS.from, PREVIOUS.to).map((r) => r.spend)) };
  }

  it('accepts the platform id or the internal id and reads the campaign rows', async () => {
    const byPlatformId = await overview(`campaignId=${lineage.campaign_platform_id}&from=${FROM}&to=${TO}`);
    const byId = await overview(`campaignId=${lineage.campaign_id}&from=${FROM}&to=${TO}`);
    expect(byId).toEqual(byPlatformId);
    const expected = expectedForEntity('campaign', lineage.campaign_id);
    const { kpis, previous, campaigns, widgets, funds } = byId.data;
    expect({ spend: kpis.spend, impressions: kpis.impressions, clicks: kpis.clicks, reach: kpis.reach, results: kpis.results, resultType: kpis.resultType }).toEqual({
      spend: expected.spend,
      impressions: expected.impressions,
      clicks: expected.clicks,
      reach: expected.reach,
      results: expected.results,
      resultType: expected.resultType,
    });
    expect(previous.spend).toBe(expected.previousSpend);
    expect(campaigns.map((c) => c.id)).toEqual([lineage.campaign_id]);
    // Account-level breakdowns cannot be narrowed to a campaign: empty, as documented.
    expect([widgets.ageGender, widgets.platforms, widgets.placements]).toEqual([[], [], []]);
    const account = accounts.find((a) => a.id === lineage.account_id)!;
    expect(funds.balance).toBe(account.balance === null ? null : Number(account.balance));
    expect(byId.meta.currency).toBe(account.currency);
    expect(byId.meta.syncedAt).toBe(await oldestSyncOf([account.id]));
  });

  it('narrows to an ad set or an ad, and to the most specific of consistent filters', async () => {
    const adSet = await overview(`adSetId=${lineage.ad_set_platform_id}&from=${FROM}&to=${TO}`);
    const expectedSet = expectedForEntity('adset', lineage.ad_set_id);
    expect([adSet.data.kpis.spend, adSet.data.kpis.reach]).toEqual([expectedSet.spend, expectedSet.reach]);
    expect(adSet.data.campaigns.map((c) => c.id)).toEqual([lineage.campaign_id]);

    const ad = await overview(`campaignId=${lineage.campaign_id}&adSetId=${lineage.ad_set_id}&adId=${lineage.ad_platform_id}&from=${FROM}&to=${TO}`);
    const expectedAd = expectedForEntity('ad', lineage.ad_id);
    expect([ad.data.kpis.spend, ad.data.kpis.impressions, ad.data.kpis.reach, ad.data.kpis.results]).toEqual([
      expectedAd.spend,
      expectedAd.impressions,
      expectedAd.reach,
      expectedAd.results,
    ]);
    expect(ad.data.series.reduce((n, p) => n + p.impressions, 0)).toBe(expectedAd.impressions);
  });

  it('answers 404 for an unknown id and for filters that do not name one lineage', async () => {
    const [foreignSet] = await sql<{ platform_id: string }>('SELECT platform_id FROM ad_sets WHERE org_id = $1 AND campaign_id <> $2 LIMIT 1', [
      org.id,
      lineage.campaign_id,
    ]);
    for (const query of [
      'campaignId=000000000000',
      `adId=${lineage.campaign_platform_id}`,
      `campaignId=${lineage.campaign_id}&adSetId=${foreignSet!.platform_id}`,
    ]) {
      const problem = await expectProblem(await api(`/api/v1/ads/overview?${query}&from=${FROM}&to=${TO}`, { key }), 404, 'not_found');
      expect(problem.detail).toMatch(/entity/);
    }
  });
});

describe('GET /ads/overview edge cases on hand-made rows', () => {
  let orgId: string;
  let edgeKey: string;
  const day = (d: number) => `2026-06-0${d}`;

  beforeAll(async () => {
    orgId = await createOrg('Ads overview edge cases');
    const client = await createClient(orgId, 'Edge client');
    const inr = await createAccount(orgId, { clientId: client, name: 'Edge INR', currency: 'INR', balance: '10.00', threshold: '50.00' });
    const usd = await createAccount(orgId, { clientId: null, name: 'Edge USD', currency: 'USD', balance: null, threshold: '5.00', cap: '1000.00' });
    await recordSync(orgId, inr.id, '2026-06-30T10:00:00Z');
    await recordSync(orgId, inr.id, '2026-06-29T10:00:00Z');
    await recordSync(orgId, usd.id, '2026-06-30T08:00:00Z');
    const leads = await createCampaign(orgId, inr.id, 'Leads', 'lead');
    const sales = await createCampaign(orgId, inr.id, 'Sales', 'purchase');
    const silent = await createCampaign(orgId, usd.id, 'Never reports results', 'link_click');
    const campaignRow = (c: { id: string }, accountId: string, date: string, spend: string, results: number | null, resultType: string) => ({
      level: 'campaign' as const,
      entityId: c.id,
      accountId,
      campaignId: c.id,
      date,
      spend,
      impressions: 1000,
      reach: 400,
      clicks: 10,
      results,
      resultType,
    });
    await insertInsights(orgId, [
      campaignRow(leads, inr.id, day(1), '100.00', 10, 'lead'),
      campaignRow(sales, inr.id, day(1), '150.10', 1, 'purchase'),
      campaignRow(sales, inr.id, day(2), '149.90', 2, 'purchase'),
      campaignRow(silent, usd.id, day(2), '0.00', null, 'link_click'),
      // Account rows as the platform reports them: results of mixed types added up, no result type.
      { level: 'account', entityId: inr.id, accountId: inr.id, date: day(1), spend: '250.10', impressions: 2000, reach: 700, clicks: 20, results: 11 },
      { level: 'account', entityId: inr.id, accountId: inr.id, date: day(2), spend: '149.90', impressions: 1000, reach: 400, clicks: 10, results: 2, resultType: 'purchase' },
      { level: 'account', entityId: usd.id, accountId: usd.id, date: day(2), spend: '0.00', impressions: 0, reach: 0, clicks: 0 },
      // The previous period (2026-05-29 … 2026-05-31 for 2026-06-01 … 2026-06-03).
      campaignRow(sales, inr.id, '2026-05-31', '30.00', 4, 'purchase'),
      campaignRow(leads, inr.id, '2026-05-30', '90.00', 9, 'lead'),
      { level: 'account', entityId: inr.id, accountId: inr.id, date: '2026-05-31', spend: '30.00', impressions: 300, reach: 250, clicks: 3 },
      { level: 'account', entityId: inr.id, accountId: inr.id, date: '2026-05-30', spend: '90.00', impressions: 500, reach: 300, clicks: 5 },
      // A day on which two result types carry the same spend.
      campaignRow(leads, inr.id, '2026-06-10', '50.00', 10, 'lead'),
      campaignRow(sales, inr.id, '2026-06-10', '50.00', 1, 'purchase'),
      { level: 'account', entityId: inr.id, accountId: inr.id, date: '2026-06-10', spend: '100.00', impressions: 2000, reach: 700, clicks: 20 },
    ]);
    // Breakdown rows in the ten-day block of 21-30 June: one platform only on its first day, one later.
    for (const [date, platform, spend] of [['2026-06-21', 'audience_network', '7.00'], ['2026-06-25', 'facebook', '5.00']]) {
      await sql(
        `INSERT INTO ad_account_breakdowns_daily (org_id, account_id, breakdown, date, key1, key2, spend, impressions, clicks, reach)
         VALUES ($1, $2, 'platform', $3, $4, '', $5, 500, 5, 300)`,
        [orgId, inr.id, date, platform, spend],
      );
    }
    edgeKey = await mintKey({ orgId, scopes: ['ads:read'] });
  });

  afterAll(async () => {
    await dropOrg(orgId);
  });

  it('reports the result type with the most spend, only its results, and never mixes currencies silently', async () => {
    const body = await overview(`from=${day(1)}&to=${day(3)}`, edgeKey);
    expect(body.data.kpis).toEqual({
      spend: 400,
      impressions: 3000,
      reach: 700,
      clicks: 30,
      ctr: 1,
      cpc: expect.closeTo(400 / 30, 10),
      videoViews: 0,
      purchaseValue: 0,
      results: 3,
      resultType: 'purchase',
      costPerResult: 100,
    });
    expect(body.data.previous).toEqual({ spend: 120, results: 4, impressions: 800, clicks: 8, reach: 300 });
    expect(body.data.series).toEqual([
      { date: day(1), spend: 250.1, impressions: 2000, clicks: 20, reach: 700, results: 1 },
      { date: day(2), spend: 149.9, impressions: 1000, clicks: 10, reach: 400, results: 2 },
      { date: day(3), spend: 0, impressions: 0, clicks: 0, reach: 0, results: 0 },
    ]);
    expect(body.data.funds).toEqual({ balance: 10, spent: null, cap: 1000 });
    expect(body.data.lowBalance).toEqual([{ accountName: 'Edge INR', balance: 10, threshold: 50, currency: 'INR' }]);
    expect(body.data.campaigns.map((c) => [c.name, c.spend, c.client])).toEqual([
      ['Sales', 300, { id: expect.any(String), name: 'Edge client' }],
      ['Leads', 100, { id: expect.any(String), name: 'Edge client' }],
      ['Never reports results', 0, { id: null, name: 'Edge USD' }],
    ]);
    expect(body.data.widgets.topCampaigns[2]).toEqual({
      platformId: expect.any(String),
      name: 'Never reports results',
      spend: 0,
      results: null,
      resultType: 'link_click',
      costPerResult: null,
      ctr: 1,
      status: 'ACTIVE',
    });
    expect(body.meta).toEqual({ timezone: 'Asia/Kolkata', syncedAt: '2026-06-30T08:00:00.000Z', from: day(1), to: day(3), truncated: false, currency: null });
  });

  it('breaks a tie of spend between result types alphabetically, and between campaigns by name', async () => {
    const body = await overview('from=2026-06-10&to=2026-06-10', edgeKey);
    expect(body.data.kpis).toMatchObject({ spend: 100, results: 10, resultType: 'lead', costPerResult: 5 });
    expect(body.data.series).toEqual([{ date: '2026-06-10', spend: 100, impressions: 2000, clicks: 20, reach: 700, results: 10 }]);
    // The list and its top campaigns come from two statements: both order the tie the same way.
    expect(body.data.campaigns.map((c) => [c.name, c.spend])).toEqual([['Leads', 50], ['Sales', 50]]);
    expect(body.data.widgets.topCampaigns.map((c) => [c.name, c.spend, c.results, c.resultType])).toEqual([
      ['Leads', 50, 10, 'lead'],
      ['Sales', 50, 1, 'purchase'],
    ]);
  });

  it('lists at most `limit` campaigns (the MCP tool\'s argument), a tie at the cut ordered by name', async () => {
    const reach = { orgId, clientIds: null };
    // Sales 300.00, Leads 100.00, Never reports results 0.00.
    const cut = await getAdsOverview(reach, { from: day(1), to: day(3), limit: 2 });
    expect(cut.data.campaigns.map((c) => [c.name, c.spend])).toEqual([['Sales', 300], ['Leads', 100]]);
    expect(cut.meta.truncated).toBe(true);
    // Leads and Sales both 50.00: the limit-th spend is shared, and the name decides.
    const tie = await getAdsOverview(reach, { from: '2026-06-10', to: '2026-06-10', limit: 1 });
    expect(tie.data.campaigns.map((c) => [c.name, c.spend])).toEqual([['Leads', 50]]);
    expect(tie.meta.truncated).toBe(true);
    const all = await getAdsOverview(reach, { from: '2026-06-10', to: '2026-06-10', limit: 2 });
    expect(all.data.campaigns.map((c) => [c.name, c.spend])).toEqual([['Leads', 50], ['Sales', 50]]);
    expect(all.meta.truncated).toBe(false);
  });

  it('lists a breakdown key only when it has rows in the range, also where the range reads a block less its days', async () => {
    // 22-30 June is read as the block of 21-30 June less 21 June: the platform of 21 June sums to zero there.
    // The whole organisation reads the organisation's rollup, a client its accounts' rollup.
    const [client] = await sql<{ id: string }>(`SELECT id FROM clients WHERE org_id = $1`, [orgId]);
    const clientKey = await mintKey({ orgId, scopes: ['ads:read'], clientIds: [client!.id] });
    for (const reader of [edgeKey, clientKey]) {
      const tail = await overview('from=2026-06-22&to=2026-06-30', reader);
      expect(tail.data.widgets.platforms).toEqual([{ platform: 'facebook', impressions: 500, spend: 5, clicks: 5 }]);
      const block = await overview('from=2026-06-21&to=2026-06-30', reader);
      expect(block.data.widgets.platforms.map((row) => [row.platform, row.spend])).toEqual([
        ['audience_network', 7],
        ['facebook', 5],
      ]);
    }
  });

  it('names the previous period\'s result type when the range reported none, with no results of its own', async () => {
    // 2026-06-04 … 06-05 has no rows; its previous period 06-02 … 06-03 reported purchases only.
    const body = await overview('from=2026-06-04&to=2026-06-05', edgeKey);
    expect(body.data.kpis).toMatchObject({ spend: 0, results: 0, resultType: 'purchase', costPerResult: null });
    expect(body.data.previous).toEqual({ spend: 149.9, results: 2, impressions: 1000, clicks: 10, reach: 400 });
    expect(body.data.series.map((point) => point.results)).toEqual([0, 0]);
  });

  it('gives ratios typed as numbers as 0 when the denominator is 0, and cost per result null', async () => {
    const [silent] = await sql<{ id: string }>(`SELECT id FROM campaigns WHERE org_id = $1 AND name = 'Never reports results'`, [orgId]);
    const body = await overview(`campaignId=${silent!.id}&from=${day(2)}&to=${day(2)}`, edgeKey);
    expect(body.data.kpis).toMatchObject({ ctr: 1, cpc: 0, results: 0, resultType: 'link_click', costPerResult: null });
    expect(body.meta.currency).toBe('USD');
    const empty = await overview(`from=2026-01-01&to=2026-01-02`, edgeKey);
    expect(empty.data.kpis).toEqual({ spend: 0, impressions: 0, reach: 0, clicks: 0, ctr: 0, cpc: 0, videoViews: 0, purchaseValue: 0, results: 0, resultType: null, costPerResult: null });
    expect(empty.data.series).toHaveLength(2);
  });
});

describe('GET /ads/overview errors', () => {
  it('refuses a bad query with every problem listed', async () => {
    const problem = await expectProblem(
      await api(`/api/v1/ads/overview?from=2026-06-01&to=2027-06-30&campaignId=${'9'.repeat(65)}&colour=red`, { key }),
      400,
      'validation_failed',
    );
    expect(problem.errors!.map((e) => e.path).sort()).toEqual(['campaignId', 'colour', 'to']);
  });

  it('needs a key with ads:read', async () => {
    await expectProblem(await api(`/api/v1/ads/overview?from=${FROM}&to=${TO}`), 401, 'unauthorized');
    const socialOnly = await mintKey({ orgId: org.id, scopes: ['social:read'] });
    await expectProblem(await api(`/api/v1/ads/overview?from=${FROM}&to=${TO}`, { key: socialOnly }), 403, 'forbidden');
  });
});
