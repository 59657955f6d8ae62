// The social endpoints' operations (path, scope, query and response schemas, what runs them, their MCP
// tools), read by the REST routes, the MCP server and the OpenAPI document. Their reference text is in
// descriptions.ts.
import { z } from 'zod';
import { resolveReach } from '../../reach/reach';
import { defineOperation, offsetCut, seriesCut, type Operation } from '../../contract/operation';
import { keepsSeries, toolLimit, type SeriesChoice } from '../../contract/query';
import { SOCIAL_DESCRIPTIONS } from './descriptions';
import {
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
import { getSocialThumbnail, SERVABLE_IMAGE_TYPES } from './thumbnail';

/** The overview's series, one per platform, which the MCP door may coarsen and the answer budget may cut. */
const socialSeries = (data: SocialOverviewData) => data.platforms.map((platform) => platform.series);

export const socialOverviewOperation = defineOperation({
  id: 'getSocialOverview',
  cacheable: true,
  path: '/social/overview',
  tag: 'Social',
  summary: SOCIAL_DESCRIPTIONS.getSocialOverview.summary,
  description: SOCIAL_DESCRIPTIONS.getSocialOverview.description,
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
    ...SOCIAL_DESCRIPTIONS.getSocialOverview.tool,
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
  summary: SOCIAL_DESCRIPTIONS.listSocialPosts.summary,
  description: SOCIAL_DESCRIPTIONS.listSocialPosts.description,
  scope: 'social:read',
  query: socialPostsQuery,
  data: socialPostsData,
  run: async (query, auth) => listSocialPosts(await resolveReach(auth, query.client), query),
  tool: {
    name: 'list_social_posts',
    ...SOCIAL_DESCRIPTIONS.listSocialPosts.tool,
    query: socialPostsQuery.safeExtend({ limit: toolLimit(POSTS_MAX_LIMIT, 'posts', 20) }),
    cuts: [offsetCut('posts', (data: SocialPostsData) => [data.posts])],
  },
});

export const socialThumbnailOperation = defineOperation({
  id: 'getSocialThumbnail',
  path: '/social/thumbnail',
  tag: 'Social',
  summary: SOCIAL_DESCRIPTIONS.getSocialThumbnail.summary,
  description: SOCIAL_DESCRIPTIONS.getSocialThumbnail.description,
  scope: 'social:read',
  query: socialThumbnailQuery,
  data: z.never(),
  binary: { contentTypes: [...SERVABLE_IMAGE_TYPES], description: SOCIAL_DESCRIPTIONS.getSocialThumbnail.binary },
  // REST only: bytes, not a `{ data, meta }` answer.
  run: async (query, auth, request) => getSocialThumbnail(await resolveReach(auth), query.post, request),
});

export const operations: Operation[] = [socialOverviewOperation, socialPostsOperation, socialThumbnailOperation];
