// The sign-in throttle without a database: the sliding window of each log, the in-process log's cap,
// sweep and eviction, the three windows of SignInThrottle (account and address, address: refusing;
// account: slowing), that no stranger can lock anyone out, its keys, and the memory it can hold at most.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MemoryFailureLog, withFallback, type Attempt, type FailureLog } from '@/lib/session/failure-log';
import { ACCOUNT_SLOWDOWN_MS, MAX_KEYS_IN_PROCESS, SIGN_IN_RULES, SignInThrottle, type Admission, type FailureLogs } from '@/lib/session/throttle';

const MINUTE = 60_000;
const START = Date.UTC(2026, 10, 22, 9);

function clock(start = START) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

let ids = 0;
const attemptAt = (at: number): Attempt => ({ at, id: String((ids += 1)) });

describe('MemoryFailureLog (sliding window)', () => {
  const rule = { maxFailures: 3, windowMs: 10 * MINUTE };

  it('counts attempts until a key has maxFailures inside the window, then refuses until the oldest ages out', async () => {
    const log = new MemoryFailureLog(rule, 100);
    for (let i = 0; i < 3; i += 1) expect(await log.admit('a', attemptAt(START + i * MINUTE))).toBe(0);
    // Attempts at t=0, 1, 2 min; now t=3 min: the oldest ages out at t=10 min.
    expect(await log.admit('a', attemptAt(START + 3 * MINUTE))).toBe(7 * MINUTE);
    expect(await log.admit('b', attemptAt(START + 3 * MINUTE))).toBe(0);
  });

  it('opens again as soon as the oldest attempt leaves the window; a refusal counts nothing', async () => {
    const log = new MemoryFailureLog(rule, 100);
    for (let i = 0; i < 3; i += 1) await log.admit('a', attemptAt(START));
    for (let i = 0; i < 5; i += 1) expect(await log.admit('a', attemptAt(START + 10 * MINUTE - 1))).toBe(1);
    expect(await log.admit('a', attemptAt(START + 10 * MINUTE))).toBe(0);
    expect(await log.admit('a', attemptAt(START + 10 * MINUTE))).toBe(0);
    expect(await log.admit('a', attemptAt(START + 10 * MINUTE))).toBe(0);
    expect(await log.admit('a', attemptAt(START + 10 * MINUTE))).toBe(10 * MINUTE);
  });

  it('takes one attempt back on release and forgets a key on clear', async () => {
    const log = new MemoryFailureLog(rule, 100);
    const attempts = [attemptAt(START), attemptAt(START + 1), attemptAt(START + 2)];
    for (const attempt of attempts) await log.admit('a', attempt);
    await log.release('a', attempts[2]!);
    expect(await log.admit('a', attemptAt(START + 3))).toBe(0);
    expect(await log.admit('a', attemptAt(START + 4))).toBe(10 * MINUTE - 4);
    await log.clear('a');
    expect(log.size).toBe(0);
    expect(await log.admit('a', attemptAt(START + 5))).toBe(0);
  });

  it('never holds more than maxKeys keys: when full it evicts the key whose latest attempt is oldest', async () => {
    const log = new MemoryFailureLog(rule, 3);
    await log.admit('a', attemptAt(START));
    await log.admit('b', attemptAt(START + 1));
    await log.admit('c', attemptAt(START + 2));
    await log.admit('a', attemptAt(START + 3)); // a is the most recent now; b the oldest
    await log.admit('d', attemptAt(START + 4));
    expect(log.size).toBe(3);
    // b was evicted (it may try again at once); a kept both of its attempts.
    await log.admit('a', attemptAt(START + 5));
    expect(await log.admit('a', attemptAt(START + 6))).toBe(10 * MINUTE - 6);
    expect(await log.admit('b', attemptAt(START + 7))).toBe(0);
    expect(log.size).toBe(3);
  });

  it('sweeps the keys whose window has passed before it grows', async () => {
    const log = new MemoryFailureLog(rule, 1_000);
    for (let i = 0; i < 500; i += 1) await log.admit(`old-${i}`, attemptAt(START));
    await log.admit('recent', attemptAt(START + 5 * MINUTE));
    expect(log.size).toBe(501);
    await log.admit('new', attemptAt(START + 10 * MINUTE));
    expect(log.size).toBe(2);
  });
});

/** A log that records the keys it was given, around a real in-process log. */
function recording(inner: FailureLog, keys: Set<string>): FailureLog {
  return {
    name: inner.name,
    admit: (key, attempt) => (keys.add(key), inner.admit(key, attempt)),
    release: (key, attempt) => inner.release(key, attempt),
    clear: (key) => inner.clear(key),
  };
}

describe('SignInThrottle', () => {
  const counted = (admission: Admission) => admission.kind === 'counted';

  it('refuses an account from one address after 5 failures there, and counts nothing for the refusal; other addresses are untouched', async () => {
    expect(SIGN_IN_RULES.accountAddress).toEqual({ maxFailures: 5, windowMs: 15 * MINUTE, whenFull: 'refuse', onSuccess: 'clear' });
    const time = clock();
    const throttle = SignInThrottle.inProcess({ now: time.now });
    for (let i = 0; i < 5; i += 1) expect(counted(await throttle.begin('user:ann', '203.0.113.7'))).toBe(true);
    expect(await throttle.begin('user:ann', '203.0.113.7')).toEqual({ kind: 'refused', retryAfterMs: 15 * MINUTE });
    expect(await throttle.begin('user:ann', '203.0.113.8')).toMatchObject({ kind: 'counted', slowDownMs: 0 });
    // 203.0.113.7 has 5 failures, not 6: the refused attempt was taken back from the address window.
    for (let i = 0; i < 15; i += 1) expect(counted(await throttle.begin(`user:other${i}`, '203.0.113.7'))).toBe(true);
    expect((await throttle.begin('user:carol', '203.0.113.7')).kind).toBe('refused');
    time.advance(15 * MINUTE);
    expect(counted(await throttle.begin('user:ann', '203.0.113.7'))).toBe(true);
  });

  it('refuses an address after 20 failures in 15 minutes, whatever the account; the next address is untouched', async () => {
    expect(SIGN_IN_RULES.address).toEqual({ maxFailures: 20, windowMs: 15 * MINUTE, whenFull: 'refuse', onSuccess: 'release' });
    const throttle = SignInThrottle.inProcess({ now: clock().now });
    for (let i = 0; i < 20; i += 1) expect(counted(await throttle.begin(`email:user${i}@example.com`, '203.0.113.7'))).toBe(true);
    expect(await throttle.begin('email:new@example.com', '203.0.113.7')).toEqual({ kind: 'refused', retryAfterMs: 15 * MINUTE });
    expect(counted(await throttle.begin('email:new@example.com', '203.0.113.8'))).toBe(true);
  });

  it('only slows an account that fails from many addresses: after 10 failures each attempt waits, and none is refused', async () => {
    expect(SIGN_IN_RULES.account).toEqual({ maxFailures: 10, windowMs: 15 * MINUTE, whenFull: 'slow', onSuccess: 'release' });
    expect(ACCOUNT_SLOWDOWN_MS).toBe(2_000);
    const time = clock();
    const throttle = SignInThrottle.inProcess({ now: time.now });
    const slowDowns: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const admission = await throttle.begin('user:admin', `198.51.100.${i}`);
      if (admission.kind !== 'counted') throw new Error(`attempt ${i} was refused`);
      slowDowns.push(admission.slowDownMs);
    }
    expect(slowDowns).toEqual([...Array<number>(10).fill(0), ...Array<number>(190).fill(ACCOUNT_SLOWDOWN_MS)]);
    // The account window holds 10 failures, not 200: a slowed attempt is not counted there.
    time.advance(15 * MINUTE);
    expect(await throttle.begin('user:admin', '192.0.2.1')).toMatchObject({ kind: 'counted', slowDownMs: 0 });
  });

  it('lets no stranger lock anyone out: 200 failures from one address leave every account open from any other', async () => {
    const throttle = SignInThrottle.inProcess({ now: clock().now });
    const kinds: Record<string, number> = {};
    for (let i = 0; i < 200; i += 1) {
      const account = i % 2 === 0 ? 'user:admin' : `email:guess${i}@example.com`;
      const { kind } = await throttle.begin(account, '127.0.0.2');
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
    expect(kinds).toEqual({ counted: 20, refused: 180 });
    expect(await throttle.begin('user:admin', '127.0.0.3')).toMatchObject({ kind: 'counted', slowDownMs: 0 });
    expect(await throttle.begin('user:member', '127.0.0.3')).toMatchObject({ kind: 'counted', slowDownMs: 0 });
  });

  it('counts an IPv6 client by its /64, so changing the address within it changes nothing', async () => {
    const throttle = SignInThrottle.inProcess({ now: clock().now });
    for (let i = 1; i <= 5; i += 1) expect(counted(await throttle.begin('user:ann', `2001:db8:1:2::${i.toString(16)}`))).toBe(true);
    expect((await throttle.begin('user:ann', '2001:db8:1:2:ffff:ffff:ffff:ffff')).kind).toBe('refused');
    expect(counted(await throttle.begin('user:ann', '2001:db8:1:3::1'))).toBe(true);
  });

  it('with the address unknown, keeps a window of 5 per account and none shared by every client', async () => {
    const address = new MemoryFailureLog(SIGN_IN_RULES.address, 10);
    const throttle = new SignInThrottle(
      { accountAddress: new MemoryFailureLog(SIGN_IN_RULES.accountAddress, 1_000), address, account: new MemoryFailureLog(SIGN_IN_RULES.account, 1_000) },
      clock().now,
    );
    for (let i = 0; i < 5; i += 1) expect(counted(await throttle.begin('user:ann', null))).toBe(true);
    expect((await throttle.begin('user:ann', null)).kind).toBe('refused');
    for (let i = 0; i < 100; i += 1) expect(counted(await throttle.begin(`email:user${i}@example.com`, null))).toBe(true);
    expect(counted(await throttle.begin('user:bob', null))).toBe(true);
    expect(address.size).toBe(0);
  });

  it("a success clears the account's failures from that address and takes back only its own attempt elsewhere", async () => {
    const throttle = SignInThrottle.inProcess({ now: clock().now });
    for (let i = 0; i < 4; i += 1) await throttle.begin('user:ann', '203.0.113.7');
    for (let i = 0; i < 6; i += 1) await throttle.begin('user:ann', `198.51.100.${i}`);
    const success = await throttle.begin('user:ann', '203.0.113.7');
    if (success.kind !== 'counted') throw new Error('expected the attempt to be counted');
    expect(success.slowDownMs).toBe(ACCOUNT_SLOWDOWN_MS);
    await throttle.succeeded(success);
    // The 4 failures from 203.0.113.7 on ann are forgotten: 5 more before a refusal.
    for (let i = 0; i < 5; i += 1) expect(counted(await throttle.begin('user:ann', '203.0.113.7'))).toBe(true);
    expect((await throttle.begin('user:ann', '203.0.113.7')).kind).toBe('refused');
    // The address has 4 + 5 failures (the success is not one): 11 more accounts are allowed.
    for (let i = 0; i < 11; i += 1) expect(counted(await throttle.begin(`user:other${i}`, '203.0.113.7'))).toBe(true);
    expect((await throttle.begin('user:other-more', '203.0.113.7')).kind).toBe('refused');
  });

  it('lets exactly 5 of 50 concurrent guesses on one account from one address through (an attempt is counted before its password is checked)', async () => {
    const throttle = SignInThrottle.inProcess({ now: clock().now });
    const admissions = await Promise.all(Array.from({ length: 50 }, () => throttle.begin('user:ann', '203.0.113.7')));
    expect(admissions.filter(counted)).toHaveLength(5);
  });

  it('keys every log by a SHA-256 digest of fixed size, never by what was typed', async () => {
    const seen = new Set<string>();
    const logs: FailureLogs = {
      accountAddress: recording(new MemoryFailureLog(SIGN_IN_RULES.accountAddress, 10), seen),
      address: recording(new MemoryFailureLog(SIGN_IN_RULES.address, 10), seen),
      account: recording(new MemoryFailureLog(SIGN_IN_RULES.account, 10), seen),
    };
    const throttle = new SignInThrottle(logs, clock().now);
    await throttle.begin(`email:${'a'.repeat(242)}@example.com`, '2001:db8::1');
    await throttle.begin('user:4f1c4a52-0000-4000-8000-000000000001', null);
    expect([...seen].map((key) => key.length)).toEqual([43, 43, 43, 43, 43]);
    expect([...seen].some((key) => key.includes('example') || key.includes('2001'))).toBe(false);
  });
});

describe('withFallback', () => {
  it('counts in process while the primary throws, logs each switch once, and retries the primary every 10 s', async () => {
    let down = true;
    const primary = new MemoryFailureLog(SIGN_IN_RULES.account, 10);
    // A log that fails like an unreachable Redis while `down`, else answers as the in-process one.
    const flaky: FailureLog = {
      name: 'upstash',
      admit: (key, attempt) => (down ? Promise.reject(new Error('fetch failed, command was: ["eval"]')) : primary.admit(key, attempt)),
      release: (key, attempt) => primary.release(key, attempt),
      clear: (key) => primary.clear(key),
    };
    const fallback = new MemoryFailureLog(SIGN_IN_RULES.account, 10);
    const lines: string[] = [];
    const time = clock();
    const log = withFallback('account', flaky, fallback, (line) => lines.push(line), time.now);

    for (let i = 0; i < 3; i += 1) expect(await log.admit('k', attemptAt(time.now()))).toBe(0);
    expect(fallback.size).toBe(1);
    expect(log.name).toBe('in-process (upstash unreachable)');
    expect(lines).toEqual(['[sign-in throttle] account: upstash unreachable (fetch failed); counting failures in-process until it answers again.']);

    down = false;
    time.advance(9_999);
    await log.admit('other', attemptAt(time.now()));
    expect(primary.size).toBe(0); // not retried yet
    time.advance(1);
    await log.admit('other', attemptAt(time.now()));
    expect(primary.size).toBe(1);
    expect(log.name).toBe('upstash');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('[sign-in throttle] account: upstash reachable again; failures are counted there again.');
  });
});

/** `global.gc` without --expose-gc: the flag set at run time, the function taken from a fresh context. */
function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('memory of the in-process throttle', () => {
  // The bound stated in docs/security.md: the three logs full (10,000 keys each) hold under 16 MB of heap.
  const HEAP_BOUND_BYTES = 16 * 1024 * 1024;

  it(`keeps each log within ${MAX_KEYS_IN_PROCESS} keys and the heap growth under 16 MB after 20,000 failures with distinct maximal emails and networks`, async () => {
    const gc = collectGarbage();
    const logs = {
      accountAddress: new MemoryFailureLog(SIGN_IN_RULES.accountAddress, MAX_KEYS_IN_PROCESS),
      address: new MemoryFailureLog(SIGN_IN_RULES.address, MAX_KEYS_IN_PROCESS),
      account: new MemoryFailureLog(SIGN_IN_RULES.account, MAX_KEYS_IN_PROCESS),
    };
    const throttle = new SignInThrottle(logs, clock().now);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 20_000; i += 1) {
      const local = `${i}-`.padEnd(64 - 1, 'x');
      const email = `${local}@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(254 - 64 - 63 - 1 - 63 - 1)}`;
      expect(email).toHaveLength(254);
      const admission = await throttle.begin(`email:${email}`, `2001:db8:${i.toString(16)}::1`);
      expect(admission.kind).toBe('counted');
    }
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    expect([logs.accountAddress.size, logs.address.size, logs.account.size]).toEqual([MAX_KEYS_IN_PROCESS, MAX_KEYS_IN_PROCESS, MAX_KEYS_IN_PROCESS]);
    console.info(`sign-in throttle: ${3 * MAX_KEYS_IN_PROCESS} keys held after 20,000 failures; heap growth ${(growth / 1024 / 1024).toFixed(1)} MB`);
    expect(growth).toBeLessThan(HEAP_BOUND_BYTES);
  });
});
