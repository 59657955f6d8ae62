import { resolveReach } from '@/lib/auth/reach';
import { defineRoute } from '@/lib/http/route';
import { socialPostsOperation } from '@/lib/metrics/social/operations';
import { listSocialPosts } from '@/lib/metrics/social/posts';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(socialPostsOperation, async ({ query, auth }) =>
  listSocialPosts(await resolveReach(auth, query.client), query),
);
