// The one registry of error codes: status and title for each, used by responses, the errors page
// and the OpenAPI document alike.
import { PROTOCOL_RATE_LIMIT, RATE_LIMIT, RATE_LIMITS, type RateLimitWindow } from './limits';

export const ERROR_CODES = {
  validation_failed: {
    status: 400,
    title: 'Validation failed',
    explanation: 'The query string is not valid. `errors[]` lists every problem, each with the parameter (`path`) and what is wrong (`message`).',
  },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    explanation:
      'The API key is missing, malformed, unknown, revoked or expired (a rotated key stops when its overlap ends), or it was sent somewhere other than the `Authorization: Bearer` header. What to do: send the key as `Authorization: Bearer <key>`; if it was rotated, use the key that replaced it; if it was revoked or lost, ask an organisation admin for a new one, made in Settings → API keys (`/settings/api-keys`).',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    explanation: 'The key is valid but lacks the scope this endpoint needs. The detail names the missing scope.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    explanation: 'The client, entity or post does not exist in your organisation or is outside the reach of this key. The two cases are answered identically.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    explanation: `More than ${RATE_LIMIT.limit} requests in the current ${RATE_LIMIT.windowSeconds}-second window for this key (or, without a valid key, for this address; MCP protocol messages that read no data count apart, ${PROTOCOL_RATE_LIMIT.limit} in ${PROTOCOL_RATE_LIMIT.windowSeconds} s), or more requests at once for this key than it may have in progress. Wait for the seconds in \`Retry-After\`.`,
  },
  unavailable: {
    status: 503,
    title: 'Service unavailable',
    explanation: 'A transient failure, such as the database being unreachable, a query running over its time limit, or the server being at its limit of requests in progress. Retry after the seconds in `Retry-After`.',
  },
  internal: {
    status: 500,
    title: 'Internal error',
    explanation: 'An unexpected failure. Nothing about it is disclosed; quote the `X-Request-Id` header when you report it.',
  },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as ErrorCode[];

export interface FieldError {
  path: string;
  message: string;
}

/** An error that is part of the contract: it becomes a problem+json response with its code's status. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: { errors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

/**
 * The 401 of every key that does not work, whatever the reason: the answer never tells a valid key that
 * was revoked or rotated from one that never existed, so it names every case and the way out of each.
 */
export const INVALID_KEY_DETAIL =
  'The API key is not valid: it is unknown, revoked or expired, or it was rotated and its overlap has ended. If this key was rotated or revoked, use the key that replaced it or ask an organisation admin for a new one: admins make keys in Settings → API keys (/settings/api-keys).';

/**
 * The 429 of the rate limit (not of the concurrency caps), for both doors; `who` names whose window is
 * full, `retryAfter` is the seconds its `Retry-After` header says.
 */
export function rateLimited(who: string, retryAfter: number, window: RateLimitWindow = 'data'): ApiError {
  const { limit, windowSeconds } = RATE_LIMITS[window];
  const what = window === 'protocol' ? 'MCP protocol messages' : 'requests';
  return new ApiError('rate_limited', `More than ${limit} ${what} in ${windowSeconds} s for ${who}. Retry in ${retryAfter} s (Retry-After).`);
}

/** The one answer for anything outside a credential's reach, identical to "does not exist". */
export function notFound(what: 'client' | 'entity' | 'post'): ApiError {
  return new ApiError('not_found', `No ${what} with this id exists in your organisation's data that this credential can read.`);
}
