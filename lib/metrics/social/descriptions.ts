// The social operations' reference text, keyed by operation id: the OpenAPI summary and description and
// the MCP tool's title and lead, read by operations.ts.
import type { OperationDescription } from '../../contract/operation';
import { LIST_CAP } from '../definitions';
import { SOCIAL_RULES } from './definitions';
import { POSTS_DEFAULT_LIMIT, POSTS_MAX_LIMIT } from './schemas';
import { SERVABLE_IMAGE_TYPES, THUMBNAIL_MAX_AGE_SECONDS } from './thumbnail';

export const SOCIAL_DESCRIPTIONS = {
  getSocialOverview: {
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
    tool: {
      title: 'Organic social overview',
      lead: 'Organic Facebook and Instagram totals for `from`…`to` and the previous period, post totals, a series per platform, and the pages. Narrow with `client`. Long ranges come by week or month (`meta.granularity`).',
    },
  },
  listSocialPosts: {
    summary: 'Posts published in a range, newest first',
    description: `The posts of the pages in reach published within the range, newest first (posts published at the same
instant by \`id\`, descending), at most \`limit\` (1 to ${POSTS_MAX_LIMIT}, default ${POSTS_DEFAULT_LIMIT}). \`truncated\` (in \`data\`
and \`meta\`) is true when more posts were published in the range: \`offset\` skips that many posts of the same order (the next page
is \`offset\` = the posts already read), or narrow the range or filter by client.

- ${SOCIAL_RULES.days}
- A post's figures are its lifetime figures as of the last sync; each is null when the platform did not report it.
- \`thumbnailHref\` is the path of the post's image on this API (call it with your key), or null when no servable image is stored.
- ${SOCIAL_RULES.freshness}`,
    tool: {
      title: 'List social posts',
      lead: 'Facebook and Instagram posts published in `from`…`to`, newest first, with lifetime likes, comments, shares, saves, views, reach, impressions and engagement rate. Read on with `offset` = `meta.nextOffset`.',
    },
  },
  getSocialThumbnail: {
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
    binary: 'The image bytes, in the stored content type.',
  },
} satisfies Record<string, OperationDescription>;
