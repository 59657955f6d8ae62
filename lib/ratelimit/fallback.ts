// One store in front of another: the shared Redis while it answers, the in-process one while it does
// not, so that limits and throttles keep counting when Redis is down. Used by the rate limiter and by
// the sign-in throttle. While the fallback counts, redis_fallback_active says so (lib/telemetry/metrics.ts).
import { metrics } from '../telemetry/metrics';

/** After a failure, how long the fallback answers before the primary is tried again. */
export const RETRY_PRIMARY_AFTER_MS = 10_000;

type Log = (message: string) => void;

export interface FallbackWording {
  /** What starts each log line, e.g. `[ratelimit]`. */
  prefix: string;
  /** What is counted, e.g. `limits`. */
  counted: string;
}

/**
 * Runs each operation on `primary`, and on `fallback` while the primary throws. The switch is logged
 * once each way (not per call); while the primary is down it is retried every 10 s, not on every call.
 */
export function fallbackSwitch<Store extends { name: string }>(
  primary: Store,
  fallback: Store,
  wording: FallbackWording,
  log: Log,
  now: () => number,
): { readonly name: string; run<T>(operation: (store: Store) => Promise<T>): Promise<T>; answered(): void } {
  let down = false;
  let retryAt = 0;
  // The store's name in the metric: the log prefix without brackets and colons (`ratelimit`, `sign-in throttle address`).
  const fallbackActive = metrics().redisFallback.labels({ store: wording.prefix.replace(/[[\]:]/g, '').trim() });
  fallbackActive.set(0);
  const backUp = () => {
    if (down) log(`${wording.prefix} ${primary.name} reachable again; ${wording.counted} are counted there again.`);
    down = false;
    fallbackActive.set(0);
  };
  return {
    get name() {
      return down ? `${fallback.name} (${primary.name} unreachable)` : primary.name;
    },
    async run(operation) {
      if (down && now() < retryAt) return operation(fallback);
      try {
        const result = await operation(primary);
        backUp();
        return result;
      } catch (error) {
        // The first line only: Upstash's messages go on to quote the whole command.
        const reason = (error as Error).message.split(', command was:')[0];
        if (!down) log(`${wording.prefix} ${primary.name} unreachable (${reason}); counting ${wording.counted} in-process until it answers again.`);
        down = true;
        fallbackActive.set(1);
        retryAt = now() + RETRY_PRIMARY_AFTER_MS;
        return operation(fallback);
      }
    },
    /**
     * The primary answered a check (readiness, which the balancer asks every few seconds): it counts
     * again from the next operation, without waiting for the retry time, nor for traffic.
     */
    answered: backUp,
  };
}
