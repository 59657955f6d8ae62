// What every limiter answers, and the headers that carry the answer on every /api/v1 response.
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

export function rateLimitHeaders(decision: RateLimitDecision, now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(Math.max(0, decision.remaining)),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetAt / 1000)),
  };
  // Whole seconds, at least 1: a client that waits that long is in the next window.
  if (!decision.allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((decision.resetAt - now) / 1000)));
  return headers;
}
