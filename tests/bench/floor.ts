// The floor of a case: the endpoint's own data function (its SQL and the shaping of the rows), called
// in this process on a pool of the same size as the server's, with no HTTP, proxy, key check, rate
// limiter, query parsing, reach lookup or JSON serialisation. Endpoint ÷ floor is what the web layer costs.
import { performance } from 'node:perf_hooks';
import { percentiles, type Percentiles } from './load';

export interface FloorResult extends Percentiles {
  iterations: number;
  requestsPerSecond: number;
}

/** The durations of `iterations` calls of `work`, `concurrency` at a time, and the wall time they took. */
export interface FloorSamples {
  durations: number[];
  seconds: number;
}

export async function sampleFloor(work: () => Promise<unknown>, iterations: number, concurrency: number): Promise<FloorSamples> {
  const durations: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < iterations) {
      started++;
      const t0 = performance.now();
      await work();
      durations.push(performance.now() - t0);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { durations, seconds: (performance.now() - t0) / 1000 };
}

/** Rounds of samples as one result. */
export function summariseFloor(runs: FloorSamples[]): FloorResult {
  const durations = runs.flatMap((run) => run.durations);
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  return { iterations: durations.length, requestsPerSecond: durations.length / seconds, ...percentiles(durations) };
}
