import { resolveReach } from '@/lib/auth/reach';
import { defineRoute } from '@/lib/http/route';
import { storeOverviewOperation } from '@/lib/metrics/store/operations';
import { getStoreOverview } from '@/lib/metrics/store/overview';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(storeOverviewOperation, async ({ query, auth }) =>
  getStoreOverview(await resolveReach(auth, query.client), query),
);
