// Bounds on requests in flight, beside the rate limit (which counts requests per minute, not at once).
// Per credential: one customer's burst of heavy requests, each within its rate limit, cannot take every
// database connection from the others. Per organisation: an organisation runs at most its share of the
// process's turns however many keys it mints, so the rest are always free for the other organisations.
// For the whole process: many credentials together cannot pile more requests onto the pool than it has
// connections; a request beyond that waits its turn in a short queue, shared fairly between
// organisations, and beyond the queue (or after waiting too long) it is refused as a transient 503.
// In-process, like the pool it protects: each server process guards its own connections.
import { CONNECTION_WAIT_MS } from '../db';
import { positiveIntegerFromEnv } from '../env';
import { ApiError } from '../contract/errors';
import { metrics, sampleOnScrape } from '../telemetry/metrics';

export interface ConcurrencyLimits {
  /** Requests of one credential in flight at once, running or waiting for a turn. */
  perIdentity: number;
  /** Requests of one organisation running at once: its share of `total`. */
  perOrg: number;
  /** Requests running at once in the process. */
  total: number;
  /** Requests that may wait for a turn, all organisations together; more are refused at once. */
  queue: number;
  /** How long a request may wait for a turn before it is refused. */
  maxWaitMs: number;
}

/** Whose request it is: the credential's stable id (see credentialId) and its organisation. */
export interface Caller {
  credential: string;
  org: string;
}

/** Seconds a refused caller should wait: a slot frees as soon as one request of its own finishes. */
const RETRY_AFTER_SECONDS = '1';

export interface ConcurrencyGate {
  /** Runs `fn` in a slot of the caller's credential and a turn of the process; both are released however `fn` ends. */
  run<T>(caller: Caller, fn: () => Promise<T>): Promise<T>;
  /** Requests holding a turn and waiting for one now (the metrics read it when scraped). */
  stats(): { running: number; waiting: number };
}

interface Waiter {
  grant(): void;
  refuse(reason: 'queue_full' | 'timeout'): void;
}

function add(counts: Map<string, number>, key: string, delta: number): void {
  const value = (counts.get(key) ?? 0) + delta;
  if (value === 0) counts.delete(key);
  else counts.set(key, value);
}

export function concurrencyGate(limits: ConcurrencyLimits): ConcurrencyGate {
  // Entries exist only while requests are in flight, so the maps hold at most total + queue entries.
  const inFlight = new Map<string, number>();
  const runningOf = new Map<string, number>();
  let running = 0;
  // Each organisation's waiting requests in arrival order. The map's order is the rotation: the
  // organisation at the front is served first, and after a turn it goes to the back.
  const waiting = new Map<string, Waiter[]>();
  let waitingCount = 0;

  const { concurrencyWait, concurrencyRefusals } = metrics();
  const busy = (reason: 'queue_full' | 'timeout') => {
    concurrencyRefusals.inc({ reason });
    return new ApiError('unavailable', 'The server is at its limit of requests in progress. Retry after the seconds in Retry-After.', {
      headers: { 'Retry-After': RETRY_AFTER_SECONDS },
    });
  };

  const mayRun = (org: string) => running < limits.total && (runningOf.get(org) ?? 0) < limits.perOrg;

  function startTurn(org: string): void {
    running++;
    add(runningOf, org, 1);
  }

  function leaveQueue(org: string, waiter: Waiter): void {
    const queue = waiting.get(org)!;
    queue.splice(queue.indexOf(waiter), 1);
    if (queue.length === 0) waiting.delete(org);
    waitingCount--;
  }

  /**
   * When the queue is full, an organisation with fewer requests waiting than another takes the place
   * of that one's newest: a flood from one organisation fills the queue only until others need it.
   */
  function makeRoomFor(org: string): boolean {
    const mine = waiting.get(org)?.length ?? 0;
    let longest: Waiter[] | undefined;
    for (const queue of waiting.values()) if (queue.length > (longest?.length ?? mine)) longest = queue;
    if (!longest) return false;
    longest.at(-1)!.refuse('queue_full');
    return true;
  }

  async function takeTurn(org: string): Promise<void> {
    if (mayRun(org)) {
      startTurn(org);
      return;
    }
    if (waitingCount >= limits.queue && !makeRoomFor(org)) throw busy('queue_full');
    const queuedAt = performance.now();
    const waited = () => concurrencyWait.observe((performance.now() - queuedAt) / 1000);
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant() {
          clearTimeout(timer);
          waited();
          startTurn(org);
          resolve();
        },
        refuse(reason) {
          clearTimeout(timer);
          waited();
          leaveQueue(org, waiter);
          reject(busy(reason));
        },
      };
      const timer = setTimeout(() => waiter.refuse('timeout'), limits.maxWaitMs);
      const queue = waiting.get(org);
      if (queue) queue.push(waiter);
      else waiting.set(org, [waiter]);
      waitingCount++;
    });
  }

  function endTurn(org: string): void {
    running--;
    add(runningOf, org, -1);
    // Round robin: the first organisation in the rotation that is below its share takes the turn, and
    // goes to the back. A map visits entries re-added while it is iterated, so this loop hands out every
    // turn that is free, one organisation after another, and ends when none is or nobody may take it.
    for (const [next, queue] of waiting) {
      if (running >= limits.total) return;
      if (!mayRun(next)) continue;
      const waiter = queue.shift()!;
      waiting.delete(next);
      if (queue.length > 0) waiting.set(next, queue);
      waitingCount--;
      waiter.grant();
    }
  }

  return {
    async run({ credential, org }, fn) {
      if ((inFlight.get(credential) ?? 0) >= limits.perIdentity) {
        concurrencyRefusals.inc({ reason: 'credential' });
        throw new ApiError(
          'rate_limited',
          `More than ${limits.perIdentity} requests at once for this credential. Wait for one to finish, or retry after the seconds in Retry-After.`,
          { headers: { 'Retry-After': RETRY_AFTER_SECONDS } },
        );
      }
      add(inFlight, credential, 1);
      try {
        await takeTurn(org);
        try {
          return await fn();
        } finally {
          endTurn(org);
        }
      } finally {
        add(inFlight, credential, -1);
      }
    },
    stats: () => ({ running, waiting: waitingCount }),
  };
}

/** The limits of this process, from the environment (see the configuration table in the docs). */
export function concurrencyLimitsFromEnv(): ConcurrencyLimits {
  // As many requests run at once as the pool has connections: more would only wait inside the pool.
  const total = positiveIntegerFromEnv('API_CONCURRENCY_TOTAL', positiveIntegerFromEnv('DATABASE_POOL_SIZE', 10));
  return {
    perIdentity: positiveIntegerFromEnv('API_CONCURRENCY_PER_CREDENTIAL', 4),
    // Half: one organisation's flood, however many keys it spreads over, leaves the other half free.
    perOrg: positiveIntegerFromEnv('API_CONCURRENCY_PER_ORG', Math.max(1, Math.floor(total / 2))),
    total,
    queue: 4 * total,
    // As long as a query would wait for a pool connection before it gives up.
    maxWaitMs: CONNECTION_WAIT_MS,
  };
}

// One gate per process, shared by every bundle that imports this module.
const globalForGate = globalThis as unknown as { metricsConcurrencyGate?: ConcurrencyGate };

/** Runs `fn` within the process's limits on requests in flight for `caller`. */
export function withConcurrencySlot<T>(caller: Caller, fn: () => Promise<T>): Promise<T> {
  if (!globalForGate.metricsConcurrencyGate) {
    const gate = (globalForGate.metricsConcurrencyGate = concurrencyGate(concurrencyLimitsFromEnv()));
    sampleOnScrape('concurrency', () => {
      const { running, waiting } = gate.stats();
      metrics().concurrencyRequests.set({ state: 'running' }, running);
      metrics().concurrencyRequests.set({ state: 'waiting' }, waiting);
    });
  }
  return globalForGate.metricsConcurrencyGate.run(caller, fn);
}
