// The performance targets for this 2-core machine on the `large` dataset, checked against one run.
import type { BenchCase } from './cases';
import type { FloorResult } from './floor';
import type { LoadResult } from './load';

export const TARGETS = {
  /** Cold path (response cache off), every data case. */
  p95MsAtC1: 100,
  p95MsAtC8: 400,
  heaviestRequestsPerSecondAtC8: 40,
  /** Cold path, whole-organisation cases: endpoint p50 ÷ its data function's p50. */
  maxEndpointToFloor: 1.5,
  /** Warm path (response cache on), a repeated query of a cached endpoint, at c=1. */
  warmP95Ms: 30,
  meToLivenessThroughput: 0.6,
  meP50OverLivenessMs: 3,
  peakRssMb: 500,
} as const;

/** The heaviest case, which must keep up 40 requests/s at concurrency 8. */
export const HEAVIEST_CASE = '/ads/overview org 366d';

export interface CaseResult {
  case: Omit<BenchCase, 'floor'>;
  /** The cold path: a server with the response cache off. */
  load: LoadResult;
  floor: FloorResult | null;
  /** Endpoint p50 ÷ floor p50, both at the case's concurrency. */
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
export function caseMisses(benchCase: BenchCase, load: LoadResult, ratio: number | null, warm: LoadResult | null): string[] {
  const misses = [invalid(load), warm && invalid(warm)].filter((miss): miss is string => miss !== null);
  if (benchCase.kind !== 'data') return misses;
  const p95Limit = benchCase.connections === 1 ? TARGETS.p95MsAtC1 : TARGETS.p95MsAtC8;
  if (load.p95 >= p95Limit) misses.push(`p95 ≥ ${p95Limit} ms`);
  // The ratio is a target for the whole organisation's answers; for one client or one entity it is shown only.
  if (benchCase.scope === 'org' && ratio !== null && ratio >= TARGETS.maxEndpointToFloor) misses.push(`÷floor ≥ ${TARGETS.maxEndpointToFloor}`);
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
