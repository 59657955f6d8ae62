// The social endpoints' operations (path, scope, query and response schemas, what runs them, their MCP
// tools), read by the REST routes, the MCP server and the OpenAPI document.
import { z } from 'zod';
import { resolveReach } from '../../auth/reach';
import { defineOperation, offsetCut, seriesCut, type Operation } from '../../contract/operation';
import { keepsSeries, toolLimit, type SeriesChoice } from '../../contract/query';
import { LIST_CAP } from '../definitions';
import { SOCIAL_RULES } from './definitions';
import {
  POSTS_DEFAULT_LIMIT,
  POSTS_MAX_LIMIT,
  socialOverviewData,
  socialOverviewQuery,
  socialOverviewToolQuery,
  socialPostsData,
  socialPostsQuery,
  socialThumbnailQuery,
  type SocialOverviewData,
  type SocialPostsData,
} from './schemas';
import { getSocialOverview } from './overview';
import { listSocialPosts } from './posts';
import { getSocialThumbnail, SERVABLE_IMAGE_TYPES, THUMBNAIL_MAX_AGE_SECONDS } from './thumbnail';

/** The overview's series, one per platform, which the MCP door may coarsen and the answer budget may cut. */
const socialSeries = (data: SocialOverviewData) => data.platforms.map((platform) => platform.series);

export const socialOverviewOperation = defineOperation({
  id: 'getSocialOverview',
  cacheable: true,
  path: '/social/overview',
  tag: 'Social',
  summary: 'Organic social totals, previous period, post totals and daily series per platform',
  description: `For each platform (facebook, instagram) over the pages in reach: the range's totals and the previous
period's, the totals of the posts published in each, a daily series and the number of pages.

- ${SOCIAL_RULES.days}
- ${SOCIAL_RULES.platforms}
- Flows (impressions, views, profileViews, interactions, newFollows) are summed over pages and days.
- ${SOCIAL_RULES.reach}
- ${SOCIAL_RULES.followers}
- \`engagementRate\` = 100 × Σ interactions / Σ daily reach over the page-days that reported both, a percentage (3.4 = 3.4 %) like every rate of the API: interactions per 100 people reached per day.
- \`series\` has one point for every bucket of \`granularity\` from \`from\` to \`to\`: \`day\` (default) an IST day, \`week\` an ISO
  week (Monday to Sunday), \`month\` a calendar month, the first and last buckets clipped to the range; a point's \`date\` is its
  bucket's first day in the range. A bucket without data has null figures. A week or a month follows the range rules: flows
  summed, \`reach\` the peak day, \`followers\` each page's last level within it, summed over the pages.
- \`pages\` names the pages in reach by name, at most ${LIST_CAP}; \`meta.truncated\` is true when more exist (the figures
  and \`pageCount\` always cover every page in reach).
- ${SOCIAL_RULES.notReported}
- ${SOCIAL_RULES.freshness}`,
  scope: 'social:read',
  query: socialOverviewQuery,
  data: socialOverviewData,
  run: async (query: z.infer<typeof socialOverviewQuery> & { series?: SeriesChoice }, auth) => {
    const answer = await getSocialOverview(await resolveReach(auth, query.client), query);
    if (keepsSeries(query)) return answer;
    return { ...answer, data: { ...answer.data, platforms: answer.data.platforms.map((platform) => ({ ...platform, series: [] })) } };
  },
  tool: {
    name: 'get_social_overview',
    title: 'Organic social overview',
    lead: 'Organic Facebook and Instagram totals for `from`…`to` and the previous period, post totals, a series per platform, and the pages. Narrow with `client`. Long ranges come by week or month (`meta.granularity`).',
    query: socialOverviewToolQuery,
    series: socialSeries,
    cuts: [seriesCut(socialSeries)],
  },
});

export const socialPostsOperation = defineOperation({
  id: 'listSocialPosts',
  cacheable: true,
  path: '/social/posts',
  tag: 'Social',
  summary: 'Posts published in a range, newest first',
  description: `The posts of the pages in reach published within the range, newest first (posts published at the same
instant by \`id\`, descending), at most \`limit\` (1 to ${POSTS_MAX_LIMIT}, default ${POSTS_DEFAULT_LIMIT}). \`truncated\` (in \`data\`
and \`meta\`) is true when more posts were published in the range: \`offset\` skips that many posts of the same order (the next page
is \`offset\` = the posts already read), or narrow the range or filter by client.

- ${SOCIAL_RULES.days}
- A post's figures are its lifetime figures as of the last sync; each is null when the platform did not report it.
- \`thumbnailHref\` is the path of the post's image on this API (call it with your key), or null when no servable image is stored.
- ${SOCIAL_RULES.freshness}`,
  scope: 'social:read',
  query: socialPostsQuery,
  data: socialPostsData,
  run: async (query, auth) => listSocialPosts(await resolveReach(auth, query.client), query),
  tool: {
    name: 'list_social_posts',
    title: 'List social posts',
    lead: 'Facebook and Instagram posts published in `from`…`to`, newest first, with lifetime likes, comments, shares, saves, views, reach, impressions and engagement rate. Read on with `offset` = `meta.nextOffset`.',
    query: socialPostsQuery.safeExtend({ limit: toolLimit(POSTS_MAX_LIMIT, 'posts', 20) }),
    cuts: [offsetCut('posts', (data: SocialPostsData) => [data.posts])],
  },
});

export const socialThumbnailOperation = defineOperation({
  id: 'getSocialThumbnail',
  path: '/social/thumbnail',
  tag: 'Social',
  summary: 'The stored thumbnail image of a post',
  description: `The image bytes the dashboard stored for a post (\`post\` = the post's \`id\` from /social/posts), with
their own content type and \`X-Content-Type-Options: nosniff\`.

- Caching: \`Cache-Control: private, max-age=${THUMBNAIL_MAX_AGE_SECONDS}\` and \`Vary: Authorization\`. Private because the
  image belongs to one organisation and is answered per key; one hour because social data syncs hourly.
- \`ETag\` is a strong validator (the SHA-256 of the bytes, in quotes). Send it back in \`If-None-Match\` to get
  \`304 Not Modified\` without a body while the image is unchanged (\`*\` and lists of tags are honoured, compared
  weakly as RFC 9110 requires).
- Only ${SERVABLE_IMAGE_TYPES.join(', ')} are served. A post whose stored image has another type (an SVG can carry
  script) is answered as a post without a thumbnail.
- A post that does not exist, belongs to another organisation or is outside the key's reach is 404, all three
  answered identically. A post in reach without a stored (servable) image is also 404, with a detail saying so.
- As on every response, the rate-limit headers are sent (a 304 counts as a request).`,
  scope: 'social:read',
  query: socialThumbnailQuery,
  data: z.never(),
  binary: { contentTypes: [...SERVABLE_IMAGE_TYPES], description: 'The image bytes, in the stored content type.' },
  // REST only: bytes, not a `{ data, meta }` answer.
  run: async (query, auth, request) => getSocialThumbnail(await resolveReach(auth), query.post, request),
});

export const operations: Operation[] = [socialOverviewOperation, socialPostsOperation, socialThumbnailOperation];
