// /ads/entities: rows, figures and lineage per level recomputed from the stored rows; search, the
// 500-row cap, currencies, null ratios, key reach and organisation isolation.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { sql } from '@/lib/db';
import type { Meta } from '@/lib/contract/envelope';
import { adsEntitiesOperation } from '@/lib/metrics/ads/operations';
import type { AdsEntitiesData } from '@/lib/metrics/ads/schemas';
import { api, mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import {
  createAccount,
  createAd,
  createAdSet,
  createCampaign,
  createClient,
  createOrg,
  dropOrg,
  expectedResults,
  inRange,
  insertInsights,
  recordSync,
  storedInsights,
  sumMoney,
  type InsightFixture,
  type StoredInsight,
} from './ads-fixtures';

type Body = { data: AdsEntitiesData; meta: Meta };

const FROM = '2026-06-01';
const TO = '2026-06-30';
const seed = inject('seed');
const org = seed.orgs[0]!;
const otherOrg = seed.orgs[1]!;

interface EntityRecord {
  id: string;
  platform_id: string;
  name: string;
  status: string | null;
  effective_status: string | null;
  account_id: string;
  campaign_id: string | null;
  ad_set_id: string | null;
  thumbnail_url: string | null;
  image_url: string | null;
}

interface AccountRecord {
  id: string;
  platform_account_id: string;
  name: string;
  currency: string | null;
  client_id: string | null;
  client_name: string | null;
}

let key: string;
let insights: StoredInsight[];
let accounts: Map<string, AccountRecord>;
let entities: Map<string, EntityRecord & { objective?: string | null }>;

beforeAll(async () => {
  key = await mintKey({ orgId: org.id, scopes: ['ads:read'] });
  insights = await storedInsights(org.id);
  accounts = new Map(
    (
      await sql<AccountRecord>(
        'SELECT a.id, a.platform_account_id, a.name, a.currency, a.client_id, c.name AS client_name FROM ad_accounts a LEFT JOIN clients c ON c.id = a.client_id WHERE a.org_id = $1',
        [org.id],
      )
    ).map((a) => [a.id, a]),
  );
  const rows = await sql<EntityRecord & { objective: string | null }>(
    `SELECT id, platform_id, name, status, effective_status, account_id, id AS campaign_id, NULL::uuid AS ad_set_id, NULL AS thumbnail_url, NULL AS image_url, objective FROM campaigns WHERE org_id = $1
     UNION ALL SELECT id, platform_id, name, status, effective_status, account_id, campaign_id, id, NULL, NULL, NULL FROM ad_sets WHERE org_id = $1
     UNION ALL SELECT id, platform_id, name, status, effective_status, account_id, campaign_id, ad_set_id, thumbnail_url, image_url, NULL FROM ads WHERE org_id = $1`,
    [org.id],
  );
  entities = new Map(rows.map((e) => [e.id, e]));
});

async function list(query: string, withKey = key): Promise<Body> {
  return expectContract<Body>(adsEntitiesOperation, await api(`/api/v1/ads/entities?${query}`, { key: withKey }));
}

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The rows of a level as the spec defines them, computed from the stored rows. */
function expectedRows(level: 'campaign' | 'adset' | 'ad', rows: StoredInsight[]) {
  const ofLevel = inRange(rows, FROM, TO).filter((r) => r.level === level);
  const ids = [...new Set(ofLevel.map((r) => r.entity_id))];
  return ids
    .map((id) => {
      const own = ofLevel.filter((r) => r.entity_id === id);
      const entity = entities.get(id)!;
      const account = accounts.get(entity.account_id)!;
      const campaign = entities.get(entity.campaign_id!)!;
      const adSet = entity.ad_set_id ? entities.get(entity.ad_set_id)! : null;
      const spend = sumMoney(own.map((r) => r.spend));
      const impressions = own.reduce((n, r) => n + r.impressions, 0);
      const clicks = own.reduce((n, r) => n + r.clicks, 0);
      const reachDays = own.reduce((n, r) => n + r.reach, 0);
      const outcome = expectedResults(own);
      return {
        id,
        platformId: entity.platform_id,
        name: entity.name,
        status: entity.status,
        effectiveStatus: entity.effective_status,
        currency: account.currency,
        spend,
        impressions,
        reach: Math.max(...own.map((r) => r.reach)),
        clicks,
        linkClicks: own.reduce((n, r) => n + r.link_clicks, 0),
        results: outcome.results,
        resultType: outcome.resultType,
        ctr: impressions ? expect.closeTo((clicks / impressions) * 100, 10) : null,
        cpc: clicks ? expect.closeTo(spend / clicks, 10) : null,
        costPerResult: outcome.costPerResult === null ? null : expect.closeTo(outcome.costPerResult, 10),
        frequency: reachDays ? expect.closeTo(impressions / reachDays, 10) : null,
        ...(level === 'ad' ? { thumbnailUrl: entity.thumbnail_url, imageUrl: entity.image_url } : {}),
        account: { id: account.id, platformAccountId: account.platform_account_id, name: account.name },
        client: account.client_id ? { id: account.client_id, name: account.client_name } : { id: null, name: account.name },
        campaign: level === 'campaign' ? null : { id: campaign.id, platformId: campaign.platform_id, name: campaign.name, objective: campaign.objective ?? null },
        adSet: level === 'ad' && adSet ? { id: adSet.id, platformId: adSet.platform_id, name: adSet.name } : null,
      };
    })
    .sort((a, b) => b.spend - a.spend || byCode(a.name, b.name) || byCode(a.id, b.id));
}

describe('GET /ads/entities on the seeded organisation', () => {
  for (const level of ['campaign', 'adset', 'ad'] as const) {
    it(`lists every ${level} with data in the range, its figures and lineage, by spend then name`, async () => {
      const body = await list(`level=${level}&from=${FROM}&to=${TO}`);
      const expected = expectedRows(level, insights);
      expect(expected.length).toBeGreaterThan(1);
      expect(body.data).toEqual({ rows: expected, truncated: false });
      expect(body.data.rows.some((r) => r.client?.id === null && r.client.name === r.account?.name)).toBe(true);
      const contributing = [...new Set(expected.map((r) => r.account.id))];
      const [oldest] = await sql<{ oldest: Date }>(
        `SELECT min(last) AS oldest FROM (SELECT max(finished_at) AS last FROM sync_runs WHERE resource_id = ANY($1::uuid[]) AND status = 'succeeded' GROUP BY resource_id) s`,
        [contributing],
      );
      expect(body.meta).toEqual({ timezone: 'Asia/Kolkata', syncedAt: oldest!.oldest.toISOString(), from: FROM, to: TO, truncated: false, currency: null });
    });
  }

  it('searches names case-insensitively and platform ids exactly', async () => {
    const sample = expectedRows('ad', insights)[0]!;
    const word = sample.name.split(' ')[0]!;
    const body = await list(`level=ad&from=${FROM}&to=${TO}&search=${encodeURIComponent(word.toUpperCase())}`);
    const expected = expectedRows('ad', insights).filter((r) => r.name.toLowerCase().includes(word.toLowerCase()));
    expect(body.data.rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));

    const exact = await list(`level=ad&from=${FROM}&to=${TO}&search=${sample.platformId}`);
    expect(exact.data.rows.map((r) => r.id)).toEqual([sample.id]);
    const partialId = await list(`level=ad&from=${FROM}&to=${TO}&search=${sample.platformId.slice(0, -1)}x`);
    expect(partialId.data.rows).toEqual([]);
    expect(partialId.meta).toEqual({ timezone: 'Asia/Kolkata', syncedAt: null, from: FROM, to: TO, truncated: false, currency: null });
    // `%` is a character, not a wildcard.
    expect((await list(`level=ad&from=${FROM}&to=${TO}&search=%25`)).data.rows).toEqual([]);
  });

  it('shows a restricted key only its clients, with their one currency', async () => {
    const [clientId, currencies] = [...[...accounts.values()].reduce((m, a) => (a.client_id ? m.set(a.client_id, (m.get(a.client_id) ?? new Set()).add(a.currency)) : m), new Map<string, Set<string | null>>())].find(
      ([, set]) => set.size === 1,
    )!;
    const restricted = await mintKey({ orgId: org.id, scopes: ['ads:read'], clientIds: [clientId] });
    const body = await list(`level=campaign&from=${FROM}&to=${TO}`, restricted);
    const mine = insights.filter((r) => accounts.get(r.account_id)!.client_id === clientId);
    expect(body.data.rows).toEqual(expectedRows('campaign', mine));
    expect(body.meta.currency).toBe([...currencies][0]);
    const other = [...accounts.values()].find((a) => a.client_id && a.client_id !== clientId)!.client_id!;
    await expectProblem(await api(`/api/v1/ads/entities?level=ad&client=${other}&from=${FROM}&to=${TO}`, { key: restricted }), 404, 'not_found');
  });

  it('never lists another organisation', async () => {
    const otherKey = await mintKey({ orgId: otherOrg.id, scopes: ['ads:read'] });
    const body = await list(`level=ad&from=${FROM}&to=${TO}`, otherKey);
    const theirs = new Set((await sql<{ id: string }>('SELECT id FROM ads WHERE org_id = $1', [otherOrg.id])).map((a) => a.id));
    expect(body.data.rows.length).toBeGreaterThan(0);
    expect(body.data.rows.every((r) => theirs.has(r.id))).toBe(true);
    const ours = await list(`level=ad&from=${FROM}&to=${TO}`);
    expect(ours.data.rows.some((r) => theirs.has(r.id))).toBe(false);
  });

  it('refuses a bad query', async () => {
    const problem = await expectProblem(await api(`/api/v1/ads/entities?level=account&from=${FROM}&to=${TO}&search=`, { key }), 400, 'validation_failed');
    expect(problem.errors!.map((e) => e.path).sort()).toEqual(['level', 'search']);
    await expectProblem(await api(`/api/v1/ads/entities?level=ad&from=${FROM}&to=${TO}&search=${'x'.repeat(101)}`, { key }), 400, 'validation_failed');
  });
});

describe('GET /ads/entities on hand-made rows', () => {
  let orgId: string;
  let edgeKey: string;
  const DAY = '2026-06-10';

  beforeAll(async () => {
    orgId = await createOrg('Ads entities edge cases');
    const client = await createClient(orgId, 'Cap client');
    const account = await createAccount(orgId, { clientId: client, name: 'Cap account', currency: 'EUR' });
    await recordSync(orgId, account.id, '2026-06-30T09:00:00Z');
    // 501 campaigns: pairs of equal spend so that the name breaks the tie; one never clicked.
    const rows: InsightFixture[] = [];
    for (let i = 0; i < 501; i++) {
      const campaign = await createCampaign(orgId, account.id, `Campaign ${String(1000 - i).padStart(4, '0')}`, i % 2 ? 'lead' : null);
      rows.push({
        level: 'campaign',
        entityId: campaign.id,
        accountId: account.id,
        campaignId: campaign.id,
        date: DAY,
        spend: (Math.floor(i / 2) + 1).toFixed(2),
        impressions: i === 0 ? 0 : 100,
        reach: i === 0 ? 0 : 80,
        clicks: i < 2 ? 0 : 5,
        results: i % 2 ? 2 : null,
        resultType: i % 2 ? 'lead' : null,
      });
    }
    const first = (await sql<{ id: string }>(`SELECT id FROM campaigns WHERE org_id = $1 AND name = 'Campaign 1000'`, [orgId]))[0]!;
    const adSet = await createAdSet(orgId, account.id, first.id, 'Set 50%');
    const ad = await createAd(orgId, account.id, first.id, adSet.id, 'Ad 100% off');
    rows.push(
      { level: 'adset', entityId: adSet.id, accountId: account.id, campaignId: first.id, adSetId: adSet.id, date: DAY, spend: '1.00', impressions: 10, reach: 9, clicks: 1 },
      { level: 'ad', entityId: ad.id, accountId: account.id, campaignId: first.id, adSetId: adSet.id, adId: ad.id, date: DAY, spend: '1.00', impressions: 10, reach: 9, clicks: 1 },
    );
    // 22-30 June is ranked from the block 21-30 June less 21 June: a campaign that spent only on the
    // 21st must take no place in the list, one that spent on both counts only its days in the range.
    // 498 of the 501 campaigns spend again on 23 June (from 2.00 up: the 2.00 one alone), so that the
    // list is cut there as well, between 2.00 and 2.50: one place taken by the 21st would cut it higher.
    rows.push(...rows.filter((row) => row.level === 'campaign').slice(3).map((row) => ({ ...row, date: '2026-06-23' })));
    const campaignRow = (name: string) => createCampaign(orgId, account.id, name);
    const [outside, inside, both, extra] = [await campaignRow('Only on 21 June'), await campaignRow('Inside'), await campaignRow('Both'), await campaignRow('Extra')];
    const blockRow = (campaign: { id: string }, date: string, spend: string): InsightFixture => ({
      level: 'campaign',
      entityId: campaign.id,
      accountId: account.id,
      campaignId: campaign.id,
      date,
      spend,
      impressions: 10,
      reach: 5,
      clicks: 1,
    });
    rows.push(
      blockRow(outside, '2026-06-21', '500.00'),
      blockRow(inside, '2026-06-22', '2.00'),
      blockRow(inside, '2026-06-30', '2.00'),
      blockRow(both, '2026-06-21', '100.00'),
      blockRow(both, '2026-06-25', '3.00'),
      blockRow(extra, '2026-06-24', '2.50'),
    );
    await insertInsights(orgId, rows);
    edgeKey = await mintKey({ orgId, scopes: ['ads:read'] });
  });

  afterAll(async () => {
    await dropOrg(orgId);
  });

  it('caps the list at 500 rows, by spend then name, and says so in data and meta', async () => {
    const body = await list(`level=campaign&from=${DAY}&to=${DAY}`, edgeKey);
    expect(body.data.rows).toHaveLength(500);
    expect(body.data.truncated).toBe(true);
    expect(body.meta).toEqual({ timezone: 'Asia/Kolkata', syncedAt: '2026-06-30T09:00:00.000Z', from: DAY, to: DAY, truncated: true, currency: 'EUR' });
    // Highest spend first (251.00: only campaign 500 = i 500); ties (i 498/499 = 250.00) by name.
    expect(body.data.rows.slice(0, 3).map((r) => [r.name, r.spend])).toEqual([
      ['Campaign 0500', 251],
      ['Campaign 0501', 250],
      ['Campaign 0502', 250],
    ]);
    // The lowest spend pair (i 0 and 1, 1.00 each) loses one row to the cap: the later name.
    expect(body.data.rows.at(-1)!.name).toBe('Campaign 0999');
    // `offset` continues the same order where the cap cut it: the row the cap left out, and no more.
    const rest = await list(`level=campaign&from=${DAY}&to=${DAY}&offset=500`, edgeKey);
    expect(rest.data.rows.map((r) => [r.name, r.spend])).toEqual([['Campaign 1000', 1]]);
    expect(rest.data.truncated).toBe(false);
    expect(rest.meta.truncated).toBe(false);
    const middle = await list(`level=campaign&from=${DAY}&to=${DAY}&offset=1`, edgeKey);
    expect(middle.data.rows.slice(0, 499)).toEqual(body.data.rows.slice(1));
    expect(middle.data.rows.at(-1)!.name).toBe('Campaign 1000');
  });

  it('ranks only the days of the range where a block is read less its other days', async () => {
    const body = await list('level=campaign&from=2026-06-22&to=2026-06-30', edgeKey);
    // 501 campaigns spent in the range: all but the lowest (Campaign 0997, 2.00) are listed.
    expect(body.data.truncated).toBe(true);
    expect(body.data.rows).toHaveLength(500);
    expect(body.data.rows.slice(0, 2).map((r) => [r.name, r.spend])).toEqual([
      ['Campaign 0500', 251],
      ['Campaign 0501', 250],
    ]);
    expect(body.data.rows.filter((r) => !r.name.startsWith('Campaign')).map((r) => [r.name, r.spend, r.impressions])).toEqual([
      ['Inside', 4, 20],
      ['Both', 3, 10],
      ['Extra', 2.5, 10],
    ]);
    expect(body.data.rows.at(-1)!.name).toBe('Extra');
  });

  it('gives null ratios for zero denominators and null results when none were reported', async () => {
    const body = await list(`level=campaign&from=${DAY}&to=${DAY}&search=campaign 0999`, edgeKey);
    expect(body.data.rows).toHaveLength(1);
    expect(body.data.rows[0]).toMatchObject({ impressions: 100, clicks: 0, ctr: 0, cpc: null, results: 2, resultType: 'lead', costPerResult: 0.5 });
    const silent = await list(`level=campaign&from=${DAY}&to=${DAY}&search=CAMPAIGN 1000`, edgeKey);
    expect(silent.data.rows[0]).toMatchObject({ impressions: 0, reach: 0, ctr: null, cpc: null, frequency: null, results: null, resultType: null, costPerResult: null });
  });

  it('carries the campaign on ad-set rows and the campaign and ad set on ad rows; % and _ are literal', async () => {
    const adSets = await list(`level=adset&from=${DAY}&to=${DAY}&search=50%25`, edgeKey);
    expect(adSets.data.rows.map((r) => [r.name, r.campaign?.name, r.adSet, r.client])).toEqual([
      ['Set 50%', 'Campaign 1000', null, { id: expect.any(String), name: 'Cap client' }],
    ]);
    const ads = await list(`level=ad&from=${DAY}&to=${DAY}&search=100%25`, edgeKey);
    expect(ads.data.rows.map((r) => [r.name, r.campaign?.objective, r.adSet?.name, r.thumbnailUrl])).toEqual([['Ad 100% off', 'OUTCOME_TEST', 'Set 50%', null]]);
    expect((await list(`level=ad&from=${DAY}&to=${DAY}&search=100_`, edgeKey)).data.rows).toEqual([]);
  });
});
