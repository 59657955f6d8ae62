// Anything thrown while serving a request, as the contract error either door answers with.
import { ApiError } from '../contract/errors';
import { isUnavailable } from '../http/unavailable';
import { logger } from '../telemetry/logger';

/**
 * The one mapping of anything thrown by the shared step to a contract error, for both doors: REST
 * sends it as problem+json, MCP as an `isError` tool result. Transient database failures are
 * `unavailable`; anything else unexpected is `internal` and discloses nothing but the request id.
 */
export function toApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  if (isUnavailable(error)) {
    logger().error({ requestId }, `[${requestId}] database unavailable: ${(error as Error).message}`);
    return new ApiError('unavailable', 'The service cannot reach its database, or it did not answer in time. Retry after the seconds in Retry-After.', {
      headers: { 'Retry-After': '5' },
    });
  }
  logger().error({ requestId, err: error instanceof Error ? (error.stack ?? error.message) : String(error) }, `[${requestId}] unexpected failure`);
  return new ApiError('internal', `An unexpected error occurred. Quote request id ${requestId} when you report it.`);
}
