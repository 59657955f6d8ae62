import { socialPostsOperation } from '@/lib/metrics/social/operations';
import { restRoute } from '@/lib/rest/route';

export const dynamic = 'force-dynamic';

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = restRoute(socialPostsOperation);
