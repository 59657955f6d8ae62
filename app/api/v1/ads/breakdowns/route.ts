import { resolveReach } from '@/lib/auth/reach';
import { defineRoute } from '@/lib/http/route';
import { getAdBreakdowns } from '@/lib/metrics/ads/breakdowns';
import { adsBreakdownsOperation } from '@/lib/metrics/ads/operations';

export const dynamic = 'force-dynamic';

// No `client` parameter: the entity is looked up within everything the credential can read.
export const GET = defineRoute(adsBreakdownsOperation, async ({ query, auth }) => getAdBreakdowns(await resolveReach(auth), query));
