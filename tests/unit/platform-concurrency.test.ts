// The bounds on requests in flight without a server: the per-identity cap (429), the per-organisation
// share, the process-wide cap with its bounded queue shared fairly between organisations (503), and
// slots released however a request ends.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/contract/errors';
import { concurrencyGate, concurrencyLimitsFromEnv, type Caller, type ConcurrencyGate, type ConcurrencyLimits } from '@/lib/ratelimit/concurrency';

const LIMITS: ConcurrencyLimits = { perIdentity: 2, perOrg: 100, total: 100, queue: 0, maxWaitMs: 5_000 };

/** A credential `key:<name>` of `org` (one organisation unless a test says otherwise). */
const caller = (name: string, org = 'org-1'): Caller => ({ credential: `key:${name}`, org });

/** A request that runs until `finish` (or `fail`) is called, and records whether it started. */
function heldRequest(gate: ConcurrencyGate, who: Caller) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  let started = false;
  const outcome = gate.run(who, () => {
    started = true;
    return new Promise<string>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  });
  // Keeps a refusal from counting as unhandled before the test looks at it.
  outcome.catch(() => {});
  return { outcome, started: () => started, finish: (value = 'done') => finish(value), fail: (error: Error) => fail(error) };
}

/** Lets the gate's pending promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('per identity', () => {
  it('runs up to the cap at once and refuses more with 429 rate_limited and Retry-After', async () => {
    const gate = concurrencyGate(LIMITS);
    const first = heldRequest(gate, caller('a'));
    const second = heldRequest(gate, caller('a'));
    await settle();
    expect([first.started(), second.started()]).toEqual([true, true]);

    const third = heldRequest(gate, caller('a'));
    const error = await refusal(third.outcome);
    expect(third.started()).toBe(false);
    expect(error.code).toBe('rate_limited');
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({ 'Retry-After': '1' });
    expect(error.message).toContain('More than 2 requests at once');

    first.finish('first');
    expect(await first.outcome).toBe('first');
    const fourth = heldRequest(gate, caller('a'));
    await settle();
    expect(fourth.started()).toBe(true);
    second.finish();
    fourth.finish();
    await Promise.all([second.outcome, fourth.outcome]);
  });

  it('releases the slot when the request throws, and passes the error on', async () => {
    const gate = concurrencyGate(LIMITS);
    const failing = heldRequest(gate, caller('a'));
    const other = heldRequest(gate, caller('a'));
    await settle();
    const boom = new Error('boom');
    failing.fail(boom);
    await expect(failing.outcome).rejects.toBe(boom);
    const next = heldRequest(gate, caller('a'));
    await settle();
    expect(next.started()).toBe(true);
    other.finish();
    next.finish();
    await Promise.all([other.outcome, next.outcome]);
  });

  it('releases the slot when the request throws synchronously', async () => {
    const gate = concurrencyGate({ ...LIMITS, perIdentity: 1 });
    await expect(
      gate.run(caller('a'), () => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    expect(await gate.run(caller('a'), async () => 'served')).toBe('served');
  });

  it('counts each identity on its own', async () => {
    const gate = concurrencyGate(LIMITS);
    const held = [heldRequest(gate, caller('a')), heldRequest(gate, caller('a'))];
    expect((await refusal(gate.run(caller('a'), async () => 'no'))).code).toBe('rate_limited');
    expect(await gate.run(caller('b'), async () => 'b')).toBe('b');
    expect(await gate.run({ credential: 'grant:c', org: 'org-1' }, async () => 'c')).toBe('c');
    for (const request of held) request.finish();
    await Promise.all(held.map((request) => request.outcome));
  });
});

describe('for the whole process', () => {
  it('runs `total` at once, queues `queue` more in arrival order, and refuses the rest with 503 unavailable', async () => {
    const gate = concurrencyGate({ perIdentity: 10, perOrg: 2, total: 2, queue: 2, maxWaitMs: 60_000 });
    const running = [heldRequest(gate, caller('a')), heldRequest(gate, caller('b'))];
    const queued = [heldRequest(gate, caller('c')), heldRequest(gate, caller('d'))];
    await settle();
    expect(running.map((r) => r.started())).toEqual([true, true]);
    expect(queued.map((r) => r.started())).toEqual([false, false]);

    const error = await refusal(gate.run(caller('e'), async () => 'no'));
    expect(error.code).toBe('unavailable');
    expect(error.status).toBe(503);
    expect(error.headers).toEqual({ 'Retry-After': '1' });

    running[0]!.finish();
    await settle();
    expect(queued.map((r) => r.started())).toEqual([true, false]);
    running[1]!.finish();
    await settle();
    expect(queued.map((r) => r.started())).toEqual([true, true]);
    // Nothing waits now; one turn is free again once a queued request ends.
    queued[0]!.finish();
    await settle();
    expect(await gate.run(caller('e'), async () => 'served')).toBe('served');
    queued[1]!.finish();
    await Promise.all([...running, ...queued].map((r) => r.outcome));
  });

  it('refuses a request that waited longer than maxWaitMs, and frees its place in the queue and its identity slot', async () => {
    vi.useFakeTimers();
    const gate = concurrencyGate({ perIdentity: 1, perOrg: 1, total: 1, queue: 1, maxWaitMs: 5_000 });
    const running = heldRequest(gate, caller('a'));
    const waiting = heldRequest(gate, caller('b'));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(waiting.started()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await refusal(waiting.outcome)).code).toBe('unavailable');

    // key:b may try again, and the queue has room for it.
    const again = heldRequest(gate, caller('b'));
    running.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(again.started()).toBe(true);
    again.finish();
    await Promise.all([running.outcome, again.outcome]);
  });

  it('a request refused for a full queue does not keep its identity slot', async () => {
    const gate = concurrencyGate({ perIdentity: 1, perOrg: 1, total: 1, queue: 0, maxWaitMs: 5_000 });
    const running = heldRequest(gate, caller('a'));
    expect((await refusal(gate.run(caller('b'), async () => 'no'))).code).toBe('unavailable');
    running.finish();
    await running.outcome;
    expect(await gate.run(caller('b'), async () => 'served')).toBe('served');
  });
});

describe('between organisations', () => {
  it('runs at most `perOrg` of one organisation at once, however many credentials it uses; the rest of the turns stay free for others', async () => {
    const gate = concurrencyGate({ perIdentity: 1, perOrg: 2, total: 4, queue: 10, maxWaitMs: 60_000 });
    const flood = ['a', 'b', 'c', 'd'].map((name) => heldRequest(gate, caller(name, 'org-1')));
    await settle();
    expect(flood.map((r) => r.started())).toEqual([true, true, false, false]);
    const others = [heldRequest(gate, caller('x', 'org-2')), heldRequest(gate, caller('y', 'org-2'))];
    await settle();
    expect(others.map((r) => r.started())).toEqual([true, true]);

    // A turn that org-1 gives back goes to org-1's next waiting request.
    flood[0]!.finish();
    await settle();
    expect(flood.map((r) => r.started())).toEqual([true, true, true, false]);
    for (const request of [flood[1]!, flood[2]!, ...others]) request.finish();
    await settle();
    expect(flood[3]!.started()).toBe(true);
    flood[3]!.finish();
    await Promise.all([...flood, ...others].map((r) => r.outcome));
  });

  it('hands free turns to waiting organisations in rotation, not in arrival order', async () => {
    const gate = concurrencyGate({ perIdentity: 10, perOrg: 1, total: 1, queue: 10, maxWaitMs: 60_000 });
    const order: string[] = [];
    const first = heldRequest(gate, caller('a', 'org-1'));
    const started = (name: string, org: string) => gate.run(caller(name, org), async () => void order.push(name));
    const waiting = [started('a1', 'org-1'), started('a2', 'org-1'), started('a3', 'org-1'), started('b1', 'org-2'), started('c1', 'org-3')];
    await settle();
    expect(order).toEqual([]);
    first.finish();
    await Promise.all([first.outcome, ...waiting]);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'a3']);
  });

  it('a full queue makes room for an organisation with fewer waiting by refusing the newest of the one with most', async () => {
    const gate = concurrencyGate({ perIdentity: 10, perOrg: 1, total: 1, queue: 2, maxWaitMs: 60_000 });
    const running = heldRequest(gate, caller('a', 'org-1'));
    const flood = [heldRequest(gate, caller('a', 'org-1')), heldRequest(gate, caller('a', 'org-1'))];
    const other = heldRequest(gate, caller('x', 'org-2'));
    const refused = await refusal(flood[1]!.outcome);
    expect(refused.code).toBe('unavailable');
    expect(refused.headers).toEqual({ 'Retry-After': '1' });
    // Now each waits one: the queue is shared evenly, and a newcomer of either is refused at once.
    expect((await refusal(gate.run(caller('y', 'org-2'), async () => 'no'))).code).toBe('unavailable');
    expect((await refusal(gate.run(caller('a', 'org-1'), async () => 'no'))).code).toBe('unavailable');

    running.finish();
    await settle();
    expect([flood[0]!.started(), other.started()]).toEqual([true, false]);
    flood[0]!.finish();
    await settle();
    expect(other.started()).toBe(true);
    other.finish();
    await Promise.all([running.outcome, flood[0]!.outcome, other.outcome]);
  });
});

describe('concurrencyLimitsFromEnv', () => {
  it("gives one organisation half of the process's turns (at least one) unless API_CONCURRENCY_PER_ORG says otherwise", () => {
    vi.stubEnv('API_CONCURRENCY_TOTAL', '10');
    expect(concurrencyLimitsFromEnv()).toEqual({ perIdentity: 4, perOrg: 5, total: 10, queue: 40, maxWaitMs: 5_000 });
    vi.stubEnv('API_CONCURRENCY_TOTAL', '1');
    expect(concurrencyLimitsFromEnv().perOrg).toBe(1);
    vi.stubEnv('API_CONCURRENCY_PER_ORG', '3');
    expect(concurrencyLimitsFromEnv().perOrg).toBe(3);
    vi.stubEnv('API_CONCURRENCY_PER_ORG', '0');
    expect(() => concurrencyLimitsFromEnv()).toThrow('API_CONCURRENCY_PER_ORG must be a positive integer, not "0"');
  });
});
