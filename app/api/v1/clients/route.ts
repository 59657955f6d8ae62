import { listClients } from '@/lib/account/clients';
import { clientsOperation } from '@/lib/account/operations';
import { defineRoute } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(clientsOperation, async ({ auth }) => listClients(auth));
