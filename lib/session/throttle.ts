// Throttling of failed sign-ins, in windows that a stranger cannot turn against a user: failures are
// refused per client address and per (account, client address), so only guesses from the guesser's
// own address are ever refused. Failures on one account from every address together only slow its
// sign-ins down (anyone can add failures to anyone's account, so that window must never refuse).
// Counted in Upstash Redis when the rate limiter's Redis is configured (shared by every server
// process), else in process memory, capped and swept.
//
// An attempt is counted as a failure before its password is checked and taken back when it proves
// right: concurrent guesses cannot all pass one check. Keys are SHA-256 digests, never what was typed.
import { createHash, randomUUID } from 'node:crypto';
import { addressNetwork } from '../http/client-address';
import { MemoryFailureLog, upstashFailureLog, withFallback, type Attempt, type FailureLog, type ThrottleRule } from './failure-log';
import { logger } from '../telemetry/logger';
import { processWide } from '../process-wide';

const WINDOW_MS = 15 * 60_000;

interface SignInRule extends ThrottleRule {
  /** What a full window does to the next attempt: refuse it, or only slow it down (ACCOUNT_SLOWDOWN_MS). */
  whenFull: 'refuse' | 'slow';
  /** What a right password does to the window: forget its failures, or take back only its own attempt. */
  onSuccess: 'clear' | 'release';
}

/**
 * Each window's key, limit and effect. An address is an IPv4 address or an IPv6 /64 (see
 * addressNetwork). An account is an existing user's id, else the normalised email.
 */
export const SIGN_IN_RULES = {
  /** Guessing one account's password from one address. */
  accountAddress: { maxFailures: 5, windowMs: WINDOW_MS, whenFull: 'refuse', onSuccess: 'clear' },
  /** Trying many accounts from one address; larger because an office shares one address. */
  address: { maxFailures: 20, windowMs: WINDOW_MS, whenFull: 'refuse', onSuccess: 'release' },
  /** One account's failures from every address together: beyond this, each attempt on it is slowed. */
  account: { maxFailures: 10, windowMs: WINDOW_MS, whenFull: 'slow', onSuccess: 'release' },
} as const satisfies Record<string, SignInRule>;

/** How long an attempt on an account whose `account` window is full waits before its password is checked. */
export const ACCOUNT_SLOWDOWN_MS = 2_000;

type LogName = keyof typeof SIGN_IN_RULES;
export type FailureLogs = Record<LogName, FailureLog>;

/** Keys each in-process log holds at most: the heap the three logs take when full is in docs/security.md#the-sign-in-throttle. */
export const MAX_KEYS_IN_PROCESS = 10_000;

/** A key of fixed size (43 characters) whatever was typed, and no email or address in Redis. */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/**
 * The windows an attempt on `account` from `address` counts in. Where the address is unknown (only
 * where our server does not run the request: `next dev`) there is no address window, which would be
 * one window shared by every client; the (account, unknown address) window still bounds guessing one
 * account to 5 in 15 minutes, and a stranger there can hold back only the account it guesses at.
 */
function windowsOf(account: string, address: string | null): [LogName, string][] {
  const network = address === null ? null : addressNetwork(address);
  const windows: [LogName, string][] = [
    ['accountAddress', digest(JSON.stringify([account, network]))],
    ['account', digest(account)],
  ];
  if (network !== null) windows.push(['address', digest(network)]);
  return windows;
}

export type Admission =
  | { kind: 'counted'; attempt: Attempt; counted: [LogName, string][]; slowDownMs: number }
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
   * Counts an attempt on `account` from `address` (null: unknown) in each of its windows, or refuses
   * it (counting nothing) with the time until every refusing window has room. A full slowing window
   * does not count it and asks for the slowdown instead.
   */
  async begin(account: string, address: string | null): Promise<Admission> {
    const attempt = { at: this.now(), id: randomUUID() };
    const windows = windowsOf(account, address);
    const waits = await Promise.all(windows.map(([log, key]) => this.logs[log].admit(key, attempt)));
    const counted = windows.filter((_, i) => waits[i] === 0);
    /** The longest wait among the full windows of this effect (0: none is full). */
    const longestWait = (effect: SignInRule['whenFull']) => Math.max(0, ...windows.map(([log], i) => (SIGN_IN_RULES[log].whenFull === effect ? waits[i]! : 0)));
    const retryAfterMs = longestWait('refuse');
    if (retryAfterMs > 0) {
      await Promise.all(counted.map(([log, key]) => this.logs[log].release(key, attempt)));
      return { kind: 'refused', retryAfterMs };
    }
    return { kind: 'counted', attempt, counted, slowDownMs: longestWait('slow') > 0 ? ACCOUNT_SLOWDOWN_MS : 0 };
  }

  /**
   * The password was right: the account's failures from this address are forgotten, and this attempt
   * is taken back from the other windows (the other failures counted there still count).
   */
  async succeeded(admission: Extract<Admission, { kind: 'counted' }>): Promise<void> {
    await Promise.all(
      admission.counted.map(([log, key]) =>
        SIGN_IN_RULES[log].onSuccess === 'clear' ? this.logs[log].clear(key) : this.logs[log].release(key, admission.attempt),
      ),
    );
  }
}

function eachRule(make: (rule: ThrottleRule, name: LogName) => FailureLog): FailureLogs {
  return {
    accountAddress: make(SIGN_IN_RULES.accountAddress, 'accountAddress'),
    address: make(SIGN_IN_RULES.address, 'address'),
    account: make(SIGN_IN_RULES.account, 'account'),
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

/** The process's throttle (lib/process-wide.ts: every route bundle shares one). */
export const signInThrottle = processWide('sign-in-throttle', () => createThrottle((message) => logger().info(message)));
