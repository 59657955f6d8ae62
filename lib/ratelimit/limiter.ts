// What every limiter answers, and the headers that carry the answer on every /api/v1 response.
import { RATE_LIMIT } from '../contract/limits';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time in ms at which the current window ends. */
  resetAt: number;
}

export interface Limiter {
  /** Names the backend in logs, e.g. `upstash` or `in-process`. */
  readonly name: string;
  /** Counts one request of `identifier` in the current window. Throws when the backend cannot answer. */
  limit(identifier: string): Promise<RateLimitDecision>;
  /** The current window of `identifier`, counting nothing in it. Throws when the backend cannot answer. */
  peek(identifier: string): Promise<RateLimitDecision>;
  /** Throws when the backend cannot be reached. */
  ping(): Promise<void>;
}

/**
 * The policy's name in the standard fields. The IETF draft "RateLimit header fields for HTTP"
 * (draft-ietf-httpapi-ratelimit-headers-10) writes both fields as Structured Field lists of items
 * named by a String: `RateLimit-Policy` states the policy (`q` requests per `w` seconds) and stays the
 * same on every answer; `RateLimit` says what is left of it now (`r` requests, `t` seconds until the
 * window resets).
 */
export const RATE_LIMIT_POLICY_NAME = 'default';

export function rateLimitHeaders(decision: RateLimitDecision, now = Date.now()): Record<string, string> {
  const remaining = Math.max(0, decision.remaining);
  // Whole seconds within the window: a window that has just ended reads 0, never a negative number.
  const secondsLeft = Math.min(RATE_LIMIT.windowSeconds, Math.max(0, Math.ceil((decision.resetAt - now) / 1000)));
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetAt / 1000)),
    'RateLimit-Policy': `"${RATE_LIMIT_POLICY_NAME}";q=${decision.limit};w=${RATE_LIMIT.windowSeconds}`,
    RateLimit: `"${RATE_LIMIT_POLICY_NAME}";r=${remaining};t=${secondsLeft}`,
  };
  // Whole seconds, at least 1: a client that waits that long is in the next window.
  if (!decision.allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((decision.resetAt - now) / 1000)));
  return headers;
}
