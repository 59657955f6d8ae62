// What every limiter answers, and the headers that carry the answer on every /api/v1 response.
import { RATE_LIMITS, type RateLimitWindow } from '../contract/limits';

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
 * Each window's policy name in the standard fields. The IETF draft "RateLimit header fields for HTTP"
 * (draft-ietf-httpapi-ratelimit-headers-10) writes both fields as Structured Field lists of items
 * named by a String: `RateLimit-Policy` states the policy (`q` requests per `w` seconds) and stays the
 * same on every answer counted in that window; `RateLimit` says what is left of it now (`r` requests,
 * `t` seconds until the window resets). The MCP protocol messages count in a policy of their own, so a
 * client never sees one name with two quotas.
 */
export const RATE_LIMIT_POLICY_NAMES: Record<RateLimitWindow, string> = { data: 'default', protocol: 'protocol' };

/** The headers rateLimitHeaders may set: what a browser client is let read of a cross-origin answer (Access-Control-Expose-Headers). */
export const RATE_LIMIT_HEADER_NAMES = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit', 'Retry-After'] as const;

export function rateLimitHeaders(decision: RateLimitDecision, window: RateLimitWindow = 'data', now = Date.now()): Record<string, string> {
  const remaining = Math.max(0, decision.remaining);
  const { windowSeconds } = RATE_LIMITS[window];
  const policy = RATE_LIMIT_POLICY_NAMES[window];
  // Whole seconds within the window: a window that has just ended reads 0, never a negative number.
  const secondsLeft = Math.min(windowSeconds, Math.max(0, Math.ceil((decision.resetAt - now) / 1000)));
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetAt / 1000)),
    'RateLimit-Policy': `"${policy}";q=${decision.limit};w=${windowSeconds}`,
    RateLimit: `"${policy}";r=${remaining};t=${secondsLeft}`,
  };
  if (!decision.allowed) headers['Retry-After'] = String(retryAfterSeconds(decision, now));
  return headers;
}

/** A refusal's `Retry-After`: whole seconds, at least 1, so that a client that waits that long is in the next window. */
export function retryAfterSeconds(decision: RateLimitDecision, now = Date.now()): number {
  return Math.max(1, Math.ceil((decision.resetAt - now) / 1000));
}
