// SQL over the synced organic-social tables. Reach is applied once, to the pages (`findPagesInReach`);
// every other query reads only the page ids that query returned, plus the organisation for posts.
// Numeric aggregates come back from pg as strings or null; callers convert them with `num()`.
import { reachCondition, type Reach } from '../../reach/reach';
import { readSql as sql } from '../../db';
import { TIMEZONE } from '../../contract/envelope';
import type { DayRange } from '../../time/day-range';
import type { IsoDay } from '../../time/days';
import type { SocialPlatform } from './definitions';

type Numeric = string | null;

export interface PageRow {
  id: string;
  page_id: string;
  name: string;
  ig_username: string | null;
  instagram_linked: boolean;
}

export async function findPagesInReach(reach: Reach): Promise<PageRow[]> {
  return sql<PageRow>(
    `SELECT p.id, p.page_id, p.name, p.ig_username,
            (p.ig_user_id IS NOT NULL OR p.ig_username IS NOT NULL) AS instagram_linked
       FROM social_pages p
      WHERE ${reachCondition('p', 1, 2)}
      ORDER BY p.name, p.page_id`,
    [reach.orgId, reach.clientIds],
  );
}

/**
 * Posts belong to the range by the IST calendar day of publication. Written as bounds on
 * `published_at` (IST midnight of `from` to IST midnight after `to`) so that the (…, published_at)
 * indexes serve it; equivalent to `(published_at AT TIME ZONE 'Asia/Kolkata')::date BETWEEN from AND to`.
 */
function publishedWithin(fromParam: number, toParam: number): string {
  return `po.published_at >= ($${fromParam}::date::timestamp AT TIME ZONE '${TIMEZONE}')
      AND po.published_at < (($${toParam}::date + 1)::timestamp AT TIME ZONE '${TIMEZONE}')`;
}

const PUBLICATION_DAY = `(po.published_at AT TIME ZONE '${TIMEZONE}')::date`;

/** One platform's figures for one IST day, summed over the pages (a sum over no reported value is null). */
export interface DailyAggregateRow {
  platform: SocialPlatform;
  date: IsoDay;
  reach: Numeric;
  impressions: Numeric;
  views: Numeric;
  profile_views: Numeric;
  interactions: Numeric;
  new_follows: Numeric;
  followers: Numeric;
  /** Interactions and reach of the pages that reported both that day: the engagement-rate pair. */
  paired_interactions: Numeric;
  paired_reach: Numeric;
}

export async function dailyAggregates(pageIds: string[], from: IsoDay, to: IsoDay): Promise<DailyAggregateRow[]> {
  if (pageIds.length === 0) return [];
  return sql<DailyAggregateRow>(
    `SELECT d.platform, to_char(d.date, 'YYYY-MM-DD') AS date,
            SUM(d.reach) AS reach, SUM(d.impressions) AS impressions, SUM(d.views) AS views,
            SUM(d.profile_views) AS profile_views, SUM(d.interactions) AS interactions,
            SUM(d.new_follows) AS new_follows, SUM(d.followers) AS followers,
            SUM(d.interactions) FILTER (WHERE d.reach IS NOT NULL) AS paired_interactions,
            SUM(d.reach) FILTER (WHERE d.interactions IS NOT NULL) AS paired_reach
       FROM social_daily d
      WHERE d.social_page_id = ANY($1::uuid[]) AND d.date BETWEEN $2::date AND $3::date
      GROUP BY d.platform, d.date`,
    [pageIds, from, to],
  );
}

/** The requested range and the previous period, which ends the day before it starts. */
export interface PeriodBounds {
  current: DayRange;
  previous: DayRange;
}

export interface FollowerLevelRow {
  platform: SocialPlatform;
  /** The name of the period, as given. */
  period: string;
  followers: string;
}

/**
 * Per platform and period (named, e.g. `current`, `previous`, or a series bucket's first day): each
 * page's last follower level reported within the period, summed over the pages. One backward index
 * probe per page, platform and period (the primary key is page, platform, date), rather than sorting
 * every daily row of the periods.
 */
export async function lastFollowerLevels(pageIds: string[], periods: { name: string; from: IsoDay; to: IsoDay }[]): Promise<FollowerLevelRow[]> {
  if (pageIds.length === 0 || periods.length === 0) return [];
  return sql<FollowerLevelRow>(
    `SELECT platform.value AS platform, period.name AS period, SUM(last_level.followers) AS followers
       FROM unnest($1::uuid[]) AS page(id)
      CROSS JOIN unnest(enum_range(NULL::"SocialPlatform")) AS platform(value)
      CROSS JOIN unnest($2::text[], $3::date[], $4::date[]) AS period(name, first_day, last_day)
      CROSS JOIN LATERAL (
        SELECT d.followers FROM social_daily d
         WHERE d.social_page_id = page.id AND d.platform = platform.value
           AND d.date BETWEEN period.first_day AND period.last_day AND d.followers IS NOT NULL
         ORDER BY d.date DESC
         LIMIT 1
      ) last_level
      GROUP BY 1, 2`,
    [pageIds, periods.map((period) => period.name), periods.map((period) => period.from), periods.map((period) => period.to)],
  );
}

export interface PostTotalsRow {
  platform: SocialPlatform;
  period: keyof PeriodBounds;
  new_posts: string;
  likes: Numeric;
  comments: Numeric;
  shares: Numeric;
  saves: Numeric;
}

/** Per platform and period, the posts published in it (one scan over both adjacent periods). */
export async function postTotals(orgId: string, pageIds: string[], periods: PeriodBounds): Promise<PostTotalsRow[]> {
  if (pageIds.length === 0) return [];
  return sql<PostTotalsRow>(
    `SELECT po.platform,
            CASE WHEN ${PUBLICATION_DAY} >= $4::date THEN 'current' ELSE 'previous' END AS period,
            COUNT(*) AS new_posts, SUM(po.likes) AS likes, SUM(po.comments) AS comments,
            SUM(po.shares) AS shares, SUM(po.saves) AS saves
       FROM social_posts po
      WHERE po.org_id = $1 AND po.social_page_id = ANY($2::uuid[]) AND ${publishedWithin(3, 5)}
      GROUP BY 1, 2`,
    [orgId, pageIds, periods.previous.from, periods.current.from, periods.current.to],
  );
}

export interface PostRow {
  id: string;
  platform: SocialPlatform;
  post_id: string;
  caption: string | null;
  media_type: string | null;
  permalink: string | null;
  published_at: Date;
  likes: Numeric;
  comments: Numeric;
  shares: Numeric;
  saves: Numeric;
  views: Numeric;
  reach: Numeric;
  impressions: Numeric;
  engagement_rate: number | null;
  thumbnail_content_type: string | null;
}

/** Posts published within the range, newest first; equal instants by id, so the order is stable. */
export async function postsPublished(orgId: string, pageIds: string[], from: IsoDay, to: IsoDay, page: { limit: number; offset: number }): Promise<PostRow[]> {
  if (pageIds.length === 0) return [];
  return sql<PostRow>(
    `SELECT po.id, po.platform, po.post_id, po.caption, po.media_type, po.permalink, po.published_at,
            po.likes, po.comments, po.shares, po.saves, po.views, po.reach, po.impressions,
            po.engagement_rate, t.content_type AS thumbnail_content_type
       FROM social_posts po
       LEFT JOIN social_post_thumbnails t ON t.post_id = po.id
      WHERE po.org_id = $1 AND po.social_page_id = ANY($2::uuid[]) AND ${publishedWithin(3, 4)}
      ORDER BY po.published_at DESC, po.id DESC
      LIMIT $5 OFFSET $6`,
    [orgId, pageIds, from, to, page.limit, page.offset],
  );
}

export interface ThumbnailLookupRow {
  /** null when the post exists in reach but has no stored image. */
  content_type: string | null;
  sha256: string | null;
  bytes: Buffer | null;
}

/** The post's stored image, or undefined when the post is absent or outside the reach (one query either way). */
export async function findThumbnail(reach: Reach, postId: string): Promise<ThumbnailLookupRow | undefined> {
  const [row] = await sql<ThumbnailLookupRow>(
    `SELECT t.content_type, t.sha256, t.bytes
       FROM social_posts po
       JOIN social_pages p ON p.id = po.social_page_id
       LEFT JOIN social_post_thumbnails t ON t.post_id = po.id
      WHERE po.id = $3 AND po.org_id = $1 AND ${reachCondition('p', 1, 2)}`,
    [reach.orgId, reach.clientIds, postId],
  );
  return row;
}
