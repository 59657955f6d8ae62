// The rate limiter of the process: Upstash when configured, else in-process; and while Upstash
// cannot be reached, the in-process limiter answers so that requests are still served.
import { fallbackSwitch } from './fallback';
import { rateLimitIdentity } from './identity';
import { rateLimitHeaders, type Limiter, type RateLimitDecision } from './limiter';
import { memoryLimiter } from './memory';
import { RATE_LIMIT } from '../contract/limits';
import { upstashLimiter } from './upstash';

export { rateLimitHeaders, type Limiter, type RateLimitDecision } from './limiter';

type Log = (message: string) => void;

/** Uses `primary` and falls back to `fallback` while it throws (see fallbackSwitch). */
export function withFallback(primary: Limiter, fallback: Limiter, log: Log = console.warn, now: () => number = Date.now): Limiter {
  const stores = fallbackSwitch(primary, fallback, { prefix: '[ratelimit]', counted: 'limits' }, log, now);
  return {
    get name() {
      return stores.name;
    },
    limit: (identifier: string): Promise<RateLimitDecision> => stores.run((limiter) => limiter.limit(identifier)),
    peek: (identifier: string): Promise<RateLimitDecision> => stores.run((limiter) => limiter.peek(identifier)),
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

/**
 * The rate-limit headers of a request whose credential could not be checked because the database is
 * unreachable: those of the window it would count in without a valid credential, with nothing counted.
 * Counting it there would fill its address's window (without a trusted address, the one window every
 * request without a key shares) with requests that carry valid keys, and an outage would turn into 429s.
 */
export async function uncountedHeaders(headers: Headers): Promise<Record<string, string>> {
  return rateLimitHeaders(await rateLimiter().peek(rateLimitIdentity(null, headers)));
}
