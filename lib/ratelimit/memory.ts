// The in-process limiter: the zero-setup default and the fallback while Redis is unreachable. Same
// semantics as @upstash/ratelimit's fixed window (windows aligned to multiples of the window length),
// exact within one process because Node runs this synchronously.
import type { Limiter, RateLimitDecision } from './limiter';

export function memoryLimiter(limit: number, windowMs: number, now: () => number = Date.now): Limiter {
  const counts = new Map<string, { bucket: number; count: number }>();

  function forgetOldWindows(current: number): void {
    for (const [identifier, entry] of counts) if (entry.bucket < current) counts.delete(identifier);
  }

  /** The window `identifier` counts in now, with the requests counted in it so far. */
  function current(identifier: string): { bucket: number; count: number } {
    const bucket = Math.floor(now() / windowMs);
    const entry = counts.get(identifier);
    return { bucket, count: entry && entry.bucket === bucket ? entry.count : 0 };
  }

  return {
    name: 'in-process',
    async limit(identifier: string): Promise<RateLimitDecision> {
      const { bucket, count } = current(identifier);
      // Bounded memory: entries of past windows are dropped when the map grows.
      if (counts.size > 10_000) forgetOldWindows(bucket);
      counts.set(identifier, { bucket, count: count + 1 });
      return { allowed: count < limit, limit, remaining: limit - count - 1, resetAt: (bucket + 1) * windowMs };
    },
    async peek(identifier: string): Promise<RateLimitDecision> {
      const { bucket, count } = current(identifier);
      return { allowed: count < limit, limit, remaining: limit - count, resetAt: (bucket + 1) * windowMs };
    },
    async ping(): Promise<void> {},
  };
}
