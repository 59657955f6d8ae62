// The OpenAPI 3.1.0 document, generated from the operations. Needs no key and is not rate-limited
// (the REST door's gate is not on this route). Like every endpoint it refuses parameters it does not know.
import { z } from 'zod';
import { ApiError } from '@/lib/contract/errors';
import { parseQuery } from '@/lib/contract/query';
import { problemResponse } from '@/lib/operations/problems';
import { jsonResponse } from '@/lib/rest/responses';
import { buildOpenApiDocument } from '@/lib/openapi/document';

export const dynamic = 'force-dynamic';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export function GET(request: Request) {
  try {
    parseQuery(new URL(request.url).searchParams, z.object({}));
  } catch (error) {
    if (error instanceof ApiError) return problemResponse(error);
    throw error;
  }
  document ??= buildOpenApiDocument();
  return jsonResponse(document);
}
