import { resolveReach } from '@/lib/auth/reach';
import { defineRoute } from '@/lib/http/route';
import { websiteOverviewOperation } from '@/lib/metrics/website/operations';
import { getWebsiteOverview } from '@/lib/metrics/website/overview';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(websiteOverviewOperation, async ({ query, auth }) =>
  getWebsiteOverview(await resolveReach(auth, query.client), query),
);
