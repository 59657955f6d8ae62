// Query and response schemas of the organic-social endpoints. Responses are strict objects: a field
// the spec does not name fails the contract tests instead of reaching callers.
import { z } from 'zod';
import { boundedCount, checkDateRange, clientParam, dateRange, granularityParam, offsetParam, toolGranularity, toolSeries, whenDatesAreReal } from '../../contract/query';
import { LIST_CAP } from '../definitions';
import { describePlatformMetric, describePostMetric, SOCIAL_PLATFORMS } from './definitions';

export const POSTS_DEFAULT_LIMIT = 100;
export const POSTS_MAX_LIMIT = LIST_CAP;

const socialOverviewFields = { client: clientParam, ...dateRange, granularity: granularityParam };

export const socialOverviewQuery = z.object(socialOverviewFields).superRefine(checkDateRange, whenDatesAreReal);

/**
 * The get_social_overview tool's arguments: the REST query's, with `granularity` left for the MCP door to
 * choose when absent (a refined object cannot have a field replaced, so it is built from the same fields).
 */
export const socialOverviewToolQuery = z
  .object({ ...socialOverviewFields, granularity: toolGranularity(), series: toolSeries() })
  .superRefine(checkDateRange, whenDatesAreReal);

export const socialPostsQuery = z
  .object({
    client: clientParam,
    ...dateRange,
    limit: boundedCount(POSTS_MAX_LIMIT, POSTS_DEFAULT_LIMIT).describe(`Most posts to return, 1 to ${POSTS_MAX_LIMIT}; default ${POSTS_DEFAULT_LIMIT}.`),
    offset: offsetParam('posts'),
  })
  .superRefine(checkDateRange, whenDatesAreReal);

export const socialThumbnailQuery = z.object({
  post: z.uuid('must be a post id (a UUID) from /social/posts').describe('The post\'s `id` from /social/posts.'),
});

const platformFigure = (name: Parameters<typeof describePlatformMetric>[0]) => z.number().nullable().describe(describePlatformMetric(name));
const postFigure = (name: Parameters<typeof describePostMetric>[0]) => z.number().nullable().describe(describePostMetric(name));
const day = z.iso.date().describe('An IST calendar day (YYYY-MM-DD).');

export const platformSchema = z.enum(SOCIAL_PLATFORMS);

export const platformTotalsSchema = z.strictObject({
  reach: platformFigure('reach'),
  impressions: platformFigure('impressions'),
  views: platformFigure('views'),
  profileViews: platformFigure('profileViews'),
  interactions: platformFigure('interactions'),
  newFollows: platformFigure('newFollows'),
  followers: platformFigure('followers'),
  engagementRate: platformFigure('engagementRate'),
}).meta({ id: 'SocialPlatformTotals' });

export const postTotalsSchema = z.strictObject({
  newPosts: z.number().int().nonnegative().describe(describePostMetric('newPosts')),
  likes: postFigure('likes'),
  comments: postFigure('comments'),
  shares: postFigure('shares'),
  saves: postFigure('saves'),
}).meta({ id: 'SocialPostTotals' });

export const dailyPointSchema = z.strictObject({
  date: day,
  reach: platformFigure('reach'),
  impressions: platformFigure('impressions'),
  views: platformFigure('views'),
  interactions: platformFigure('interactions'),
  newFollows: platformFigure('newFollows'),
  followers: platformFigure('followers'),
}).meta({ id: 'SocialDailyPoint' });

export const socialPageSchema = z.strictObject({
  pageId: z.string().describe('The Facebook Page id.'),
  name: z.string(),
  igUsername: z.string().nullable().describe('The linked Instagram account, or null when the page has none.'),
}).meta({ id: 'SocialPage' });

export const platformOverviewSchema = z.strictObject({
  platform: platformSchema,
  totals: platformTotalsSchema.describe('The range `from`–`to`.'),
  previousTotals: platformTotalsSchema.describe('The previous period `previousFrom`–`previousTo`, by the same rules.'),
  postTotals: postTotalsSchema.describe('Posts published within `from`–`to`.'),
  previousPostTotals: postTotalsSchema.describe('Posts published within `previousFrom`–`previousTo`.'),
  series: z
    .array(dailyPointSchema)
    .describe(
      'One point per bucket of `granularity` (IST day, ISO week, calendar month; the first and last clipped to the range) from `from` to `to`, every bucket present; `date` is the bucket\'s first day in the range. A bucket without data has null figures.',
    ),
  pageCount: z
    .number()
    .int()
    .nonnegative()
    .describe('Pages in reach on this platform: every page for facebook, the pages with a linked Instagram account for instagram. 0 means none (the figures are then null).'),
});

export const socialOverviewData = z.strictObject({
  from: day,
  to: day,
  previousFrom: day.describe('First day of the previous period: the period of the same length ending the day before `from`.'),
  previousTo: day.describe('Last day of the previous period (the day before `from`).'),
  platforms: z.array(platformOverviewSchema).describe('Always two entries, facebook then instagram, even when no page in reach is on a platform.'),
  pages: z
    .array(socialPageSchema)
    .describe(`The pages in reach, by name; at most ${LIST_CAP} (\`meta.truncated\` says when more exist; the figures and \`pageCount\` still cover them all).`),
});

export const socialPostSchema = z.strictObject({
  id: z.uuid().describe('The post\'s id in this service: pass it as `post` to /social/thumbnail.'),
  platform: platformSchema,
  postId: z.string().describe('The platform\'s own post id.'),
  caption: z.string().nullable(),
  mediaType: z.string().nullable().describe('As the platform names it (e.g. IMAGE, VIDEO, CAROUSEL_ALBUM).'),
  permalink: z.string().nullable().describe('The post on the platform.'),
  thumbnailHref: z
    .string()
    .nullable()
    .describe(
      "Path of the post's stored image on this API (`/api/v1/social/thumbnail?post=<id>`; resolve it against the API's origin and call it with your key), or null when no servable image is stored. Never the platform's CDN address: those expire, and a link that sometimes leaves this API would invite sending the key elsewhere.",
    ),
  publishedAt: z.iso.datetime().describe('When the post was published (UTC).'),
  likes: postFigure('likes'),
  comments: postFigure('comments'),
  shares: postFigure('shares'),
  saves: postFigure('saves'),
  views: postFigure('views'),
  reach: postFigure('reach'),
  impressions: postFigure('impressions'),
  engagementRate: postFigure('engagementRate'),
}).meta({ id: 'SocialPost' });

export const socialPostsData = z.strictObject({
  posts: z.array(socialPostSchema).describe('Newest first; posts published at the same instant by `id`, descending.'),
  truncated: z.boolean().describe('true when more posts were published in the range than `limit`.'),
});

export type PlatformTotals = z.infer<typeof platformTotalsSchema>;
export type PostTotals = z.infer<typeof postTotalsSchema>;
export type DailyPoint = z.infer<typeof dailyPointSchema>;
export type PlatformOverview = z.infer<typeof platformOverviewSchema>;
export type SocialOverviewData = z.infer<typeof socialOverviewData>;
export type SocialPost = z.infer<typeof socialPostSchema>;
export type SocialPostsData = z.infer<typeof socialPostsData>;
