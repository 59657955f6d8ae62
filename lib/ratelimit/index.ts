// The rate limiter of the process: Upstash when configured, else in-process; and while Upstash
// cannot be reached, the in-process limiter answers so that requests are still served.
import { fallbackSwitch } from './fallback';
import { rateLimitIdentity } from './identity';
import { rateLimitHeaders, type Limiter, type RateLimitDecision } from './limiter';
import { memoryLimiter } from './memory';
import { RATE_LIMITS, type RateLimitWindow } from '../contract/limits';
import { upstashLimiter } from './upstash';
import { logger } from '../telemetry/logger';
import { metrics } from '../telemetry/metrics';
import { processWide } from '../process-wide';

export { RATE_LIMIT_HEADER_NAMES, rateLimitHeaders, retryAfterSeconds, type Limiter, type RateLimitDecision } from './limiter';

type Log = (message: string) => void;

/**
 * Uses `primary` and falls back to `fallback` while it throws (see fallbackSwitch). `prefix` starts its
 * log lines: each window switches on its own, and only the data window's lines read `[ratelimit]`.
 */
export function withFallback(primary: Limiter, fallback: Limiter, log: Log = (message) => logger().warn(message), now: () => number = Date.now, prefix = '[ratelimit]'): Limiter {
  const stores = fallbackSwitch(primary, fallback, { prefix, counted: 'limits' }, log, now);
  return {
    get name() {
      return stores.name;
    },
    limit: (identifier: string): Promise<RateLimitDecision> => stores.run((limiter) => limiter.limit(identifier)),
    peek: (identifier: string): Promise<RateLimitDecision> => stores.run((limiter) => limiter.peek(identifier)),
    async ping() {
      await primary.ping();
      stores.answered();
    },
  };
}

/** `limiter`, each of its decisions counted in rate_limit_requests_total (peeks count nothing). */
function counted(window: RateLimitWindow, limiter: Limiter): Limiter {
  const { rateLimitRequests } = metrics();
  return {
    get name() {
      return limiter.name;
    },
    async limit(identifier) {
      const decision = await limiter.limit(identifier);
      rateLimitRequests.inc({ window, result: decision.allowed ? 'allowed' : 'refused' });
      return decision;
    },
    peek: (identifier) => limiter.peek(identifier),
    ping: () => limiter.ping(),
  };
}

/** Both windows of the process, from one configuration (logged once), their decisions counted. */
function createLimiters(log: Log): Record<RateLimitWindow, Limiter> {
  const limiters = configuredLimiters(log);
  return { data: counted('data', limiters.data), protocol: counted('protocol', limiters.protocol) };
}

function configuredLimiters(log: Log): Record<RateLimitWindow, Limiter> {
  const url = process.env.UPSTASH_REDIS_REST_URL;
  const token = process.env.UPSTASH_REDIS_REST_TOKEN;
  const inProcess = (window: RateLimitWindow) => memoryLimiter(RATE_LIMITS[window].limit, RATE_LIMITS[window].windowSeconds * 1000);
  if (!url || !token) {
    log('[ratelimit] UPSTASH_REDIS_REST_URL/TOKEN not set: rate limits are counted in-process (one server process only).');
    return { data: inProcess('data'), protocol: inProcess('protocol') };
  }
  const prefix = process.env.RATE_LIMIT_PREFIX ?? 'metrics-api:ratelimit';
  log(`[ratelimit] counting rate limits in Upstash Redis at ${new URL(url).host}.`);
  // The data window keeps the prefix it always had; the protocol window counts under its own.
  return {
    data: withFallback(upstashLimiter({ url, token, prefix, ...RATE_LIMITS.data }), inProcess('data'), log),
    protocol: withFallback(upstashLimiter({ url, token, prefix: `${prefix}:protocol`, ...RATE_LIMITS.protocol }), inProcess('protocol'), log, Date.now, '[ratelimit protocol]'),
  };
}

// One pair of windows per process, shared by every bundle that imports this module.
const limiters = processWide('rate-limiters', () => createLimiters((message) => logger().info(message)));

/** The limiter of `window`: `data` (REST requests, MCP tool calls) unless said otherwise. */
export function rateLimiter(window: RateLimitWindow = 'data'): Limiter {
  return limiters()[window];
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
