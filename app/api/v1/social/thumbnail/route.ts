import { resolveReach } from '@/lib/auth/reach';
import { defineRoute } from '@/lib/http/route';
import { socialThumbnailOperation } from '@/lib/metrics/social/operations';
import { getSocialThumbnail } from '@/lib/metrics/social/thumbnail';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(socialThumbnailOperation, async ({ query, auth, request }) =>
  getSocialThumbnail(await resolveReach(auth), query.post, request),
);
