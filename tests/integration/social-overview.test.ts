// GET /social/overview against the seeded database and hand-built organisations. Every expected
// figure is computed here from the raw rows (pages, daily rows, posts, sync runs), by the rules the
// operation documents, never read back from the code under test.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { socialOverviewOperation } from '@/lib/metrics/social/operations';
import { api, mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import {
  createClient,
  createOrg,
  createPage,
  expectedSyncedAt,
  insertDaily,
  insertPost,
  insertSync,
  rawDaily,
  rawPages,
  rawPosts,
  type RawDaily,
  type RawPage,
  type RawPost,
} from './social-fixtures';

const PLATFORMS = ['facebook', 'instagram'] as const;
type Platform = (typeof PLATFORMS)[number];
const FLOWS = ['impressions', 'views', 'profile_views', 'interactions', 'new_follows'] as const;

function days(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

const sumOrNull = (values: (number | null)[]) => {
  const reported = values.filter((v): v is number => v !== null);
  return reported.length ? reported.reduce((a, b) => a + b, 0) : null;
};

function expectedTotals(rows: RawDaily[]) {
  const byDay = new Map<string, RawDaily[]>();
  for (const row of rows) byDay.set(row.date, [...(byDay.get(row.date) ?? []), row]);
  const dayReach = [...byDay.values()].map((dayRows) => sumOrNull(dayRows.map((r) => r.reach))).filter((v): v is number => v !== null);
  const lastLevel = new Map<string, { date: string; followers: number }>();
  for (const row of rows) {
    if (row.followers === null) continue;
    const seen = lastLevel.get(row.social_page_id);
    if (!seen || seen.date < row.date) lastLevel.set(row.social_page_id, { date: row.date, followers: row.followers });
  }
  const paired = rows.filter((r) => r.reach !== null && r.interactions !== null);
  const pairedReach = paired.reduce((a, r) => a + r.reach!, 0);
  const rate = paired.length && pairedReach > 0 ? (100 * paired.reduce((a, r) => a + r.interactions!, 0)) / pairedReach : null;
  const [impressions, views, profileViews, interactions, newFollows] = FLOWS.map((name) => sumOrNull(rows.map((r) => r[name])));
  return {
    reach: dayReach.length ? Math.max(...dayReach) : null,
    impressions,
    views,
    profileViews,
    interactions,
    newFollows,
    followers: lastLevel.size ? [...lastLevel.values()].reduce((a, l) => a + l.followers, 0) : null,
    engagementRate: rate === null ? null : expect.closeTo(rate, 9),
  };
}

function expectedPostTotals(posts: RawPost[]) {
  return {
    newPosts: posts.length,
    likes: sumOrNull(posts.map((p) => p.likes)),
    comments: sumOrNull(posts.map((p) => p.comments)),
    shares: sumOrNull(posts.map((p) => p.shares)),
    saves: sumOrNull(posts.map((p) => p.saves)),
  };
}

function expectedSeries(rows: RawDaily[], from: string, to: string) {
  return days(from, to).map((date) => {
    const dayRows = rows.filter((r) => r.date === date);
    return {
      date,
      reach: sumOrNull(dayRows.map((r) => r.reach)),
      impressions: sumOrNull(dayRows.map((r) => r.impressions)),
      views: sumOrNull(dayRows.map((r) => r.views)),
      interactions: sumOrNull(dayRows.map((r) => r.interactions)),
      newFollows: sumOrNull(dayRows.map((r) => r.new_follows)),
      followers: sumOrNull(dayRows.map((r) => r.followers)),
    };
  });
}

/** The whole expected body for the pages given (in the order of `rawPages`), computed from their raw rows. */
async function expectedOverview(pages: RawPage[], from: string, to: string) {
  const length = days(from, to).length;
  const dayBefore = (n: number) => new Date(Date.parse(`${from}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
  const previousFrom = dayBefore(length);
  const previousTo = dayBefore(1);
  const ids = pages.map((p) => p.id);
  const daily = await rawDaily(ids, previousFrom, to);
  const posts = await rawPosts(ids);
  const inRange = (day: string, a: string, b: string) => day >= a && day <= b;
  const platformEntry = (platform: Platform) => {
    const rows = daily.filter((r) => r.platform === platform);
    const current = rows.filter((r) => inRange(r.date, from, to));
    const previous = rows.filter((r) => inRange(r.date, previousFrom, previousTo));
    const platformPosts = posts.filter((p) => p.platform === platform);
    return {
      platform,
      totals: expectedTotals(current),
      previousTotals: expectedTotals(previous),
      postTotals: expectedPostTotals(platformPosts.filter((p) => inRange(p.ist_day, from, to))),
      previousPostTotals: expectedPostTotals(platformPosts.filter((p) => inRange(p.ist_day, previousFrom, previousTo))),
      series: expectedSeries(current, from, to),
      pageCount: platform === 'facebook' ? pages.length : pages.filter((p) => p.ig_user_id !== null || p.ig_username !== null).length,
    };
  };
  return {
    data: {
      from,
      to,
      previousFrom,
      previousTo,
      platforms: PLATFORMS.map(platformEntry),
      pages: pages.slice(0, 500).map((p) => ({ pageId: p.page_id, name: p.name, igUsername: p.ig_username })),
    },
    meta: { timezone: 'Asia/Kolkata', syncedAt: await expectedSyncedAt(ids), from, to, truncated: pages.length > 500 },
  };
}

type OverviewBody = Awaited<ReturnType<typeof expectedOverview>>;

async function overview(key: string, query: string): Promise<OverviewBody> {
  return expectContract<OverviewBody>(socialOverviewOperation, await api(`/api/v1/social/overview?${query}`, { key }));
}

const seed = inject('seed');
const mainOrg = seed.orgs[0]!;
const otherOrg = seed.orgs[1]!;
const FROM = '2026-06-01';
const TO = '2026-06-30';

describe('GET /social/overview on the seeded organisation', () => {
  let key: string;
  let clientWithPages: string;

  beforeAll(async () => {
    key = await mintKey({ orgId: mainOrg.id, scopes: ['social:read'] });
    const [row] = await sql<{ client_id: string }>(
      `SELECT client_id FROM social_pages WHERE org_id = $1 AND client_id IS NOT NULL GROUP BY client_id ORDER BY count(*) DESC, client_id LIMIT 1`,
      [mainOrg.id],
    );
    clientWithPages = row!.client_id;
  });

  it('reports every page of the organisation, figures computed from the raw rows', async () => {
    const pages = await rawPages(mainOrg.id);
    expect(pages.length).toBeGreaterThan(0);
    const body = await overview(key, `from=${FROM}&to=${TO}`);
    expect(body).toEqual(await expectedOverview(pages, FROM, TO));
    expect(body.data.platforms[0]!.series).toHaveLength(30);
  });

  it('groups the series by ISO week or month on request, each point the range rules over its bucket', async () => {
    const pages = await rawPages(mainOrg.id);
    const weekly = await overview(key, `from=${FROM}&to=${TO}&granularity=week`);
    const daily = await expectedOverview(pages, FROM, TO);
    expect({ ...weekly, data: { ...weekly.data, platforms: weekly.data.platforms.map((p) => ({ ...p, series: [] })) } }).toEqual({
      ...daily,
      data: { ...daily.data, platforms: daily.data.platforms.map((p) => ({ ...p, series: [] })) },
    });
    // 2026-06-01 is a Monday: four whole weeks and 29-30 June. A bucket's point is its range's totals.
    const weeks = [['01', '07'], ['08', '14'], ['15', '21'], ['22', '28'], ['29', '30']].map(([from, to]) => ({ from: `2026-06-${from}`, to: `2026-06-${to}` }));
    for (const [index, platform] of weekly.data.platforms.entries()) {
      const expected = await Promise.all(
        weeks.map(async (week) => {
          const { reach, impressions, views, interactions, newFollows, followers } = (await expectedOverview(pages, week.from, week.to)).data.platforms[index]!.totals;
          return { date: week.from, reach, impressions, views, interactions, newFollows, followers };
        }),
      );
      expect(platform.series, platform.platform).toEqual(expected);
    }
    const monthly = await overview(key, `from=2026-05-20&to=${TO}&granularity=month`);
    expect(monthly.data.platforms[0]!.series.map((point) => point.date)).toEqual(['2026-05-20', '2026-06-01']);
  });

  it('narrows to one client with `client`', async () => {
    const body = await overview(key, `client=${clientWithPages}&from=${FROM}&to=${TO}`);
    expect(body).toEqual(await expectedOverview(await rawPages(mainOrg.id, [clientWithPages]), FROM, TO));
  });

  it('gives a key restricted to a client that client only, without the pages assigned to no client', async () => {
    const restricted = await mintKey({ orgId: mainOrg.id, scopes: ['social:read'], clientIds: [clientWithPages] });
    const body = await overview(restricted, `from=2026-04-01&to=${TO}`);
    expect(body).toEqual(await expectedOverview(await rawPages(mainOrg.id, [clientWithPages]), '2026-04-01', TO));
  });

  it('answers 404 for a client outside the key, exactly as for an absent one', async () => {
    const [other] = await sql<{ id: string }>('SELECT id FROM clients WHERE org_id = $1 AND id <> $2 LIMIT 1', [mainOrg.id, clientWithPages]);
    const restricted = await mintKey({ orgId: mainOrg.id, scopes: ['social:read'], clientIds: [clientWithPages] });
    const outside = await expectProblem(await api(`/api/v1/social/overview?client=${other!.id}&from=${FROM}&to=${TO}`, { key: restricted }), 404, 'not_found');
    const absent = await expectProblem(
      await api(`/api/v1/social/overview?client=00000000-0000-4000-8000-000000000000&from=${FROM}&to=${TO}`, { key: restricted }),
      404,
      'not_found',
    );
    expect(outside).toEqual(absent);
  });

  it('never shows the other organisation: its client is 404 and its key sees only its own pages', async () => {
    const [foreignClient] = await sql<{ id: string }>('SELECT id FROM clients WHERE org_id = $1 LIMIT 1', [otherOrg.id]);
    await expectProblem(await api(`/api/v1/social/overview?client=${foreignClient!.id}&from=${FROM}&to=${TO}`, { key }), 404, 'not_found');

    const otherKey = await mintKey({ orgId: otherOrg.id, scopes: ['social:read'] });
    const body = await overview(otherKey, `from=${FROM}&to=${TO}`);
    const mainPageIds = new Set((await rawPages(mainOrg.id)).map((p) => p.page_id));
    expect(body.data.pages.some((p) => mainPageIds.has(p.pageId))).toBe(false);
    expect(body).toEqual(await expectedOverview(await rawPages(otherOrg.id), FROM, TO));
  });

  it('needs social:read (403) and a key (401)', async () => {
    const adsOnly = await mintKey({ orgId: mainOrg.id, scopes: ['ads:read'] });
    const forbidden = await expectProblem(await api(`/api/v1/social/overview?from=${FROM}&to=${TO}`, { key: adsOnly }), 403, 'forbidden');
    expect(forbidden.detail).toContain('social:read');
    await expectProblem(await api(`/api/v1/social/overview?from=${FROM}&to=${TO}`), 401, 'unauthorized');
  });

  it('lists every problem of a bad query', async () => {
    const problem = await expectProblem(await api('/api/v1/social/overview?from=2026-02-30&client=nope&limit=5', { key }), 400, 'validation_failed');
    expect(problem.errors!.map((e) => e.path).sort()).toEqual(['client', 'from', 'limit', 'to']);
    const tooLong = await expectProblem(await api('/api/v1/social/overview?from=2025-01-01&to=2026-01-02', { key }), 400, 'validation_failed');
    expect(tooLong.errors).toEqual([{ path: 'to', message: 'the range may not exceed 366 days (from and to included)' }]);
  });
});

describe('GET /social/overview on hand-built pages', () => {
  let orgId: string;
  let key: string;
  let pages: { fb: Awaited<ReturnType<typeof createPage>>; both: Awaited<ReturnType<typeof createPage>> };

  beforeAll(async () => {
    orgId = await createOrg('overview');
    const client = await createClient(orgId, 'Client A');
    pages = {
      fb: await createPage(orgId, { name: 'Alpha Page', clientId: client }),
      both: await createPage(orgId, { name: 'Beta Page', igUsername: 'beta.ig' }),
    };
    key = await mintKey({ orgId, scopes: ['social:read'] });
    // Facebook, range 2026-03-01..03: page fb reports every figure, page both has gaps.
    await insertDaily(pages.fb.id, 'facebook', '2026-03-01', { reach: 100, impressions: 150, views: 40, profile_views: 3, interactions: 10, new_follows: 2, followers: 500 });
    await insertDaily(pages.fb.id, 'facebook', '2026-03-02', { reach: 80, impressions: 90, interactions: 5, followers: 502 });
    await insertDaily(pages.fb.id, 'facebook', '2026-03-03', { reach: 60, interactions: null, followers: null });
    await insertDaily(pages.both.id, 'facebook', '2026-03-02', { reach: 50, impressions: 70, interactions: 8, followers: 1000 });
    // Instagram: only page both; one day has interactions without reach (left out of the rate).
    await insertDaily(pages.both.id, 'instagram', '2026-03-01', { reach: 200, interactions: 20, followers: 3000, new_follows: 0 });
    await insertDaily(pages.both.id, 'instagram', '2026-03-03', { reach: null, interactions: 99, followers: 3010 });
    // Previous period (2026-02-26..28).
    await insertDaily(pages.fb.id, 'facebook', '2026-02-27', { reach: 30, impressions: 31, followers: 490 });
    // Posts: 2026-03-01 00:00 IST is 2026-02-28T18:30Z; one second earlier is the previous period.
    await insertPost(orgId, pages.fb.id, { platform: 'facebook', publishedAt: '2026-02-28T18:30:00Z', likes: 5, comments: 1 });
    await insertPost(orgId, pages.fb.id, { platform: 'facebook', publishedAt: '2026-02-28T18:29:59Z', likes: 7 });
    await insertPost(orgId, pages.both.id, { platform: 'instagram', publishedAt: '2026-03-03T18:29:59Z', likes: 40, saves: 3 });
    await insertPost(orgId, pages.both.id, { platform: 'instagram', publishedAt: '2026-03-03T18:30:00Z', likes: 1000 });
    await insertSync(orgId, pages.fb.id, '2026-03-04T01:00:00Z');
    await insertSync(orgId, pages.fb.id, '2026-03-04T05:00:00Z');
    await insertSync(orgId, pages.both.id, '2026-03-04T03:00:00Z');
    await insertSync(orgId, pages.both.id, '2026-03-04T06:00:00Z', 'failed');
  });

  it('applies the documented rules: peak reach, summed flows, last followers, paired engagement, IST post days', async () => {
    const body = await overview(key, 'from=2026-03-01&to=2026-03-03');
    // Worked by hand from the rows above.
    expect(body.data.platforms[0]).toEqual({
      platform: 'facebook',
      totals: {
        reach: 130, // day sums 100, 130, 60
        impressions: 310,
        views: 40,
        profileViews: 3,
        interactions: 23,
        newFollows: 2,
        followers: 1502, // fb's last level 502 (03-03 unreported) + both's 1000
        engagementRate: 10, // 100 × 23 / 230: 03-03 reported reach without interactions, left out
      },
      previousTotals: { reach: 30, impressions: 31, views: null, profileViews: null, interactions: null, newFollows: null, followers: 490, engagementRate: null },
      postTotals: { newPosts: 1, likes: 5, comments: 1, shares: null, saves: null },
      previousPostTotals: { newPosts: 1, likes: 7, comments: null, shares: null, saves: null },
      series: [
        { date: '2026-03-01', reach: 100, impressions: 150, views: 40, interactions: 10, newFollows: 2, followers: 500 },
        { date: '2026-03-02', reach: 130, impressions: 160, views: null, interactions: 13, newFollows: null, followers: 1502 },
        { date: '2026-03-03', reach: 60, impressions: null, views: null, interactions: null, newFollows: null, followers: null },
      ],
      pageCount: 2,
    });
    expect(body.data.platforms[1]).toEqual({
      platform: 'instagram',
      totals: { reach: 200, impressions: null, views: null, profileViews: null, interactions: 119, newFollows: 0, followers: 3010, engagementRate: 10 },
      previousTotals: { reach: null, impressions: null, views: null, profileViews: null, interactions: null, newFollows: null, followers: null, engagementRate: null },
      postTotals: { newPosts: 1, likes: 40, comments: null, shares: null, saves: 3 },
      previousPostTotals: { newPosts: 0, likes: null, comments: null, shares: null, saves: null },
      series: [
        { date: '2026-03-01', reach: 200, impressions: null, views: null, interactions: 20, newFollows: 0, followers: 3000 },
        { date: '2026-03-02', reach: null, impressions: null, views: null, interactions: null, newFollows: null, followers: null },
        { date: '2026-03-03', reach: null, impressions: null, views: null, interactions: 99, newFollows: null, followers: 3010 },
      ],
      pageCount: 1,
    });
    expect(body.data.pages).toEqual([
      { pageId: pages.fb.pageId, name: 'Alpha Page', igUsername: null },
      { pageId: pages.both.pageId, name: 'Beta Page', igUsername: 'beta.ig' },
    ]);
    expect(body.data).toMatchObject({ from: '2026-03-01', to: '2026-03-03', previousFrom: '2026-02-26', previousTo: '2026-02-28' });
    // Latest successes: fb 05:00, both 03:00 (its failed 06:00 run does not count); the oldest wins.
    expect(body.meta).toEqual({ timezone: 'Asia/Kolkata', syncedAt: '2026-03-04T03:00:00.000Z', from: '2026-03-01', to: '2026-03-03', truncated: false });
    expect(body).toEqual(await expectedOverview(await rawPages(orgId), '2026-03-01', '2026-03-03'));
  });

  it('answers an empty range with null figures and zero posts, not an error', async () => {
    const body = await overview(key, 'from=2025-01-01&to=2025-01-02');
    for (const entry of body.data.platforms) {
      expect(Object.values(entry.totals).every((v) => v === null)).toBe(true);
      expect(entry.postTotals).toEqual({ newPosts: 0, likes: null, comments: null, shares: null, saves: null });
      expect(entry.series.map((p) => p.date)).toEqual(['2025-01-01', '2025-01-02']);
    }
    expect(body.data.platforms.map((p) => p.pageCount)).toEqual([2, 1]);
  });

  it('lists both platforms with pageCount 0 for an organisation without pages, syncedAt null', async () => {
    const emptyOrg = await createOrg('overview-empty');
    const body = await overview(await mintKey({ orgId: emptyOrg, scopes: ['social:read'] }), 'from=2026-03-01&to=2026-03-02');
    const nullPoint = { reach: null, impressions: null, views: null, interactions: null, newFollows: null, followers: null };
    const nullTotals = { reach: null, impressions: null, views: null, profileViews: null, interactions: null, newFollows: null, followers: null, engagementRate: null };
    const noPosts = { newPosts: 0, likes: null, comments: null, shares: null, saves: null };
    expect(body).toEqual({
      data: {
        from: '2026-03-01',
        to: '2026-03-02',
        previousFrom: '2026-02-27',
        previousTo: '2026-02-28',
        platforms: PLATFORMS.map((platform) => ({
          platform,
          totals: nullTotals,
          previousTotals: nullTotals,
          postTotals: noPosts,
          previousPostTotals: noPosts,
          series: [{ date: '2026-03-01', ...nullPoint }, { date: '2026-03-02', ...nullPoint }],
          pageCount: 0,
        })),
        pages: [],
      },
      meta: { timezone: 'Asia/Kolkata', syncedAt: null, from: '2026-03-01', to: '2026-03-02', truncated: false },
    });
  });

  it('gives a client-restricted key no pages when its client has none on a platform', async () => {
    const [client] = await sql<{ id: string }>('SELECT id FROM clients WHERE org_id = $1', [orgId]);
    const restricted = await mintKey({ orgId, scopes: ['social:read'], clientIds: [client!.id] });
    const body = await overview(restricted, 'from=2026-03-01&to=2026-03-03');
    expect(body.data.pages.map((p) => p.name)).toEqual(['Alpha Page']);
    expect(body.data.platforms.map((p) => p.pageCount)).toEqual([1, 0]);
    expect(body.data.platforms[1]!.totals.reach).toBeNull();
    expect(body.data.platforms[0]!.totals.reach).toBe(100);
    expect(body.meta.syncedAt).toBe('2026-03-04T05:00:00.000Z');
  });
});

describe('GET /social/overview with more pages than the list cap', () => {
  it('names 500 pages and says truncated, while the figures and pageCount cover all 501', async () => {
    const orgId = await createOrg('overview-cap');
    await sql(
      `INSERT INTO social_pages (id, org_id, page_id, name, ig_user_id, ig_username)
       SELECT gen_random_uuid(), $1, 'cap_' || n, 'Page ' || lpad(n::text, 3, '0'),
              CASE WHEN n % 2 = 0 THEN 'ig_' || n END, CASE WHEN n % 2 = 0 THEN 'cap.ig' || n END
         FROM generate_series(1, 501) AS n`,
      [orgId],
    );
    await sql(
      `INSERT INTO social_daily (social_page_id, platform, date, reach, followers)
       SELECT id, 'facebook', '2026-03-01', 10, 100 FROM social_pages WHERE org_id = $1`,
      [orgId],
    );
    const body = await overview(await mintKey({ orgId, scopes: ['social:read'] }), 'from=2026-03-01&to=2026-03-01');
    const pages = await rawPages(orgId);
    expect(pages).toHaveLength(501);
    expect(body.data.pages).toHaveLength(500);
    expect(body.meta.truncated).toBe(true);
    expect(body.data.platforms.map((p) => p.pageCount)).toEqual([501, 250]);
    expect(body.data.platforms[0]!.totals).toMatchObject({ reach: 5010, followers: 50_100 });
    expect(body).toEqual(await expectedOverview(pages, '2026-03-01', '2026-03-01'));
  });
});
