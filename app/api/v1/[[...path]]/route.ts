import { unknownEndpointRoute } from '@/lib/rest/route';

export const dynamic = 'force-dynamic';

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = unknownEndpointRoute();
