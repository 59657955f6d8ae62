// Throttling of failed sign-ins: per account, and per client address — or, where no address can be
// trusted (TRUST_PROXY unset), in one window shared by every client, so that guessing one password
// across many accounts stays bounded too. Counted in Upstash Redis when the rate limiter's Redis is
// configured (shared by every server process), else in process memory, capped and swept.
//
// An attempt is counted as a failure before its password is checked and taken back when it proves
// right: concurrent guesses cannot all pass one check. Keys are SHA-256 digests, never what was typed.
import { createHash, randomUUID } from 'node:crypto';
import { MemoryFailureLog, upstashFailureLog, withFallback, type Attempt, type FailureLog, type ThrottleRule } from './failure-log';

export const SIGN_IN_RULES = {
  /** Guessing one account's password: an existing user's id, else the normalised email. */
  account: { maxFailures: 5, windowMs: 15 * 60_000 },
  /** Spraying many accounts from one client address; larger because an office shares one address. */
  address: { maxFailures: 20, windowMs: 15 * 60_000 },
  /** The same when no address can be trusted: every client shares this one window. */
  sharedAddress: { maxFailures: 100, windowMs: 15 * 60_000 },
} as const satisfies Record<string, ThrottleRule>;

type LogName = keyof typeof SIGN_IN_RULES;
export type FailureLogs = Record<LogName, FailureLog>;

/** Keys each in-process log holds at most: the logs full take under 10 MB of heap (measured 6.5 MB). */
export const MAX_KEYS_IN_PROCESS = 10_000;

/** The one key of the sharedAddress log. */
const SHARED_KEY = 'all';

/** A key of fixed size (43 characters) whatever was typed, and no email or address in Redis. */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

export type Admission =
  | { kind: 'counted'; attempt: Attempt; counted: [LogName, string][] }
  | { kind: 'refused'; retryAfterMs: number };

export class SignInThrottle {
  constructor(
    readonly logs: FailureLogs,
    private readonly now: () => number = Date.now,
  ) {}

  static inProcess(options: { now?: () => number; maxKeys?: number } = {}): SignInThrottle {
    const maxKeys = options.maxKeys ?? MAX_KEYS_IN_PROCESS;
    return new SignInThrottle(eachRule((rule) => new MemoryFailureLog(rule, maxKeys)), options.now);
  }

  /**
   * Counts an attempt on `account` from `address` (null: unknown) in both of its windows, or refuses
   * it (counting nothing) with the time until both windows have room.
   */
  async begin(account: string, address: string | null): Promise<Admission> {
    const attempt = { at: this.now(), id: randomUUID() };
    const targets: [LogName, string][] = [
      ['account', digest(account)],
      address === null ? ['sharedAddress', SHARED_KEY] : ['address', digest(address)],
    ];
    const waits = await Promise.all(targets.map(([log, key]) => this.logs[log].admit(key, attempt)));
    const retryAfterMs = Math.max(...waits);
    if (retryAfterMs === 0) return { kind: 'counted', attempt, counted: targets };
    await Promise.all(targets.filter((_, i) => waits[i] === 0).map(([log, key]) => this.logs[log].release(key, attempt)));
    return { kind: 'refused', retryAfterMs };
  }

  /**
   * The password was right: the account's failures are forgotten and this attempt is taken back from
   * the address's window (the other failures from that address still count there).
   */
  async succeeded(admission: Extract<Admission, { kind: 'counted' }>): Promise<void> {
    await Promise.all(
      admission.counted.map(([log, key]) => (log === 'account' ? this.logs.account.clear(key) : this.logs[log].release(key, admission.attempt))),
    );
  }
}

function eachRule(make: (rule: ThrottleRule, name: LogName) => FailureLog): FailureLogs {
  return {
    account: make(SIGN_IN_RULES.account, 'account'),
    address: make(SIGN_IN_RULES.address, 'address'),
    sharedAddress: make(SIGN_IN_RULES.sharedAddress, 'sharedAddress'),
  };
}

/** The rate limiter's Redis (UPSTASH_REDIS_REST_URL/TOKEN) when it is configured, else in process. */
function createThrottle(log: (message: string) => void): SignInThrottle {
  const url = process.env.UPSTASH_REDIS_REST_URL;
  const token = process.env.UPSTASH_REDIS_REST_TOKEN;
  if (!url || !token) {
    log('[sign-in throttle] UPSTASH_REDIS_REST_URL/TOKEN not set: failed sign-ins are counted in-process (one server process only).');
    return SignInThrottle.inProcess();
  }
  const prefix = process.env.SIGN_IN_THROTTLE_PREFIX ?? 'metrics-api:sign-in';
  log(`[sign-in throttle] counting failed sign-ins in Upstash Redis at ${new URL(url).host}.`);
  return new SignInThrottle(
    eachRule((rule, name) =>
      withFallback(name, upstashFailureLog({ url, token, prefix: `${prefix}:${name}`, rule }), new MemoryFailureLog(rule, MAX_KEYS_IN_PROCESS)),
    ),
  );
}

const globalForThrottle = globalThis as unknown as { signInThrottle?: SignInThrottle };

/** The process's throttle (kept on globalThis so that every route bundle shares one). */
export function signInThrottle(): SignInThrottle {
  globalForThrottle.signInThrottle ??= createThrottle(console.info);
  return globalForThrottle.signInThrottle;
}
