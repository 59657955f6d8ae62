// Builders for organic-social test data, each in an organisation of its own so that parallel test
// files never see each other's rows, and readers of the raw rows that tests compute expectations from.
import { createHash, randomUUID } from 'node:crypto';
import { sql } from '@/lib/db';
import type { SocialPlatform } from '@/lib/metrics/social/definitions';

export async function createOrg(label: string): Promise<string> {
  const id = randomUUID();
  await sql('INSERT INTO organizations (id, slug, name) VALUES ($1, $2, $3)', [id, `social-${label}-${id.slice(0, 8)}`, `Social ${label}`]);
  return id;
}

export async function createClient(orgId: string, name: string): Promise<string> {
  const id = randomUUID();
  await sql('INSERT INTO clients (id, org_id, name) VALUES ($1, $2, $3)', [id, orgId, name]);
  return id;
}

export interface PageFixture {
  id: string;
  pageId: string;
  name: string;
  igUsername: string | null;
}

export async function createPage(
  orgId: string,
  options: { name: string; clientId?: string | null; igUsername?: string | null },
): Promise<PageFixture> {
  const id = randomUUID();
  const pageId = String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999));
  const igUsername = options.igUsername ?? null;
  await sql(
    `INSERT INTO social_pages (id, org_id, client_id, page_id, name, ig_user_id, ig_username)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, orgId, options.clientId ?? null, pageId, options.name, igUsername ? `17841${pageId}` : null, igUsername],
  );
  return { id, pageId, name: options.name, igUsername };
}

export type DailyFigures = Partial<
  Record<'reach' | 'impressions' | 'views' | 'profile_views' | 'interactions' | 'new_follows' | 'followers', number | null>
>;

export async function insertDaily(pageId: string, platform: SocialPlatform, date: string, figures: DailyFigures): Promise<void> {
  await sql(
    `INSERT INTO social_daily (social_page_id, platform, date, reach, impressions, views, profile_views, interactions, new_follows, followers)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      pageId,
      platform,
      date,
      figures.reach ?? null,
      figures.impressions ?? null,
      figures.views ?? null,
      figures.profile_views ?? null,
      figures.interactions ?? null,
      figures.new_follows ?? null,
      figures.followers ?? null,
    ],
  );
}

export type PostFigures = Partial<
  Record<'likes' | 'comments' | 'shares' | 'saves' | 'views' | 'reach' | 'impressions' | 'engagement_rate', number | null>
>;

export async function insertPost(
  orgId: string,
  pageId: string,
  options: { platform: SocialPlatform; publishedAt: string; caption?: string | null } & PostFigures,
): Promise<string> {
  const id = randomUUID();
  await sql(
    `INSERT INTO social_posts (id, org_id, social_page_id, platform, post_id, caption, media_type, permalink, thumbnail_href,
                               published_at, likes, comments, shares, saves, views, reach, impressions, engagement_rate)
     VALUES ($1, $2, $3, $4, $5, $6, 'IMAGE', $7, NULL, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      id,
      orgId,
      pageId,
      options.platform,
      `post_${id}`,
      options.caption ?? null,
      `https://example.test/p/${id}`,
      options.publishedAt,
      options.likes ?? null,
      options.comments ?? null,
      options.shares ?? null,
      options.saves ?? null,
      options.views ?? null,
      options.reach ?? null,
      options.impressions ?? null,
      options.engagement_rate ?? null,
    ],
  );
  return id;
}

export async function insertThumbnail(postId: string, contentType: string, bytes: Buffer): Promise<string> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await sql(
    'INSERT INTO social_post_thumbnails (post_id, content_type, bytes, sha256, fetched_at) VALUES ($1, $2, $3, $4, now())',
    [postId, contentType, bytes, sha256],
  );
  return sha256;
}

export async function insertSync(orgId: string, pageId: string, finishedAt: string, status: 'succeeded' | 'failed' = 'succeeded'): Promise<void> {
  await sql(
    `INSERT INTO sync_runs (id, org_id, source, resource_id, status, started_at, finished_at)
     VALUES ($1, $2, 'social', $3, $4, $5::timestamptz - interval '2 minutes', $5)`,
    [randomUUID(), orgId, pageId, status, finishedAt],
  );
}

/** A tiny valid PNG (1×1, one red pixel). */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

// ── raw rows, read independently of the code under test ──

export interface RawPage {
  id: string;
  page_id: string;
  name: string;
  ig_user_id: string | null;
  ig_username: string | null;
  client_id: string | null;
}

/** Pages of an organisation by name, optionally only those assigned to one of some clients. */
export async function rawPages(orgId: string, clientIds: string[] | null = null): Promise<RawPage[]> {
  const rows = await sql<RawPage>(
    'SELECT id, page_id, name, ig_user_id, ig_username, client_id FROM social_pages WHERE org_id = $1 ORDER BY name, page_id',
    [orgId],
  );
  return rows.filter((page) => clientIds === null || (page.client_id !== null && clientIds.includes(page.client_id)));
}

export interface RawDaily {
  social_page_id: string;
  platform: SocialPlatform;
  date: string;
  reach: number | null;
  impressions: number | null;
  views: number | null;
  profile_views: number | null;
  interactions: number | null;
  new_follows: number | null;
  followers: number | null;
}

export async function rawDaily(pageIds: string[], from: string, to: string): Promise<RawDaily[]> {
  const rows = await sql<Record<string, string | null>>(
    `SELECT social_page_id, platform::text, to_char(date, 'YYYY-MM-DD') AS date, reach::text, impressions::text, views::text,
            profile_views::text, interactions::text, new_follows::text, followers::text
       FROM social_daily WHERE social_page_id = ANY($1::uuid[]) AND date BETWEEN $2 AND $3`,
    [pageIds, from, to],
  );
  const n = (v: string | null) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    social_page_id: r.social_page_id!,
    platform: r.platform as SocialPlatform,
    date: r.date!,
    reach: n(r.reach!),
    impressions: n(r.impressions!),
    views: n(r.views!),
    profile_views: n(r.profile_views!),
    interactions: n(r.interactions!),
    new_follows: n(r.new_follows!),
    followers: n(r.followers!),
  }));
}

export interface RawPost {
  id: string;
  platform: SocialPlatform;
  post_id: string;
  caption: string | null;
  media_type: string | null;
  permalink: string | null;
  published_at: Date;
  ist_day: string;
  likes: number | null;
  comments: number | null;
  shares: number | null;
  saves: number | null;
  views: number | null;
  reach: number | null;
  impressions: number | null;
  engagement_rate: number | null;
  thumbnail_type: string | null;
}

/** Every post of the pages with its IST day of publication, as the spec defines membership. */
export async function rawPosts(pageIds: string[]): Promise<RawPost[]> {
  const rows = await sql<Record<string, unknown>>(
    `SELECT po.id, po.platform::text, po.post_id, po.caption, po.media_type, po.permalink, po.published_at,
            to_char((po.published_at AT TIME ZONE 'Asia/Kolkata')::date, 'YYYY-MM-DD') AS ist_day,
            po.likes::text, po.comments::text, po.shares::text, po.saves::text, po.views::text, po.reach::text,
            po.impressions::text, po.engagement_rate, t.content_type AS thumbnail_type
       FROM social_posts po LEFT JOIN social_post_thumbnails t ON t.post_id = po.id
      WHERE po.social_page_id = ANY($1::uuid[])`,
    [pageIds],
  );
  const n = (v: unknown) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    id: r.id as string,
    platform: r.platform as SocialPlatform,
    post_id: r.post_id as string,
    caption: r.caption as string | null,
    media_type: r.media_type as string | null,
    permalink: r.permalink as string | null,
    published_at: r.published_at as Date,
    ist_day: r.ist_day as string,
    likes: n(r.likes),
    comments: n(r.comments),
    shares: n(r.shares),
    saves: n(r.saves),
    views: n(r.views),
    reach: n(r.reach),
    impressions: n(r.impressions),
    engagement_rate: r.engagement_rate as number | null,
    thumbnail_type: r.thumbnail_type as string | null,
  }));
}

/** Latest succeeded social sync per page; the oldest of them, as an ISO string, or null. */
export async function expectedSyncedAt(pageIds: string[]): Promise<string | null> {
  const [row] = await sql<{ oldest: Date | null }>(
    `SELECT min(latest) AS oldest FROM (
       SELECT max(finished_at) AS latest FROM sync_runs
        WHERE resource_id = ANY($1::uuid[]) AND status = 'succeeded' AND finished_at IS NOT NULL
        GROUP BY resource_id) per_page`,
    [pageIds],
  );
  return row?.oldest ? row.oldest.toISOString() : null;
}
