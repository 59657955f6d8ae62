// The rate limiter of the process: Upstash when configured, else in-process; and while Upstash
// cannot be reached, the in-process limiter answers so that requests are still served.
import type { Limiter, RateLimitDecision } from './limiter';
import { memoryLimiter } from './memory';
import { RATE_LIMIT } from './policy';
import { upstashLimiter } from './upstash';

export { rateLimitHeaders, type Limiter, type RateLimitDecision } from './limiter';

/** After a failure, how long the fallback answers before Redis is tried again. */
const RETRY_PRIMARY_AFTER_MS = 10_000;

type Log = (message: string) => void;

/**
 * Uses `primary` and falls back to `fallback` when it throws. The switch is logged once each way
 * (not per request); while the primary is down it is retried every 10 s, not on every request.
 */
export function withFallback(primary: Limiter, fallback: Limiter, log: Log = console.warn, now: () => number = Date.now): Limiter {
  let downSince: number | null = null;
  let retryAt = 0;
  return {
    get name() {
      return downSince === null ? primary.name : `${fallback.name} (${primary.name} unreachable)`;
    },
    async limit(identifier: string): Promise<RateLimitDecision> {
      if (downSince !== null && now() < retryAt) return fallback.limit(identifier);
      try {
        const decision = await primary.limit(identifier);
        if (downSince !== null) {
          downSince = null;
          log(`[ratelimit] ${primary.name} reachable again; limits are counted there again.`);
        }
        return decision;
      } catch (error) {
        if (downSince === null) {
          downSince = now();
          log(`[ratelimit] ${primary.name} unreachable (${(error as Error).message}); counting limits in-process until it answers again.`);
        }
        retryAt = now() + RETRY_PRIMARY_AFTER_MS;
        return fallback.limit(identifier);
      }
    },
    ping: () => primary.ping(),
  };
}

function createLimiter(log: Log): Limiter {
  const url = process.env.UPSTASH_REDIS_REST_URL;
  const token = process.env.UPSTASH_REDIS_REST_TOKEN;
  const windowMs = RATE_LIMIT.windowSeconds * 1000;
  if (!url || !token) {
    log('[ratelimit] UPSTASH_REDIS_REST_URL/TOKEN not set: rate limits are counted in-process (one server process only).');
    return memoryLimiter(RATE_LIMIT.limit, windowMs);
  }
  const prefix = process.env.RATE_LIMIT_PREFIX ?? 'metrics-api:ratelimit';
  log(`[ratelimit] counting rate limits in Upstash Redis at ${new URL(url).host}.`);
  return withFallback(upstashLimiter({ url, token, prefix, ...RATE_LIMIT }), memoryLimiter(RATE_LIMIT.limit, windowMs), log);
}

// One limiter per process, shared by every bundle that imports this module.
const globalForLimiter = globalThis as unknown as { metricsRateLimiter?: Limiter };

export function rateLimiter(): Limiter {
  globalForLimiter.metricsRateLimiter ??= createLimiter(console.info);
  return globalForLimiter.metricsRateLimiter;
}
