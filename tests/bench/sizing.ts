// How many requests and floor calls each case gets. Apart from cases.ts so that the run can load the
// endpoints' code (through cases.ts) at the moment it builds the server, and measure the same code in both.
import os from 'node:os';
import type { BenchCase } from './cases';

/**
 * Requests per case at most: enough for a stable p95 (p99 is the 1st/2nd slowest at c=1) while the
 * whole run, about 90 cases, stays near a quarter of an hour on this shared 2-core machine.
 */
export const AMOUNT = { 1: 60, 8: 200 } as const;
/**
 * Requests of the liveness route and of /me each, in PLATFORM_ROUNDS alternating rounds: they take a
 * millisecond or two, so 200 were over within a few hundred ms, in which the machine's other work swung
 * their ratio at c=8 between 0.36 and 0.71 from one run to the next.
 */
export const PLATFORM_AMOUNT = { 1: 400, 8: 2000 } as const;
export const PLATFORM_ROUNDS = 8;
/**
 * Rounds in which a case's requests and its floor's calls alternate (run.ts): measured one after the
 * other, the two were taken seconds apart, and the machine's drift in between (its other work, what
 * PostgreSQL had cached) went into their difference, the web layer (docs/performance/round-21-cluster-timeouts-and-the-bench.md).
 */
export const CASE_ROUNDS = 4;
/** Unrecorded requests before each case (first-call compilation, caches, connection setup); their p50 sizes the case. */
export const WARMUP_REQUESTS = 2;
/** The floor's p50 settles with fewer calls than the endpoint's p99 needs. */
export const FLOOR_ITERATIONS = { 1: 30, 8: 80 } as const;
/** Wall time a case's load (and, separately, its floor) should take: a slow case gets fewer requests, never under MIN_SAMPLES. */
const CASE_BUDGET_SECONDS = { load: 8, floor: 4 } as const;
export const MIN_SAMPLES = { load: 15, floor: 6 } as const;

/** How many requests and floor calls a case gets, from its warm-up p50 (concurrency beyond the cores adds no throughput). */
export function caseSize(connections: 1 | 8, warmupP50Ms: number): { requests: number; floorIterations: number } {
  const perSecond = (1000 / Math.max(warmupP50Ms, 0.1)) * Math.min(connections, os.cpus().length);
  const fit = (budget: number, min: number, max: number) => Math.max(min, Math.min(max, Math.floor(budget * perSecond)));
  return {
    // At least three requests per connection, so that a concurrent case is more than its ramp-up.
    requests: fit(CASE_BUDGET_SECONDS.load, Math.max(MIN_SAMPLES.load, 3 * connections), AMOUNT[connections]),
    floorIterations: fit(CASE_BUDGET_SECONDS.floor, MIN_SAMPLES.floor, FLOOR_ITERATIONS[connections]),
  };
}

/** Requests the plan sends with a key at most (everything but the liveness route), warm-ups and warm paths included. */
export function plannedKeyedRequests(cases: BenchCase[]): number {
  const amount = (c: BenchCase) => (c.kind === 'platform' ? PLATFORM_AMOUNT : AMOUNT)[c.connections] + WARMUP_REQUESTS;
  return cases.filter((c) => c.kind !== 'liveness').reduce((sum, c) => sum + amount(c) * (c.cacheable ? 2 : 1), 0);
}
