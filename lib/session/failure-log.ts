// Where the sign-in throttle keeps its failure times: a sliding-window log per key, in process memory
// (capped and swept) or in Upstash Redis when the rate limiter's Redis is configured. Both count an
// attempt and check the limit in one step, so concurrent guesses cannot all pass one check.
import { fallbackSwitch } from '../ratelimit/fallback';
import { upstashRedis } from '../ratelimit/upstash';
import { logger } from '../telemetry/logger';

export interface ThrottleRule {
  /** Attempts allowed inside the window; the next one is refused until the oldest ages out. */
  maxFailures: number;
  windowMs: number;
}

/** One attempt: its time, and an id that tells it apart from others at the same millisecond. */
export interface Attempt {
  at: number;
  id: string;
}

export interface FailureLog {
  /** Names the backend in logs: `in-process` or `upstash`. */
  readonly name: string;
  /**
   * Counts `attempt` under `key` unless the key already has maxFailures attempts inside the window.
   * Answers 0 when it was counted, else the milliseconds until the oldest one ages out (nothing counted).
   */
  admit(key: string, attempt: Attempt): Promise<number>;
  /** Takes one counted attempt back (it was not a failure after all). */
  release(key: string, attempt: Attempt): Promise<void>;
  /** Forgets every attempt of the key. */
  clear(key: string): Promise<void>;
}

function waitFor(rule: ThrottleRule, recent: readonly number[], now: number): number {
  // The attempt that would make room is the one at index length - maxFailures.
  return recent.length < rule.maxFailures ? 0 : recent[recent.length - rule.maxFailures]! + rule.windowMs - now;
}

/**
 * The in-process log. Memory is bounded by construction: at most `maxKeys` keys, each with at most
 * maxFailures times. The map is kept in the order of each key's latest attempt (a key moves to the
 * end when it is counted again), so the keys whose window has passed are at its front: every admit
 * sweeps them from there, and when the map is still full the key idle the longest is evicted.
 */
export class MemoryFailureLog implements FailureLog {
  readonly name = 'in-process';
  private readonly times = new Map<string, number[]>();

  constructor(
    private readonly rule: ThrottleRule,
    readonly maxKeys: number,
  ) {}

  /** Keys held now (never more than maxKeys). */
  get size(): number {
    return this.times.size;
  }

  private recent(key: string, now: number): number[] {
    const since = now - this.rule.windowMs;
    return (this.times.get(key) ?? []).filter((at) => at > since);
  }

  private sweep(now: number): void {
    const since = now - this.rule.windowMs;
    for (const [key, times] of this.times) {
      if (times[times.length - 1]! > since) break;
      this.times.delete(key);
    }
  }

  async admit(key: string, attempt: Attempt): Promise<number> {
    const recent = this.recent(key, attempt.at);
    const wait = waitFor(this.rule, recent, attempt.at);
    if (wait > 0) {
      this.times.set(key, recent); // pruned in place: a refusal does not move the key
      return wait;
    }
    this.times.delete(key);
    this.sweep(attempt.at);
    if (this.times.size >= this.maxKeys) this.times.delete(this.times.keys().next().value!);
    this.times.set(key, [...recent, attempt.at]);
    return 0;
  }

  async release(key: string, attempt: Attempt): Promise<void> {
    const times = this.times.get(key);
    const index = times?.lastIndexOf(attempt.at) ?? -1;
    if (index < 0) return;
    times!.splice(index, 1);
    if (times!.length === 0) this.times.delete(key);
  }

  async clear(key: string): Promise<void> {
    this.times.delete(key);
  }
}

// One sorted set per key (score = time), trimmed to the window, expiring with it: check and count in
// one script, atomic in Redis across every server process.
const ADMIT_SCRIPT = `
local key, now, member = KEYS[1], tonumber(ARGV[1]), ARGV[2]
local window, max = tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= max then
  local oldest = redis.call('ZRANGE', key, count - max, count - max, 'WITHSCORES')
  return tonumber(oldest[2]) + window - now
end
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, window)
return 0
`;

/** The Redis log: Redis drops each key when its window has passed, so it needs no cap of its own. */
export function upstashFailureLog(options: { url: string; token: string; prefix: string; rule: ThrottleRule }): FailureLog {
  // The rate limiter's client: its time limit (a sign-in waits as long as a request), no retries.
  const redis = upstashRedis(options);
  const redisKey = (key: string) => `${options.prefix}:${key}`;
  const member = (attempt: Attempt) => `${attempt.at}:${attempt.id}`;
  return {
    name: 'upstash',
    async admit(key, attempt) {
      const args = [attempt.at, member(attempt), options.rule.windowMs, options.rule.maxFailures];
      return Number(await redis.eval(ADMIT_SCRIPT, [redisKey(key)], args.map(String)));
    },
    async release(key, attempt) {
      await redis.zrem(redisKey(key), member(attempt));
    },
    async clear(key) {
      await redis.del(redisKey(key));
    },
  };
}

/**
 * Uses `primary` and, while it throws, `fallback`: sign-in keeps working (throttled in process)
 * when Redis is down. The switch is logged once each way, naming the log by `label` (see
 * fallbackSwitch, shared with the rate limiter).
 */
export function withFallback(
  label: string,
  primary: FailureLog,
  fallback: FailureLog,
  log: (message: string) => void = (message) => logger().warn(message),
  now: () => number = Date.now,
): FailureLog {
  const stores = fallbackSwitch(primary, fallback, { prefix: `[sign-in throttle] ${label}:`, counted: 'failures' }, log, now);
  return {
    get name() {
      return stores.name;
    },
    admit: (key, attempt) => stores.run((store) => store.admit(key, attempt)),
    release: (key, attempt) => stores.run((store) => store.release(key, attempt)),
    clear: (key) => stores.run((store) => store.clear(key)),
  };
}
