// /website/search against an organisation of its own, every expected figure computed here from the
// fixture rows (position weighted by impressions over the rows that report one).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { websiteSearchOperation } from '@/lib/metrics/website/operations';
import { eachDay } from '@/lib/time/days';
import { api, mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import { approx, bucketSums, MID_WEEK_BUCKETS, createOrg, inRange, insertRows, random, rankedKeys, rate, recordSync, total, type Row } from './website-fixtures';

interface Site {
  id: string;
  siteUrl: string;
  clientId: string | null;
  days: string[];
}

const TABLES = { queries: 'query', pages: 'page', countries: 'country', devices: 'device', searchAppearances: 'search_appearance' } as const;

const KEYS: Record<string, string[]> = {
  query: ['running shoes', 'trail shoes', 'shoe sale', 'best sneakers', 'sneaker cleaner'],
  page: ['https://shop.example/', 'https://shop.example/sale', 'https://shop.example/trail'],
  country: ['deu', 'usa', 'ind'],
  device: ['MOBILE', 'DESKTOP', 'TABLET'],
  search_appearance: ['PRODUCT_SNIPPETS', 'REVIEW_SNIPPET'],
};

let org: Awaited<ReturnType<typeof createOrg>>;
let sites: Site[];
let daily: Row[];
let dimensions: Row[];
let key: string;

async function insertSite(site: Omit<Site, 'id'>): Promise<Site> {
  const id = randomUUID();
  await sql('INSERT INTO search_console_sites (id, org_id, client_id, site_url, timezone) VALUES ($1, $2, $3, $4, $5)', [
    id,
    org.orgId,
    site.clientId,
    site.siteUrl,
    'America/Los_Angeles',
  ]);
  return { ...site, id };
}

function measures(rng: () => number, scale: number): Row {
  const impressions = Math.floor(rng() * 1000 * scale);
  return { clicks: Math.floor(impressions * rng() * 0.1), impressions, position: rng() < 0.1 ? null : 1 + rng() * 30 };
}

beforeAll(async () => {
  org = await createOrg('search-fixture');
  sites = [
    await insertSite({ siteUrl: 'https://a.example/', clientId: org.clientA, days: eachDay('2023-01-01', '2024-04-10') }),
    await insertSite({ siteUrl: 'https://b.example/', clientId: org.clientA, days: eachDay('2024-01-01', '2024-04-07') }),
    await insertSite({ siteUrl: 'sc-domain:c.example', clientId: org.clientB, days: eachDay('2024-02-01', '2024-04-10') }),
  ];
  const rng = random(7);
  daily = sites.flatMap((site) => site.days.map((date) => ({ search_console_site_id: site.id, date, ...measures(rng, 3) })));
  dimensions = sites.flatMap((site) =>
    site.days.flatMap((date) =>
      Object.entries(KEYS).flatMap(([dimension, keys]) =>
        keys.filter(() => rng() > 0.2).map((rowKey) => ({ search_console_site_id: site.id, dimension, date, key: rowKey, ...measures(rng, 1) })),
      ),
    ),
  );
  // A tie on clicks, ranked by key.
  for (const site of sites) {
    for (const date of site.days) {
      dimensions.push({ search_console_site_id: site.id, dimension: 'device', date, key: 'TV', clicks: 0, impressions: 1, position: 50 });
      dimensions.push({ search_console_site_id: site.id, dimension: 'device', date, key: 'CONSOLE', clicks: 0, impressions: 2, position: null });
    }
  }
  await insertRows('search_console_daily', daily);
  await insertRows('search_console_dimensions_daily', dimensions);
  await recordSync(org.orgId, 'search_console', sites[0]!.id, '2024-04-12T03:00:00.000Z');
  await recordSync(org.orgId, 'search_console', sites[1]!.id, '2024-04-12T02:00:00.000Z');
  await recordSync(org.orgId, 'search_console', sites[2]!.id, '2024-04-11T04:00:00.000Z');
  key = await mintKey({ orgId: org.orgId, scopes: ['web:read'] });
});

function searchSet(rows: Row[]) {
  const clicks = total(rows, 'clicks');
  const impressions = total(rows, 'impressions');
  const positioned = rows.filter((row) => row.position !== null);
  const weighted = positioned.length === 0 ? null : positioned.reduce((sum, row) => sum + (row.position as number) * (row.impressions as number), 0);
  return { clicks, impressions, ctr: rate(clicks, impressions, 100), position: rate(weighted, total(positioned, 'impressions')) };
}

function expectedSearch(ids: string[], from: string, to: string, compare: { from: string; to: string } | null, limit: number, data = { daily, dimensions }) {
  const mine = (row: Row) => ids.includes(row.search_console_site_id as string);
  const days = (rows: Row[], range: { from: string; to: string }) =>
    eachDay(range.from, range.to).map((date) => ({ date, ...searchSet(rows.filter((row) => row.date === date)) }));
  const current = data.daily.filter(mine).filter(inRange(from, to));
  const previous = compare ? data.daily.filter(mine).filter(inRange(compare.from, compare.to)) : null;
  const dimCurrent = data.dimensions.filter(mine).filter(inRange(from, to));
  const dimPrevious = compare ? data.dimensions.filter(mine).filter(inRange(compare.from, compare.to)) : null;
  return {
    totals: searchSet(current),
    previous: previous && searchSet(previous),
    series: days(current, { from, to }),
    previousSeries: compare ? days(previous!, compare) : [],
    ...Object.fromEntries(
      Object.entries(TABLES).map(([name, dimension]) => {
        const rows = dimCurrent.filter((row) => row.dimension === dimension);
        return [
          name,
          rankedKeys(rows, 'clicks')
            .slice(0, limit)
            .map((rowKey) => ({
              key: rowKey,
              totals: searchSet(rows.filter((row) => row.key === rowKey)),
              previous: dimPrevious ? searchSet(dimPrevious.filter((row) => row.dimension === dimension && row.key === rowKey)) : null,
            })),
        ];
      }),
    ),
  };
}

type Search = { data: { from: string; to: string; compare: unknown; search: Record<string, unknown> | null }; meta: Record<string, unknown> };

async function search(query: string, apiKey = key): Promise<Search> {
  return expectContract<Search>(websiteSearchOperation, await api(`/api/v1/website/search?${query}`, { key: apiKey }));
}

describe('GET /website/search', () => {
  it('sums one client’s sites over the range and the previous period', async () => {
    const body = await search(`client=${org.clientA}&from=2024-03-01&to=2024-03-31`);
    const compare = { from: '2024-01-30', to: '2024-02-29' };
    expect(body.data.compare).toEqual(compare);
    expect(body.data.search).toEqual(
      approx({
        sites: [
          { id: sites[0]!.id, siteUrl: 'https://a.example/', timezone: 'America/Los_Angeles', lastSyncedAt: '2024-04-12T03:00:00.000Z' },
          { id: sites[1]!.id, siteUrl: 'https://b.example/', timezone: 'America/Los_Angeles', lastSyncedAt: '2024-04-12T02:00:00.000Z' },
        ],
        ...expectedSearch([sites[0]!.id, sites[1]!.id], '2024-03-01', '2024-03-31', compare, 25),
        partial: false,
      }),
    );
    // No money here: meta has no currency.
    expect(body.meta).toEqual({ timezone: 'Asia/Kolkata', syncedAt: '2024-04-12T02:00:00.000Z', from: '2024-03-01', to: '2024-03-31' });
  });

  it.each([
    ['prevMonth', '2024-03-01', '2024-03-31', { from: '2024-02-01', to: '2024-02-29' }],
    ['prevMonth', '2024-03-31', '2024-03-31', { from: '2024-02-29', to: '2024-02-29' }],
    ['prevYear', '2024-02-29', '2024-02-29', { from: '2023-02-28', to: '2023-02-28' }],
    ['prevYear', '2024-02-01', '2024-02-29', { from: '2023-02-01', to: '2023-02-28' }],
  ])('compare=%s of %s…%s compares %o', async (mode, from, to, compare) => {
    const body = await search(`from=${from}&to=${to}&compare=${mode}&limit=4`);
    expect(body.data.compare).toEqual(compare);
    expect(body.data.search).toEqual(
      approx({
        sites: expect.any(Array),
        ...expectedSearch(
          sites.map((site) => site.id),
          from,
          to,
          compare,
          4,
        ),
        partial: from < '2024-02-01',
      }),
    );
  });

  it('compare=none and limit=1', async () => {
    const body = await search(`client=${org.clientB}&from=2024-03-01&to=2024-03-31&compare=none&limit=1`);
    expect(body.data.compare).toBeNull();
    const result = body.data.search!;
    expect(result.previous).toBeNull();
    expect(result.previousSeries).toEqual([]);
    expect(result).toEqual(approx({ sites: expect.any(Array), ...expectedSearch([sites[2]!.id], '2024-03-01', '2024-03-31', null, 1), partial: false }));
    for (const table of Object.keys(TABLES)) expect((result[table] as unknown[]).length).toBe(1);
  });

  it('ties on clicks are ranked by key; partial when a site’s days stop before the range ends', async () => {
    const body = await search(`client=${org.clientA}&from=2024-04-01&to=2024-04-10&limit=100`);
    const devices = (body.data.search!.devices as Array<{ key: string }>).map((row) => row.key);
    expect(devices.slice(-2)).toEqual(['CONSOLE', 'TV']);
    expect(body.data.search!.partial).toBe(true);
  });

  it('search is null without sites; a restricted key sees its client only; other organisations never leak', async () => {
    const empty = await createOrg('search-empty');
    const emptyBody = await search('from=2024-03-01&to=2024-03-31&compare=none', await mintKey({ orgId: empty.orgId, scopes: ['web:read'] }));
    expect(emptyBody).toEqual({
      data: { from: '2024-03-01', to: '2024-03-31', compare: null, search: null },
      meta: { timezone: 'Asia/Kolkata', syncedAt: null, from: '2024-03-01', to: '2024-03-31' },
    });

    const restricted = await mintKey({ orgId: org.orgId, scopes: ['web:read'], clientIds: [org.clientB] });
    const body = await search('from=2024-03-01&to=2024-03-31', restricted);
    expect((body.data.search!.sites as Array<{ id: string }>).map((site) => site.id)).toEqual([sites[2]!.id]);
    await expectProblem(await api(`/api/v1/website/search?from=2024-03-01&to=2024-03-31&client=${org.clientA}`, { key: restricted }), 404, 'not_found');

    const other = inject('seed').orgs[1]!;
    const otherBody = await search('from=2024-03-01&to=2024-03-31', await mintKey({ orgId: other.id, scopes: ['web:read'] }));
    const owned = await sql<{ id: string }>('SELECT id FROM search_console_sites WHERE org_id = $1', [other.id]);
    expect(((otherBody.data.search?.sites ?? []) as Array<{ id: string }>).map((site) => site.id).sort()).toEqual(owned.map((row) => row.id).sort());
  });

  it('matches the seeded organisation, every figure computed from its rows', async () => {
    const main = inject('seed').orgs[0]!;
    const ids = (await sql<{ id: string }>('SELECT id FROM search_console_sites WHERE org_id = $1', [main.id])).map((site) => site.id);
    expect(ids.length).toBeGreaterThan(0);
    const rowsOf = async (table: string) =>
      (await sql<{ row: Row }>(`SELECT row_to_json(t) AS row FROM ${table} t WHERE search_console_site_id = ANY($1::uuid[])`, [ids])).map((r) => r.row);
    const data = { daily: await rowsOf('search_console_daily'), dimensions: await rowsOf('search_console_dimensions_daily') };
    const body = await search('from=2026-06-01&to=2026-06-30&compare=prevMonth&limit=10', await mintKey({ orgId: main.id, scopes: ['web:read'] }));
    const compare = { from: '2026-05-01', to: '2026-05-31' };
    const covered = data.daily.filter(inRange('2026-06-01', '2026-06-30')).length;
    expect(body.data.search).toEqual(
      approx({ sites: expect.any(Array), ...expectedSearch(ids, '2026-06-01', '2026-06-30', compare, 10, data), partial: covered < ids.length * 30 }),
    );
    expect((body.data.search!.totals as { clicks: number | null }).clicks).toBeGreaterThan(0);
  });

  it('granularity week and month: clicks and impressions summed over the bucket, CTR and position derived from its sums, a mid-week from', async () => {
    const { range, weeks, months } = MID_WEEK_BUCKETS;
    for (const [query, ids, buckets, granularity] of [
      [range, sites.map((site) => site.id), weeks, 'week'],
      [`client=${org.clientA}&${range}`, [sites[0]!.id, sites[1]!.id], months, 'month'],
    ] as const) {
      const byDay = (await search(query)).data.search!;
      const body = await search(`${query}&granularity=${granularity}`);
      const bucketed = body.data.search!;
      const rows = (from: string, to: string) => daily.filter((row) => ids.includes(row.search_console_site_id as string)).filter(inRange(from, to));
      expect(bucketed.series).toEqual(
        approx(
          buckets.map(([from, to]) => {
            // The sums are those of the daily points; the rates come from them, never from the daily rates.
            const sums = bucketSums(byDay.series as Row[], from, to, ['clicks', 'impressions']);
            return { ...sums, ctr: rate(sums.clicks as number, sums.impressions as number, 100), position: searchSet(rows(from, to)).position };
          }),
        ),
      );
      // The compare range is bucketed on its own, its first bucket dated by its own first day.
      expect((bucketed.previousSeries as Row[])[0]!.date).toBe((body.data.compare as { from: string }).from);
      expect({ ...bucketed, series: [], previousSeries: [] }).toEqual({ ...byDay, series: [], previousSeries: [] });
    }
  });

  it('needs web:read; validates the query', async () => {
    const storeOnly = await mintKey({ orgId: org.orgId, scopes: ['store:read'] });
    await expectProblem(await api('/api/v1/website/search?from=2024-03-01&to=2024-03-31', { key: storeOnly }), 403, 'forbidden');
    await expectProblem(await api('/api/v1/website/search?from=2024-03-01&to=2024-03-31'), 401, 'unauthorized');
    const problem = await expectProblem(await api('/api/v1/website/search?to=2024-03-31&limit=500&query=shoes&granularity=quarter', { key }), 400, 'validation_failed');
    expect(problem.errors!.map((e) => e.path).sort()).toEqual(['from', 'granularity', 'limit', 'query']);
  });
});
