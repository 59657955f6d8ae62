// GET /social/posts: membership by IST day of publication, newest first, `limit` and `truncated`,
// null figures, thumbnail links, reach and organisation isolation. Expected lists are computed here
// from the raw rows.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { socialPostsOperation } from '@/lib/metrics/social/operations';
import { api, mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import {
  createClient,
  createOrg,
  createPage,
  expectedSyncedAt,
  insertPost,
  insertSync,
  insertThumbnail,
  PNG_1PX,
  rawPages,
  rawPosts,
  type RawPost,
} from './social-fixtures';

const SERVABLE = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

function expectedPost(post: RawPost) {
  const servable = post.thumbnail_type !== null && SERVABLE.includes(post.thumbnail_type.split(';')[0]!.trim().toLowerCase());
  return {
    id: post.id,
    platform: post.platform,
    postId: post.post_id,
    caption: post.caption,
    mediaType: post.media_type,
    permalink: post.permalink,
    thumbnailHref: servable ? `/api/v1/social/thumbnail?post=${post.id}` : null,
    publishedAt: post.published_at.toISOString(),
    likes: post.likes,
    comments: post.comments,
    shares: post.shares,
    saves: post.saves,
    views: post.views,
    reach: post.reach,
    impressions: post.impressions,
    engagementRate: post.engagement_rate === null ? null : expect.closeTo(post.engagement_rate * 100, 9),
  };
}

/** The posts of `pageIds` published within the range (IST days), newest first, ties by id descending. */
async function expectedPosts(pageIds: string[], from: string, to: string, limit: number) {
  const all = (await rawPosts(pageIds))
    .filter((p) => p.ist_day >= from && p.ist_day <= to)
    .sort((a, b) => b.published_at.getTime() - a.published_at.getTime() || (a.id < b.id ? 1 : -1));
  const truncated = all.length > limit;
  return {
    data: { posts: all.slice(0, limit).map(expectedPost), truncated },
    meta: { timezone: 'Asia/Kolkata', syncedAt: await expectedSyncedAt(pageIds), from, to, truncated },
  };
}

type PostsBody = Awaited<ReturnType<typeof expectedPosts>>;

async function posts(key: string, query: string): Promise<PostsBody> {
  return expectContract<PostsBody>(socialPostsOperation, await api(`/api/v1/social/posts?${query}`, { key }));
}

const seed = inject('seed');
const mainOrg = seed.orgs[0]!;
const otherOrg = seed.orgs[1]!;

describe('GET /social/posts on the seeded organisation', () => {
  let key: string;
  let pageIds: string[];
  let window: { from: string; to: string };

  beforeAll(async () => {
    key = await mintKey({ orgId: mainOrg.id, scopes: ['social:read'] });
    pageIds = (await rawPages(mainOrg.id)).map((p) => p.id);
    // The last 30 IST days that have posts in the seed.
    const [row] = await sql<{ last: string }>(
      `SELECT to_char(max((published_at AT TIME ZONE 'Asia/Kolkata')::date), 'YYYY-MM-DD') AS last FROM social_posts WHERE org_id = $1`,
      [mainOrg.id],
    );
    const to = row!.last;
    window = { from: new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10), to };
  });

  it('lists the posts of the range newest first, at most 100 by default', async () => {
    const body = await posts(key, `from=${window.from}&to=${window.to}`);
    const expected = await expectedPosts(pageIds, window.from, window.to, 100);
    expect(expected.data.posts.length).toBeGreaterThan(0);
    expect(body).toEqual(expected);
  });

  it('cuts the list at `limit` and says so in data and meta', async () => {
    const body = await posts(key, `from=${window.from}&to=${window.to}&limit=3`);
    const expected = await expectedPosts(pageIds, window.from, window.to, 3);
    expect(expected.data.truncated).toBe(true);
    expect(body).toEqual(expected);
    expect(body.data.posts).toHaveLength(3);
  });

  it('narrows to a client, and a restricted key never sees the pages assigned to no client', async () => {
    const [row] = await sql<{ client_id: string }>(
      'SELECT client_id FROM social_pages WHERE org_id = $1 AND client_id IS NOT NULL ORDER BY client_id LIMIT 1',
      [mainOrg.id],
    );
    const clientPages = (await rawPages(mainOrg.id, [row!.client_id])).map((p) => p.id);
    const expected = await expectedPosts(clientPages, window.from, window.to, 500);
    expect(await posts(key, `client=${row!.client_id}&from=${window.from}&to=${window.to}&limit=500`)).toEqual(expected);
    const restricted = await mintKey({ orgId: mainOrg.id, scopes: ['social:read'], clientIds: [row!.client_id] });
    expect(await posts(restricted, `from=${window.from}&to=${window.to}&limit=500`)).toEqual(expected);
  });

  it('never lists the other organisation’s posts', async () => {
    const otherKey = await mintKey({ orgId: otherOrg.id, scopes: ['social:read'] });
    const body = await posts(otherKey, `from=${window.from}&to=${window.to}&limit=500`);
    const mainPostIds = new Set((await rawPosts(pageIds)).map((p) => p.id));
    expect(body.data.posts.some((p) => mainPostIds.has(p.id))).toBe(false);
    expect(body).toEqual(await expectedPosts((await rawPages(otherOrg.id)).map((p) => p.id), window.from, window.to, 500));
    const [foreignClient] = await sql<{ id: string }>('SELECT id FROM clients WHERE org_id = $1 LIMIT 1', [otherOrg.id]);
    await expectProblem(await api(`/api/v1/social/posts?client=${foreignClient!.id}&from=${window.from}&to=${window.to}`, { key }), 404, 'not_found');
  });

  it.each(['abc', '1.5', '0', '501'])('refuses limit=%s with 400 naming the parameter', async (limit) => {
    const problem = await expectProblem(await api(`/api/v1/social/posts?from=2026-06-01&to=2026-06-30&limit=${limit}`, { key }), 400, 'validation_failed');
    // The wording of each message is asserted in tests/unit/social-query.test.ts.
    expect(problem.errors).toEqual([{ path: 'limit', message: expect.any(String) }]);
  });

  it('refuses a repeated limit and an unknown parameter, listing both', async () => {
    const problem = await expectProblem(await api('/api/v1/social/posts?from=2026-06-01&to=2026-06-30&limit=1&limit=2&page=2', { key }), 400, 'validation_failed');
    expect(problem.errors!.map((e) => e.path).sort()).toEqual(['limit', 'page']);
  });

  it('needs social:read (403) and a key (401)', async () => {
    const webOnly = await mintKey({ orgId: mainOrg.id, scopes: ['web:read'] });
    await expectProblem(await api('/api/v1/social/posts?from=2026-06-01&to=2026-06-30', { key: webOnly }), 403, 'forbidden');
    await expectProblem(await api('/api/v1/social/posts?from=2026-06-01&to=2026-06-30'), 401, 'unauthorized');
  });
});

describe('GET /social/posts on hand-built posts', () => {
  let orgId: string;
  let key: string;
  let pageId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    orgId = await createOrg('posts');
    const client = await createClient(orgId, 'Posts client');
    const page = await createPage(orgId, { name: 'Posts Page', clientId: client, igUsername: 'posts.ig' });
    pageId = page.id;
    key = await mintKey({ orgId, scopes: ['social:read'] });
    // 2026-05-01 00:00 IST = 2026-04-30T18:30Z; 2026-05-02 00:00 IST = 2026-05-01T18:30Z.
    ids.before = await insertPost(orgId, pageId, { platform: 'facebook', publishedAt: '2026-04-30T18:29:59.999Z', likes: 1 });
    ids.first = await insertPost(orgId, pageId, { platform: 'facebook', publishedAt: '2026-04-30T18:30:00Z', caption: 'first of the day', likes: 0, comments: 0 });
    ids.nulls = await insertPost(orgId, pageId, { platform: 'instagram', publishedAt: '2026-05-01T06:00:00Z' });
    ids.last = await insertPost(orgId, pageId, { platform: 'instagram', publishedAt: '2026-05-01T18:29:59.999Z', likes: 9, saves: 2, engagement_rate: 4.25 });
    ids.after = await insertPost(orgId, pageId, { platform: 'instagram', publishedAt: '2026-05-01T18:30:00Z', likes: 3 });
    await insertThumbnail(ids.first, 'image/png', PNG_1PX);
    await insertThumbnail(ids.last, 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    await insertSync(orgId, pageId, '2026-05-02T00:00:00Z');
  });

  it('takes the posts of the IST day, newest first, with null for every figure not reported', async () => {
    const body = await posts(key, 'from=2026-05-01&to=2026-05-01');
    expect(body.data.posts.map((p) => p.id)).toEqual([ids.last, ids.nulls, ids.first]);
    expect(body.data.posts[1]).toMatchObject({
      platform: 'instagram',
      caption: null,
      thumbnailHref: null,
      likes: null,
      comments: null,
      shares: null,
      saves: null,
      views: null,
      reach: null,
      impressions: null,
      engagementRate: null,
    });
    // Zero is reported as zero, not null.
    expect(body.data.posts[2]).toMatchObject({ likes: 0, comments: 0, shares: null, publishedAt: '2026-04-30T18:30:00.000Z' });
    expect(body.data.posts[0]).toMatchObject({ likes: 9, saves: 2, engagementRate: 425 });
    expect(body).toEqual(await expectedPosts([pageId], '2026-05-01', '2026-05-01', 100));
    expect(body.meta).toEqual({ timezone: 'Asia/Kolkata', syncedAt: '2026-05-02T00:00:00.000Z', from: '2026-05-01', to: '2026-05-01', truncated: false });
  });

  it('links only thumbnails the thumbnail endpoint serves (a PNG yes, a stored SVG no)', async () => {
    const body = await posts(key, 'from=2026-05-01&to=2026-05-01');
    const href = Object.fromEntries(body.data.posts.map((p) => [p.id, p.thumbnailHref]));
    expect(href[ids.first!]).toBe(`/api/v1/social/thumbnail?post=${ids.first}`);
    expect(href[ids.last!]).toBeNull();
  });

  it('answers a range without posts with an empty list', async () => {
    expect(await posts(key, 'from=2026-01-01&to=2026-01-31')).toEqual({
      data: { posts: [], truncated: false },
      meta: { timezone: 'Asia/Kolkata', syncedAt: '2026-05-02T00:00:00.000Z', from: '2026-01-01', to: '2026-01-31', truncated: false },
    });
  });

  it('answers an organisation without pages with an empty list and syncedAt null', async () => {
    const emptyOrg = await createOrg('posts-empty');
    expect(await posts(await mintKey({ orgId: emptyOrg, scopes: ['social:read'] }), 'from=2026-05-01&to=2026-05-01')).toEqual({
      data: { posts: [], truncated: false },
      meta: { timezone: 'Asia/Kolkata', syncedAt: null, from: '2026-05-01', to: '2026-05-01', truncated: false },
    });
  });
});

describe('GET /social/posts at the 500 cap', () => {
  let orgId: string;
  let key: string;
  let pageId: string;

  beforeAll(async () => {
    orgId = await createOrg('posts-cap');
    pageId = (await createPage(orgId, { name: 'Busy Page' })).id;
    key = await mintKey({ orgId, scopes: ['social:read'] });
    // 501 posts on 2026-02-01 (IST), one a minute from 00:00 IST; two share the last minute to test ties.
    await sql(
      `INSERT INTO social_posts (id, org_id, social_page_id, platform, post_id, published_at, likes)
       SELECT gen_random_uuid(), $1, $2, 'facebook', 'bulk_' || n,
              timestamp '2026-02-01 00:00' AT TIME ZONE 'Asia/Kolkata' + least(n, 499) * interval '1 minute', n
         FROM generate_series(0, 500) AS n`,
      [orgId, pageId],
    );
  });

  it('returns 500 and truncated when 501 posts exist', async () => {
    const body = await posts(key, 'from=2026-02-01&to=2026-02-01&limit=500');
    expect(body.data.posts).toHaveLength(500);
    expect(body.data.truncated).toBe(true);
    expect(body.meta.truncated).toBe(true);
    expect(body).toEqual(await expectedPosts([pageId], '2026-02-01', '2026-02-01', 500));
    const times = body.data.posts.map((p) => Date.parse(p.publishedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('is not truncated when the range holds exactly `limit` posts', async () => {
    await sql(`DELETE FROM social_posts WHERE org_id = $1 AND post_id = 'bulk_0'`, [orgId]);
    const body = await posts(key, 'from=2026-02-01&to=2026-02-01&limit=500');
    expect(body.data.posts).toHaveLength(500);
    expect(body.data.truncated).toBe(false);
    expect(body.meta.truncated).toBe(false);
    expect(body).toEqual(await expectedPosts([pageId], '2026-02-01', '2026-02-01', 500));
  });
});
