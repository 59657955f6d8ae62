import { meOperation } from '@/lib/account/operations';
import { restRoute } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = restRoute(meOperation);
