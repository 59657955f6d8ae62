import { clientsOperation } from '@/lib/account/operations';
import { restRoute } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const GET = restRoute(clientsOperation);
