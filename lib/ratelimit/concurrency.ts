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
import { fairTurns } from '../fair-turns';
import { metrics, sampleOnScrape } from '../telemetry/metrics';
import { processWide } from '../process-wide';

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

function add(counts: Map<string, number>, key: string, delta: number): void {
  const value = (counts.get(key) ?? 0) + delta;
  if (value === 0) counts.delete(key);
  else counts.set(key, value);
}

export function concurrencyGate(limits: ConcurrencyLimits): ConcurrencyGate {
  // Entries exist only while requests are in flight, so the map holds at most total + queue entries.
  const inFlight = new Map<string, number>();
  const { concurrencyWait, concurrencyRefusals } = metrics();
  // The organisations are the lanes: each runs at most its share of the turns.
  const turns = fairTurns({
    total: limits.total,
    perLane: limits.perOrg,
    queue: limits.queue,
    maxWaitMs: limits.maxWaitMs,
    refusal(reason) {
      concurrencyRefusals.inc({ reason });
      return new ApiError('unavailable', 'The server is at its limit of requests in progress. Retry after the seconds in Retry-After.', {
        headers: { 'Retry-After': RETRY_AFTER_SECONDS },
      });
    },
    waited: (ms) => concurrencyWait.observe(ms / 1000),
  });

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
        await turns.take(org);
        try {
          return await fn();
        } finally {
          turns.release(org);
        }
      } finally {
        add(inFlight, credential, -1);
      }
    },
    stats: () => turns.stats(),
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
const processGate = processWide('concurrency-gate', () => {
  const gate = concurrencyGate(concurrencyLimitsFromEnv());
  sampleOnScrape('concurrency', () => {
    const { running, waiting } = gate.stats();
    metrics().concurrencyRequests.set({ state: 'running' }, running);
    metrics().concurrencyRequests.set({ state: 'waiting' }, waiting);
  });
  return gate;
});

/** Runs `fn` within the process's limits on requests in flight for `caller`. */
export function withConcurrencySlot<T>(caller: Caller, fn: () => Promise<T>): Promise<T> {
  return processGate().run(caller, fn);
}
