// Scalar's renderer of the API reference page (lib/openapi/reference-renderer.ts).
import { referenceRendererResponse } from '@/lib/openapi/reference-renderer';

export const dynamic = 'force-dynamic';

export const GET = referenceRendererResponse;
