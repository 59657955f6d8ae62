// Organic social: Facebook Pages (some linked to an Instagram account), their daily metrics and posts.
//
// Days are IST days. `followers` is the level at the end of the day and grows slowly; it is null on
// the odd day the platform did not report it. The platform retired and introduced metrics at a cut-over
// day (60% into the range): before it, `views` is null on both platforms; from it on, Instagram's
// `impressions` is null. Facebook never reports `profile_views`; posts never report `saves` on
// Facebook. About one post in twenty has no insights at all (reach, impressions, views, shares, saves
// and engagement_rate null). engagement_rate = (likes + comments + shares + saves) / reach.
// Most media posts have a stored thumbnail: JPEG for Instagram, PNG or JPEG for Facebook;
// `thumbnail_href` is the platform's CDN address the bytes were fetched from.
import { createHash } from 'node:crypto';
import type { Calendar } from './calendar';
import { CAPTION_TAILS } from './catalog';
import type { Row, SourceTables } from './copy';
import { clientOf, type OrgModel, type SeedContext } from './context';
import { jpeg, png, type Rgb } from './images';
import { splitInt } from './numbers';
import type { Rng } from './random';

type Platform = 'facebook' | 'instagram';

interface Thumbnail {
  contentType: 'image/png' | 'image/jpeg';
  colours: [Rgb, Rgb];
  fetchedAt: string;
}

export interface PostModel {
  id: string;
  platform: Platform;
  postId: string;
  caption: string | null;
  mediaType: string;
  permalink: string;
  thumbnailHref: string | null;
  publishedAt: string;
  likes: number;
  comments: number;
  shares: number | null;
  saves: number | null;
  views: number | null;
  reach: number | null;
  impressions: number | null;
  engagementRate: number | null;
  thumbnail: Thumbnail | null;
}

export interface PageModel {
  id: string;
  org: OrgModel;
  clientId: string;
  pageId: string;
  name: string;
  igUserId: string | null;
  igUsername: string | null;
  createdAt: string;
  /** Follower levels at the start of the range, per platform. */
  baseFollowers: Record<Platform, number>;
  posts: PostModel[];
}

const FACEBOOK_MEDIA: readonly [string, number][] = [['IMAGE', 0.45], ['CAROUSEL_ALBUM', 0.25], ['VIDEO', 0.2], ['STATUS', 0.1]];
const INSTAGRAM_MEDIA: readonly [string, number][] = [['IMAGE', 0.35], ['CAROUSEL_ALBUM', 0.3], ['REELS', 0.3], ['VIDEO', 0.05]];
const SHORTCODE_ALPHABET = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'];

function weighted(rng: Rng, options: readonly [string, number][]): string {
  let r = rng.next();
  for (const [value, weight] of options) {
    if ((r -= weight) < 0) return value;
  }
  return options[options.length - 1]?.[0] ?? '';
}

/** The day the platform's metric definitions changed (see the header). */
export function metricsCutover(cal: Calendar): number {
  return Math.floor(cal.days * 0.6);
}

function colour(rng: Rng): Rgb {
  return [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)];
}

function buildPost(ctx: SeedContext, page: PageModel, platform: Platform, rng: Rng, captions: readonly string[]): PostModel {
  const cal = ctx.calendar;
  const day = rng.int(0, cal.last);
  const publishedAt = cal.istTime(day, rng.float(8, 22));
  const mediaType = weighted(rng, platform === 'facebook' ? FACEBOOK_MEDIA : INSTAGRAM_MEDIA);
  const isMotion = mediaType === 'VIDEO' || mediaType === 'REELS';
  const afterCutover = day >= metricsCutover(cal);

  let postId: string;
  let permalink: string;
  if (platform === 'facebook') {
    const local = rng.digits(16);
    postId = `${page.pageId}_${local}`;
    permalink = `https://www.facebook.com/${page.pageId}/posts/${local}`;
  } else {
    postId = `18${rng.digits(15)}`;
    const shortcode = Array.from({ length: 11 }, () => rng.pick(SHORTCODE_ALPHABET)).join('');
    permalink = `https://www.instagram.com/${mediaType === 'REELS' ? 'reel' : 'p'}/${shortcode}/`;
  }

  const followers = page.baseFollowers[platform] * (1 + (0.3 * day) / cal.days);
  const reachRaw = Math.round(followers * rng.float(0.05, 0.35) * (mediaType === 'REELS' ? 2 : isMotion ? 1.3 : 1));
  const likes = Math.round(reachRaw * rng.float(0.02, 0.08));
  const comments = Math.round(likes * rng.float(0.03, 0.1));
  const insights = !rng.chance(0.05);
  const reach = insights ? reachRaw : null;
  const shares = insights ? Math.round(likes * (platform === 'facebook' ? rng.float(0.05, 0.2) : rng.float(0.02, 0.1))) : null;
  const saves = insights && platform === 'instagram' ? Math.round(likes * rng.float(0.05, 0.15)) : null;
  const impressions = insights && !(platform === 'instagram' && afterCutover) ? Math.round(reachRaw * rng.float(1.2, 1.6)) : null;
  const hasViews = isMotion || (platform === 'instagram' && afterCutover);
  const views = insights && hasViews ? Math.round(reachRaw * rng.float(1.2, 2)) : null;
  const engagementRate = reach ? Math.round(((likes + comments + (shares ?? 0) + (saves ?? 0)) / reach) * 10_000) / 10_000 : null;

  const hasMedia = mediaType !== 'STATUS';
  const cdnPath = platform === 'facebook' ? 't39.30808-6' : 't51.29350-15';
  const thumbnailHref = hasMedia ? `https://scontent.example.net/v/${cdnPath}/${rng.digits(11)}_n.jpg` : null;
  const thumbnail: Thumbnail | null =
    hasMedia && rng.chance(0.9)
      ? {
          contentType: platform === 'facebook' && rng.chance(0.5) ? 'image/png' : 'image/jpeg',
          colours: [colour(rng), colour(rng)],
          fetchedAt: new Date(Date.parse(publishedAt) + Math.round(rng.float(0.05, 2) * 3_600_000)).toISOString(),
        }
      : null;

  const text = `${rng.pick(captions)}${rng.chance(0.3) ? '\n\n' : ' '}${rng.pick(CAPTION_TAILS)}`;
  return {
    id: page.org.ids.uuid('social_post'),
    platform,
    postId,
    caption: platform === 'instagram' && rng.chance(0.05) ? null : text,
    mediaType,
    permalink,
    thumbnailHref,
    publishedAt,
    likes,
    comments,
    shares,
    saves,
    views,
    reach,
    impressions,
    engagementRate,
    thumbnail,
  };
}

export function buildPages(ctx: SeedContext, org: OrgModel): PageModel[] {
  const rng = org.rng.fork('social');
  const cal = ctx.calendar;
  const usernames = new Set<string>();
  const pages: PageModel[] = [];
  for (let i = 0; i < org.shape.pages; i++) {
    const prng = rng.fork(`page/${i}`);
    const client = clientOf(org, i);
    const second = i >= org.clients.length;
    const hasInstagram = i % 3 !== 1;
    let username = `${client.slug.replace(/-/g, '')}${second ? '.community' : ''}`;
    while (usernames.has(username)) username += '_';
    usernames.add(username);
    pages.push({
      id: org.ids.uuid('social_page'),
      org,
      clientId: client.id,
      pageId: org.ids.platformId('page', 15),
      name: second ? `${client.name} Community` : client.name,
      igUserId: hasInstagram ? org.ids.platformId('ig_user', 13, '1784') : null,
      igUsername: hasInstagram ? username : null,
      createdAt: cal.istTime(-prng.int(5, 30), prng.float(9, 19)),
      baseFollowers: { facebook: prng.int(2_000, 80_000), instagram: prng.int(1_500, 120_000) },
      posts: [],
    });
  }

  const perPage = splitInt(org.shape.posts, pages.map(() => rng.float(0.6, 1.4)));
  pages.forEach((page, i) => {
    const prng = rng.fork(`posts/${i}`);
    const captions = clientOf(org, i).category.captions;
    for (let n = 0; n < (perPage[i] ?? 0); n++) {
      const platform: Platform = page.igUserId && prng.chance(0.55) ? 'instagram' : 'facebook';
      page.posts.push(buildPost(ctx, page, platform, prng, captions));
    }
  });
  return pages;
}

function* dailyRows(cal: Calendar, page: PageModel, platform: Platform, rng: Rng): Generator<Row> {
  const cutover = metricsCutover(cal);
  let followers = page.baseFollowers[platform];
  const growth = rng.float(0.0006, 0.002);
  const reachRate = rng.float(0.04, 0.25);
  const interactionRate = rng.float(0.01, 0.05);
  // Instagram audiences are busier at weekends; Facebook Pages a little less so.
  const weekly = platform === 'instagram' ? [1.15, 0.95, 0.93, 0.95, 0.97, 1.0, 1.1] : [1.05, 0.98, 0.98, 1.0, 1.0, 0.99, 1.0];
  for (let d = 0; d < cal.days; d++) {
    const newFollows = Math.round(followers * growth * rng.noise(0.3));
    followers += newFollows - Math.round(newFollows * rng.float(0.2, 0.5));
    const reach = Math.round(followers * reachRate * (weekly[cal.weekday(d)] ?? 1) * rng.noise(0.2));
    const impressions = Math.round(reach * rng.float(1.3, 1.9));
    yield [
      page.id,
      platform,
      cal.date(d),
      reach,
      platform === 'instagram' && d >= cutover ? null : impressions,
      d >= cutover ? Math.round(impressions * 1.15 * rng.noise(0.05)) : null,
      platform === 'instagram' ? Math.round(reach * rng.float(0.02, 0.05)) : null,
      Math.round(reach * interactionRate * rng.noise(0.25)),
      newFollows,
      rng.chance(0.015) ? null : followers,
    ];
  }
}

function thumbnailBytes(thumbnail: Thumbnail): Buffer {
  const [from, to] = thumbnail.colours;
  return thumbnail.contentType === 'image/png'
    ? png(48, 48, from, to)
    : jpeg(4, 4, (c, r) => {
        const t = (c + r) / 6;
        const mix = (i: 0 | 1 | 2) => Math.round(from[i] * (1 - t) + to[i] * t);
        return [mix(0), mix(1), mix(2)];
      });
}

export function socialTables(ctx: SeedContext, pages: readonly PageModel[]): SourceTables {
  const cal = ctx.calendar;
  const posts = pages.flatMap((page) => page.posts.map((post) => ({ page, post })));
  const platformsOf = (page: PageModel): Platform[] => (page.igUserId ? ['facebook', 'instagram'] : ['facebook']);
  return {
    entities: [
      {
        table: 'social_pages',
        columns: ['id', 'org_id', 'client_id', 'page_id', 'name', 'ig_user_id', 'ig_username', 'created_at'],
        expectedRows: pages.length,
        rows: () => pages.map((p) => [p.id, p.org.id, p.clientId, p.pageId, p.name, p.igUserId, p.igUsername, p.createdAt]),
      },
    ],
    facts: [
      {
        table: 'social_daily',
        columns: ['social_page_id', 'platform', 'date', 'reach', 'impressions', 'views', 'profile_views', 'interactions', 'new_follows', 'followers'],
        expectedRows: pages.reduce((n, p) => n + platformsOf(p).length * cal.days, 0),
        rows: function* () {
          for (const page of pages) {
            for (const platform of platformsOf(page)) yield* dailyRows(cal, page, platform, page.org.rng.fork(`social-daily/${page.id}/${platform}`));
          }
        },
      },
      {
        table: 'social_posts',
        columns: ['id', 'org_id', 'social_page_id', 'platform', 'post_id', 'caption', 'media_type', 'permalink', 'thumbnail_href', 'published_at', 'likes', 'comments', 'shares', 'saves', 'views', 'reach', 'impressions', 'engagement_rate'],
        expectedRows: posts.length,
        rows: () =>
          posts.map(({ page, post: p }) => [
            p.id, page.org.id, page.id, p.platform, p.postId, p.caption, p.mediaType, p.permalink, p.thumbnailHref, p.publishedAt,
            p.likes, p.comments, p.shares, p.saves, p.views, p.reach, p.impressions, p.engagementRate,
          ]),
      },
      {
        table: 'social_post_thumbnails',
        columns: ['post_id', 'content_type', 'bytes', 'sha256', 'fetched_at'],
        expectedRows: posts.filter(({ post }) => post.thumbnail).length,
        rows: function* () {
          for (const { post } of posts) {
            if (!post.thumbnail) continue;
            const bytes = thumbnailBytes(post.thumbnail);
            yield [post.id, post.thumbnail.contentType, bytes, createHash('sha256').update(bytes).digest('hex'), post.thumbnail.fetchedAt];
          }
        },
      },
    ],
  };
}
