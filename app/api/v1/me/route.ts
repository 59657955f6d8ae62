import { describeKey } from '@/lib/account/me';
import { meOperation } from '@/lib/account/operations';
import { defineRoute } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(meOperation, async ({ auth }) => describeKey(auth));
