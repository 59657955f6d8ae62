// Drives one URL with autocannon: a fixed number of requests at a fixed concurrency, each request
// carrying the next key of the pool. Latencies are every response's own time (not autocannon's
// per-second histogram) so that p95 is exact. Throughput is completed requests over the time from the
// first request's start to the last response: autocannon itself only ends a run on its once-a-second
// tick, so its own duration would round every short case up to whole seconds.
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import type { KeyPool } from './keys';

/** What Node's fetch sends: a client that accepts compressed responses, as dashboards and SDKs do. */
const CLIENT_HEADERS = { 'accept-encoding': 'gzip, deflate' };

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

export interface LoadResult extends Percentiles {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Response counts by status; anything but 200 invalidates the figures. */
  statuses: Record<string, number>;
  errors: number;
}

/** Nearest-rank percentiles of a list of durations in ms. */
export function percentiles(durations: number[]): Percentiles {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
  return { p50: at(50), p95: at(95), p99: at(99) };
}

export interface LoadOptions {
  baseUrl: string;
  path: string;
  connections: number;
  amount: number;
  keys: KeyPool | null;
}

/** The raw samples of one autocannon run, mergeable with others. */
export interface Samples {
  durations: number[];
  seconds: number;
  statuses: Record<string, number>;
  errors: number;
}

export function summarise(runs: Samples[]): LoadResult {
  const durations = runs.flatMap((run) => run.durations);
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  const statuses: Record<string, number> = {};
  for (const run of runs) for (const [status, n] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  return {
    requests: durations.length,
    seconds,
    requestsPerSecond: durations.length / seconds,
    ...percentiles(durations),
    statuses,
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

export function sample(options: LoadOptions): Promise<Samples> {
  const { baseUrl, path, connections, amount, keys } = options;
  const durations: number[] = [];
  const statuses: Record<string, number> = {};
  let firstStart = Infinity;
  let lastEnd = -Infinity;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections,
        amount,
        timeout: 30,
        requests: [
          {
            method: 'GET',
            path,
            setupRequest: (request) => ({
              ...request,
              headers: { ...request.headers, ...CLIENT_HEADERS, ...(keys ? { authorization: `Bearer ${keys.next()}` } : {}) },
            }),
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({ durations, seconds: (lastEnd - firstStart) / 1000, statuses, errors: result.errors + result.timeouts });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      const now = performance.now();
      firstStart = Math.min(firstStart, now - responseTime);
      lastEnd = now;
      durations.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  return summarise([await sample(options)]);
}

/**
 * Two loads compared with each other, run in alternating rounds so that a change in the machine's
 * background load during the measurement weighs on both alike.
 */
export async function runAlternating(first: LoadOptions, second: LoadOptions, rounds: number): Promise<[LoadResult, LoadResult]> {
  const runs: [Samples[], Samples[]] = [[], []];
  for (let round = 0; round < rounds; round++) {
    runs[0].push(await sample({ ...first, amount: Math.ceil(first.amount / rounds) }));
    runs[1].push(await sample({ ...second, amount: Math.ceil(second.amount / rounds) }));
  }
  return [summarise(runs[0]), summarise(runs[1])];
}
