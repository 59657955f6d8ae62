// The in-process limiter: the zero-setup default and the fallback while Redis is unreachable. Same
// semantics as @upstash/ratelimit's fixed window (windows aligned to multiples of the window length),
// exact within one process because Node runs this synchronously.
import type { Limiter, RateLimitDecision } from './limiter';

export function memoryLimiter(limit: number, windowMs: number, now: () => number = Date.now): Limiter {
  const counts = new Map<string, { bucket: number; count: number }>();

  function forgetOldWindows(current: number): void {
    for (const [identifier, entry] of counts) if (entry.bucket < current) counts.delete(identifier);
  }

  return {
    name: 'in-process',
    async limit(identifier: string): Promise<RateLimitDecision> {
      const bucket = Math.floor(now() / windowMs);
      // Bounded memory: entries of past windows are dropped when the map grows.
      if (counts.size > 10_000) forgetOldWindows(bucket);
      const entry = counts.get(identifier);
      const count = entry && entry.bucket === bucket ? entry.count + 1 : 1;
      counts.set(identifier, { bucket, count });
      return { allowed: count <= limit, limit, remaining: limit - count, resetAt: (bucket + 1) * windowMs };
    },
    async ping(): Promise<void> {},
  };
}
