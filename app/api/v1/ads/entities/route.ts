import { resolveReach } from '@/lib/auth/reach';
import { defineRoute } from '@/lib/http/route';
import { listAdEntities } from '@/lib/metrics/ads/entities';
import { adsEntitiesOperation } from '@/lib/metrics/ads/operations';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(adsEntitiesOperation, async ({ query, auth }) => listAdEntities(await resolveReach(auth, query.client), query));
