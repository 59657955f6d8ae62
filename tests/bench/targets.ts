// The performance targets for this 2-core machine on the `large` dataset, checked against one run.
import type { BenchCase } from './cases';
import type { FairnessResult } from './fairness';
import type { FloorResult } from './floor';
import type { LoadResult } from './load';

export const TARGETS = {
  /** Cold path (response cache off), every data case. */
  p95MsAtC1: 100,
  p95MsAtC8: 400,
  heaviestRequestsPerSecondAtC8: 40,
  /** Cold path at c=1, every case with a floor: endpoint p50 − its data function's p50 (the web layer), in ms. */
  webLayerMsAtC1: 10,
  /** Warm path (response cache on), a repeated query of a cached endpoint, at c=1. */
  warmP95Ms: 30,
  meToLivenessThroughput: 0.6,
  meP50OverLivenessMs: 3,
  peakRssMb: 350,
  /** While one organisation floods the server (tests/bench/fairness.ts), another's /me. */
  fairnessP95Ms: 300,
  fairnessSlowestMs: 1_000,
  /** From spawning the server to its first 200 of /me with a key, the median of COLD_STARTS. */
  coldStartMs: 2_000,
} as const;

/** The heaviest case, which must keep up 40 requests/s at concurrency 8. */
export const HEAVIEST_CASE = '/ads/overview org 366d';

export interface CaseResult {
  case: Omit<BenchCase, 'floor'>;
  /** The cold path: a server with the response cache off. */
  load: LoadResult;
  floor: FloorResult | null;
  /** Endpoint p50 ÷ floor p50, both at the case's concurrency (shown, not a target). */
  ratio: number | null;
  /** The warm path: the same requests to a server with the cache on, after one that filled it (cacheable cases only). */
  warm: LoadResult | null;
  loadAverage: number;
  misses: string[];
}

function invalid(load: LoadResult): string | null {
  const non200 = Object.entries(load.statuses).filter(([status]) => status !== '200');
  if (non200.length === 0 && load.errors === 0) return null;
  return `INVALID: ${non200.map(([s, n]) => `${n}× ${s}`).join(', ')}${load.errors ? ` ${load.errors} errors` : ''}`;
}

/** The targets this one case misses (empty: all met). */
export function caseMisses(benchCase: BenchCase, load: LoadResult, webLayerMs: number | null, warm: LoadResult | null): string[] {
  const misses = [invalid(load), warm && invalid(warm)].filter((miss): miss is string => miss !== null);
  if (benchCase.kind !== 'data') return misses;
  const p95Limit = benchCase.connections === 1 ? TARGETS.p95MsAtC1 : TARGETS.p95MsAtC8;
  if (load.p95 >= p95Limit) misses.push(`p95 ≥ ${p95Limit} ms`);
  // What HTTP, the gate, the JSON and its compression add, in ms: at c=8 the requests also queue for the cores, so there it is shown only.
  if (benchCase.connections === 1 && webLayerMs !== null && webLayerMs > TARGETS.webLayerMsAtC1) misses.push(`web layer > ${TARGETS.webLayerMsAtC1} ms`);
  if (benchCase.connections === 8 && benchCase.name === HEAVIEST_CASE && load.requestsPerSecond < TARGETS.heaviestRequestsPerSecondAtC8) {
    misses.push(`< ${TARGETS.heaviestRequestsPerSecondAtC8} req/s`);
  }
  // A repeated query's own latency: at c=8 eight requests queue for two cores shared with the load
  // generator, which is what the cold c=8 targets measure; its warm figures are shown only.
  if (warm && benchCase.connections === 1 && warm.p95 >= TARGETS.warmP95Ms) misses.push(`warm p95 ≥ ${TARGETS.warmP95Ms} ms`);
  return misses;
}

export interface PlatformCost {
  livenessRequestsPerSecondC8: number;
  meRequestsPerSecondC8: number;
  throughputRatio: number;
  livenessP50C1: number;
  meP50C1: number;
  p50OverheadMs: number;
  misses: string[];
}

/** /me against the liveness route on the same server: throughput at concurrency 8, p50 at concurrency 1. */
export function platformCost(results: CaseResult[]): PlatformCost | null {
  const find = (endpoint: string, connections: number) => results.find((r) => r.case.endpoint === endpoint && r.case.connections === connections)?.load;
  const [health1, me1, health8, me8] = [find('/api/health', 1), find('/me', 1), find('/api/health', 8), find('/me', 8)];
  if (!health1 || !me1 || !health8 || !me8) return null;
  const throughputRatio = me8.requestsPerSecond / health8.requestsPerSecond;
  const p50OverheadMs = me1.p50 - health1.p50;
  const misses: string[] = [];
  if (throughputRatio < TARGETS.meToLivenessThroughput) misses.push(`/me throughput ${throughputRatio.toFixed(2)} × liveness < ${TARGETS.meToLivenessThroughput}`);
  if (p50OverheadMs > TARGETS.meP50OverLivenessMs) misses.push(`/me p50 ${p50OverheadMs.toFixed(1)} ms above liveness > ${TARGETS.meP50OverLivenessMs} ms`);
  return {
    livenessRequestsPerSecondC8: health8.requestsPerSecond,
    meRequestsPerSecondC8: me8.requestsPerSecond,
    throughputRatio,
    livenessP50C1: health1.p50,
    meP50C1: me1.p50,
    p50OverheadMs,
    misses,
  };
}

/** The fairness probe's misses (empty: both met). */
export function fairnessMisses(result: FairnessResult): string[] {
  const misses: string[] = [];
  const other = Object.entries(result.probeStatuses).filter(([status]) => status !== '200');
  if (other.length) misses.push(`fairness: the other organisation had ${other.map(([s, n]) => `${n}× ${s}`).join(', ')}`);
  if (result.p95 >= TARGETS.fairnessP95Ms) misses.push(`fairness: the other organisation's /me p95 ${result.p95.toFixed(0)} ms ≥ ${TARGETS.fairnessP95Ms} ms`);
  if (result.slowest > TARGETS.fairnessSlowestMs) misses.push(`fairness: the other organisation's slowest /me ${result.slowest.toFixed(0)} ms > ${TARGETS.fairnessSlowestMs} ms`);
  return misses;
}
