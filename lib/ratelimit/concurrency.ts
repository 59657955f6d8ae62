// Bounds on requests in flight, beside the rate limit (which counts requests per minute, not at once).
// Per credential: one customer's burst of heavy requests, each within its rate limit, cannot take every
// database connection from the others. For the whole process: many credentials together cannot pile
// more requests onto the pool than it has connections; a request beyond that waits its turn in a short
// queue, and beyond the queue (or after waiting too long) it is refused as a transient 503. In-process,
// like the pool it protects: each server process guards its own connections.
import { CONNECTION_WAIT_MS } from '../db';
import { ApiError } from '../contract/errors';

export interface ConcurrencyLimits {
  /** Requests of one identity in flight at once, running or waiting for a turn. */
  perIdentity: number;
  /** Requests running at once in the process. */
  total: number;
  /** Requests that may wait for a turn while `total` run; more are refused at once. */
  queue: number;
  /** How long a request may wait for a turn before it is refused. */
  maxWaitMs: number;
}

/** Seconds a refused caller should wait: a slot frees as soon as one request of its own finishes. */
const RETRY_AFTER_SECONDS = '1';

export interface ConcurrencyGate {
  /** Runs `fn` in a slot of `identity` and a turn of the process; both are released however `fn` ends. */
  run<T>(identity: string, fn: () => Promise<T>): Promise<T>;
}

export function concurrencyGate(limits: ConcurrencyLimits): ConcurrencyGate {
  // Entries exist only while requests are in flight, so the map holds at most total + queue entries.
  const inFlight = new Map<string, number>();
  let running = 0;
  const waiting: (() => void)[] = [];

  const busy = () =>
    new ApiError('unavailable', 'The server is at its limit of requests in progress. Retry after the seconds in Retry-After.', {
      headers: { 'Retry-After': RETRY_AFTER_SECONDS },
    });

  async function takeTurn(): Promise<void> {
    if (running < limits.total) {
      running++;
      return;
    }
    if (waiting.length >= limits.queue) throw busy();
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(grant), 1);
        reject(busy());
      }, limits.maxWaitMs);
      waiting.push(grant);
    });
  }

  function endTurn(): void {
    // The turn passes straight to the longest waiting request, so `running` stays at the cap.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }

  return {
    async run(identity, fn) {
      const mine = inFlight.get(identity) ?? 0;
      if (mine >= limits.perIdentity) {
        throw new ApiError(
          'rate_limited',
          `More than ${limits.perIdentity} requests at once for this credential. Wait for one to finish, or retry after the seconds in Retry-After.`,
          { headers: { 'Retry-After': RETRY_AFTER_SECONDS } },
        );
      }
      inFlight.set(identity, mine + 1);
      try {
        await takeTurn();
        try {
          return await fn();
        } finally {
          endTurn();
        }
      } finally {
        const left = inFlight.get(identity)! - 1;
        if (left === 0) inFlight.delete(identity);
        else inFlight.set(identity, left);
      }
    },
  };
}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, not ${JSON.stringify(raw)}`);
  return value;
}

/** The limits of this process, from the environment (see the README's configuration table). */
export function concurrencyLimitsFromEnv(): ConcurrencyLimits {
  // As many requests run at once as the pool has connections: more would only wait inside the pool.
  const total = positiveInteger('API_CONCURRENCY_TOTAL', positiveInteger('DATABASE_POOL_SIZE', 10));
  return {
    perIdentity: positiveInteger('API_CONCURRENCY_PER_CREDENTIAL', 4),
    total,
    queue: 4 * total,
    // As long as a query would wait for a pool connection before it gives up.
    maxWaitMs: CONNECTION_WAIT_MS,
  };
}

// One gate per process, shared by every bundle that imports this module.
const globalForGate = globalThis as unknown as { metricsConcurrencyGate?: ConcurrencyGate };

/** Runs `fn` within the process's limits on requests in flight for the credential `identity`. */
export function withConcurrencySlot<T>(identity: string, fn: () => Promise<T>): Promise<T> {
  globalForGate.metricsConcurrencyGate ??= concurrencyGate(concurrencyLimitsFromEnv());
  return globalForGate.metricsConcurrencyGate.run(identity, fn);
}
