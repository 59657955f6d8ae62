import { resolveReach } from '@/lib/auth/reach';
import { defineRoute } from '@/lib/http/route';
import { socialOverviewOperation } from '@/lib/metrics/social/operations';
import { getSocialOverview } from '@/lib/metrics/social/overview';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(socialOverviewOperation, async ({ query, auth }) =>
  getSocialOverview(await resolveReach(auth, query.client), query),
);
