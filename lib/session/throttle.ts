// Throttling of failed sign-ins, per email and per client address, in process memory.
// Why in process: the schema has no table for attempts and the service runs as one Node process; the
// counters reset on restart, which only gives an attacker a fresh window after a deploy. Running
// several instances would need a shared store (the same interface over Redis or a table).
// Only failures count; a successful sign-in clears the email's failures (not the address's).

export interface ThrottleRule {
  /** Failures allowed inside the window; the next attempt is refused until the oldest one ages out. */
  maxFailures: number;
  windowMs: number;
}

export const SIGN_IN_RULES = {
  /** Guessing one account's password. */
  email: { maxFailures: 5, windowMs: 15 * 60_000 },
  /** Spraying many accounts from one address; larger because an office shares one address. */
  address: { maxFailures: 20, windowMs: 15 * 60_000 },
} as const satisfies Record<string, ThrottleRule>;

/** A sliding-window log of failure times per key. */
export class FailureLog {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly rule: ThrottleRule,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.rule.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }

  /** Milliseconds until the key may try again; 0 when it may try now. */
  retryAfterMs(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.rule.maxFailures) return 0;
    // The attempt that would make room is the one at index length - maxFailures.
    return recent[recent.length - this.rule.maxFailures]! + this.rule.windowMs - this.now();
  }

  recordFailure(key: string): void {
    this.failures.set(key, [...this.recent(key), this.now()]);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}

export class SignInThrottle {
  readonly byEmail: FailureLog;
  readonly byAddress: FailureLog;

  constructor(now: () => number = Date.now) {
    this.byEmail = new FailureLog(SIGN_IN_RULES.email, now);
    this.byAddress = new FailureLog(SIGN_IN_RULES.address, now);
  }

  /** `address` is null where no client address can be trusted: then only the email's failures count. */
  retryAfterMs(email: string, address: string | null): number {
    return Math.max(this.byEmail.retryAfterMs(email), address === null ? 0 : this.byAddress.retryAfterMs(address));
  }

  recordFailure(email: string, address: string | null): void {
    this.byEmail.recordFailure(email);
    if (address !== null) this.byAddress.recordFailure(address);
  }

  recordSuccess(email: string): void {
    this.byEmail.clear(email);
  }
}

const globalForThrottle = globalThis as unknown as { signInThrottle?: SignInThrottle };

/** The process's throttle (kept on globalThis so that every route bundle shares one). */
export function signInThrottle(): SignInThrottle {
  globalForThrottle.signInThrottle ??= new SignInThrottle();
  return globalForThrottle.signInThrottle;
}
