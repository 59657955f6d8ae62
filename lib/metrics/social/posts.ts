// /social/posts: the posts published within the range, newest first, at most `limit`.
import type { Reach } from '../../reach/reach';
import { envelope, type Envelope } from '../../contract/envelope';
import type { IsoDay } from '../../time/days';
import { lastSuccessfulSyncs, oldestSync } from '../freshness';
import { num, ratio } from '../ratios';
import { findPagesInReach, postsPublished, type PostRow } from './repository';
import type { SocialPost, SocialPostsData } from './schemas';
import { isServableImageType, thumbnailPath } from './thumbnail';

export function toSocialPost(row: PostRow): SocialPost {
  return {
    id: row.id,
    platform: row.platform,
    postId: row.post_id,
    caption: row.caption,
    mediaType: row.media_type,
    permalink: row.permalink,
    // Only images the thumbnail endpoint will actually serve get a link: no link that answers 404.
    thumbnailHref: row.thumbnail_content_type !== null && isServableImageType(row.thumbnail_content_type) ? thumbnailPath(row.id) : null,
    publishedAt: row.published_at.toISOString(),
    likes: num(row.likes),
    comments: num(row.comments),
    shares: num(row.shares),
    saves: num(row.saves),
    views: num(row.views),
    reach: num(row.reach),
    impressions: num(row.impressions),
    // Stored as a fraction; every rate of the API is a percentage.
    engagementRate: ratio(row.engagement_rate, 1, 100),
  };
}

export async function listSocialPosts(
  reach: Reach,
  query: { from: IsoDay; to: IsoDay; limit: number; offset?: number },
): Promise<Envelope<SocialPostsData>> {
  const pages = await findPagesInReach(reach);
  const pageIds = pages.map((page) => page.id);
  // One row more than asked tells whether the list was cut.
  const [rows, syncs] = await Promise.all([
    postsPublished(reach.orgId, pageIds, query.from, query.to, { limit: query.limit + 1, offset: query.offset ?? 0 }),
    lastSuccessfulSyncs(pageIds),
  ]);
  const truncated = rows.length > query.limit;
  const posts = rows.slice(0, query.limit).map(toSocialPost);
  return envelope({ posts, truncated }, { syncedAt: oldestSync(syncs, pageIds), from: query.from, to: query.to, truncated });
}
