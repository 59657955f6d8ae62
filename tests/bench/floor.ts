// The floor of a case: the endpoint's own data function (its SQL and the shaping of the rows), called
// in this process on a pool of the same size as the server's, with no HTTP, proxy, key check, rate
// limiter, query parsing, reach lookup or JSON serialisation. Endpoint ÷ floor is what the web layer costs.
import { performance } from 'node:perf_hooks';
import { percentiles, type Percentiles } from './load';

export interface FloorResult extends Percentiles {
  iterations: number;
  requestsPerSecond: number;
}

export async function measureFloor(work: () => Promise<unknown>, iterations: number, concurrency: number): Promise<FloorResult> {
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
  const seconds = (performance.now() - t0) / 1000;
  return { iterations, requestsPerSecond: iterations / seconds, ...percentiles(durations) };
}
