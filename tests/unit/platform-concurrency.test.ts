// The bounds on requests in flight without a server: the per-identity cap (429), the process-wide cap
// with its bounded queue (503), and slots released however a request ends.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/contract/errors';
import { concurrencyGate, type ConcurrencyGate, type ConcurrencyLimits } from '@/lib/ratelimit/concurrency';

const LIMITS: ConcurrencyLimits = { perIdentity: 2, total: 100, queue: 0, maxWaitMs: 5_000 };

/** A request that runs until `finish` (or `fail`) is called, and records whether it started. */
function heldRequest(gate: ConcurrencyGate, identity: string) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  let started = false;
  const outcome = gate.run(identity, () => {
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
});

describe('per identity', () => {
  it('runs up to the cap at once and refuses more with 429 rate_limited and Retry-After', async () => {
    const gate = concurrencyGate(LIMITS);
    const first = heldRequest(gate, 'key:a');
    const second = heldRequest(gate, 'key:a');
    await settle();
    expect([first.started(), second.started()]).toEqual([true, true]);

    const third = heldRequest(gate, 'key:a');
    const error = await refusal(third.outcome);
    expect(third.started()).toBe(false);
    expect(error.code).toBe('rate_limited');
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({ 'Retry-After': '1' });
    expect(error.message).toContain('More than 2 requests at once');

    first.finish('first');
    expect(await first.outcome).toBe('first');
    const fourth = heldRequest(gate, 'key:a');
    await settle();
    expect(fourth.started()).toBe(true);
    second.finish();
    fourth.finish();
    await Promise.all([second.outcome, fourth.outcome]);
  });

  it('releases the slot when the request throws, and passes the error on', async () => {
    const gate = concurrencyGate(LIMITS);
    const failing = heldRequest(gate, 'key:a');
    const other = heldRequest(gate, 'key:a');
    await settle();
    const boom = new Error('boom');
    failing.fail(boom);
    await expect(failing.outcome).rejects.toBe(boom);
    const next = heldRequest(gate, 'key:a');
    await settle();
    expect(next.started()).toBe(true);
    other.finish();
    next.finish();
    await Promise.all([other.outcome, next.outcome]);
  });

  it('releases the slot when the request throws synchronously', async () => {
    const gate = concurrencyGate({ ...LIMITS, perIdentity: 1 });
    await expect(
      gate.run('key:a', () => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    expect(await gate.run('key:a', async () => 'served')).toBe('served');
  });

  it('counts each identity on its own', async () => {
    const gate = concurrencyGate(LIMITS);
    const held = [heldRequest(gate, 'key:a'), heldRequest(gate, 'key:a')];
    expect((await refusal(gate.run('key:a', async () => 'no'))).code).toBe('rate_limited');
    expect(await gate.run('key:b', async () => 'b')).toBe('b');
    expect(await gate.run('grant:c', async () => 'c')).toBe('c');
    for (const request of held) request.finish();
    await Promise.all(held.map((request) => request.outcome));
  });
});

describe('for the whole process', () => {
  it('runs `total` at once, queues `queue` more in arrival order, and refuses the rest with 503 unavailable', async () => {
    const gate = concurrencyGate({ perIdentity: 10, total: 2, queue: 2, maxWaitMs: 60_000 });
    const running = [heldRequest(gate, 'key:a'), heldRequest(gate, 'key:b')];
    const queued = [heldRequest(gate, 'key:c'), heldRequest(gate, 'key:d')];
    await settle();
    expect(running.map((r) => r.started())).toEqual([true, true]);
    expect(queued.map((r) => r.started())).toEqual([false, false]);

    const error = await refusal(gate.run('key:e', async () => 'no'));
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
    expect(await gate.run('key:e', async () => 'served')).toBe('served');
    queued[1]!.finish();
    await Promise.all([...running, ...queued].map((r) => r.outcome));
  });

  it('refuses a request that waited longer than maxWaitMs, and frees its place in the queue and its identity slot', async () => {
    vi.useFakeTimers();
    const gate = concurrencyGate({ perIdentity: 1, total: 1, queue: 1, maxWaitMs: 5_000 });
    const running = heldRequest(gate, 'key:a');
    const waiting = heldRequest(gate, 'key:b');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(waiting.started()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await refusal(waiting.outcome)).code).toBe('unavailable');

    // key:b may try again, and the queue has room for it.
    const again = heldRequest(gate, 'key:b');
    running.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(again.started()).toBe(true);
    again.finish();
    await Promise.all([running.outcome, again.outcome]);
  });

  it('a request refused for a full queue does not keep its identity slot', async () => {
    const gate = concurrencyGate({ perIdentity: 1, total: 1, queue: 0, maxWaitMs: 5_000 });
    const running = heldRequest(gate, 'key:a');
    expect((await refusal(gate.run('key:b', async () => 'no'))).code).toBe('unavailable');
    running.finish();
    await running.outcome;
    expect(await gate.run('key:b', async () => 'served')).toBe('served');
  });
});
