import { resolveReach } from '@/lib/auth/reach';
import { defineRoute } from '@/lib/http/route';
import { adsOverviewOperation } from '@/lib/metrics/ads/operations';
import { getAdsOverview } from '@/lib/metrics/ads/overview';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(adsOverviewOperation, async ({ query, auth }) => getAdsOverview(await resolveReach(auth, query.client), query));
