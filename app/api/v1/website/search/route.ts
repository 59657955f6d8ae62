import { resolveReach } from '@/lib/auth/reach';
import { defineRoute } from '@/lib/http/route';
import { websiteSearchOperation } from '@/lib/metrics/website/operations';
import { getWebsiteSearch } from '@/lib/metrics/website/search';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(websiteSearchOperation, async ({ query, auth }) =>
  getWebsiteSearch(await resolveReach(auth, query.client), query),
);
