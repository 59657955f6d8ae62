// The fairness probe: while one organisation floods the server (FLOOD_KEYS keys, each with
// IN_FLIGHT_PER_KEY requests in flight, every request a year of its ads overview, sent again as soon as
// it is answered whatever the answer), another organisation calls /api/v1/me, one request at a time,
// every PROBE_INTERVAL_MS or as soon as the one before is answered if that took longer, from a thread
// of its own. The probe starts once the flood is in place: every one of its connections answered at
// least once (and no sooner than FLOOD_HEAD_START_MS). Until then the server is still accepting the
// flood's connections, one for each turn of its event loop (libuv accepts a single connection per
// turn since 1.45), and a connection opened meanwhile waits behind them: 1.1-1.4 s at the probe's first
// request in a run that started it 3 s into the flood (docs/performance/round-22-fairness-and-the-web-layer.md).
// What counts is how long the other organisation waits: its p95 and its slowest answer, and whether
// every answer was a 200. The flood's own answers (200, 429 once its keys' windows are used up, 503
// when the process is at its limit) are counted and shown.
import autocannon, { type Result } from 'autocannon';
import { Worker } from 'node:worker_threads';
import { percentiles } from './load';
import { sql } from '@/lib/db';
import { addDays } from '@/lib/time/days';
import { mintKeyPool, overrunKeyPool, type KeyPool } from './keys';

export const FLOOD_KEYS = 40;
export const IN_FLIGHT_PER_KEY = 4;
/** The flood runs at least this long before the probe starts: its keys' windows are used up and it is at the gate. */
const FLOOD_HEAD_START_MS = 3_000;
/** A flood whose connections have not all been answered by then is reported as an error, not measured. */
const FLOOD_IN_PLACE_LIMIT_MS = 30_000;
/** The other organisation's requests start at most this often (one after another, never two at once). */
const PROBE_INTERVAL_MS = 100;

export interface FairnessResult {
  seconds: number;
  /** The other organisation's /me requests: how many, and their p50, p95 and slowest in ms. */
  probes: number;
  p50: number;
  p95: number;
  slowest: number;
  /** Statuses of the other organisation's answers (all 200 when fair). */
  probeStatuses: Record<string, number>;
  floodStatuses: Record<string, number>;
  floodRequestsPerSecond: number;
  /** From the flood's start until every one of its connections had an answer, in ms. */
  floodInPlaceMs: number;
}

export interface FairnessOptions {
  baseUrl: string;
  /** The flooding organisation, and the flood's path (a heavy request of it). */
  floodOrgId: string;
  floodPath: string;
  /** The other organisation. */
  probeOrgId: string;
  seconds: number;
  log: (line: string) => void;
}

/** A year of the organisation's ads overview, ending at the data's last day: the heaviest request. */
export async function yearOfAdsPath(orgId: string): Promise<string> {
  const [{ last }] = (await sql<{ last: string }>(`SELECT max(date)::text AS last FROM ad_insights_daily WHERE org_id = $1`, [orgId])) as [{ last: string }];
  return `/api/v1/ads/overview?from=${addDays(last, -365)}&to=${last}`;
}

/**
 * The other organisation's requests, sent from a worker thread: this thread runs the flood's 160
 * connections, and a probe sharing its event loop would time the flood's client as well as the server.
 * Plain JavaScript (evaluated, not compiled by tsx): a loop of fetches.
 */
const PROBE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, keys, intervalMs, seconds } = workerData;
(async () => {
  const answers = [];
  const end = performance.now() + seconds * 1000;
  for (let next = performance.now(), i = 0; next < end; next += intervalMs, i++) {
    if (performance.now() < next) await new Promise((resolve) => setTimeout(resolve, next - performance.now()));
    const started = performance.now();
    let status = 'error';
    try {
      const response = await fetch(url, { headers: { authorization: 'Bearer ' + keys[i], 'accept-encoding': 'gzip, deflate' } });
      await response.arrayBuffer();
      status = String(response.status);
    } catch {
      // Counted as an error.
    }
    answers.push({ ms: performance.now() - started, status });
  }
  parentPort.postMessage(answers);
})();
`;

function probeInWorker(url: string, keys: KeyPool, seconds: number): Promise<{ ms: number; status: string }[]> {
  const count = Math.ceil((seconds * 1000) / PROBE_INTERVAL_MS) + 1;
  const workerData = { url, keys: Array.from({ length: count }, () => keys.next()), intervalMs: PROBE_INTERVAL_MS, seconds };
  const worker = new Worker(PROBE_SOURCE, { eval: true, workerData });
  return new Promise((resolve, reject) => {
    worker.once('message', (answers: { ms: number; status: string }[]) => void worker.terminate().then(() => resolve(answers)));
    worker.once('error', reject);
  });
}

export async function measureFairness(options: FairnessOptions): Promise<FairnessResult> {
  const { baseUrl, floodOrgId, floodPath, probeOrgId, seconds, log } = options;
  const keys = await overrunKeyPool(floodOrgId, FLOOD_KEYS, log, 'bench flood ');
  const probeKeys = await mintKeyPool(probeOrgId, Math.ceil((seconds * 1000) / PROBE_INTERVAL_MS) + 2, log, 'bench probe ');
  // A new server loads a route's code on its first request: /me's before the flood, so that the probe
  // measures the waiting, not that (the cold start is measured on its own).
  const first = await fetch(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${probeKeys.next()}` } });
  await first.arrayBuffer();
  if (first.status !== 200) throw new Error(`the fairness probe's first /me was answered ${first.status}`);
  const floodStarted = performance.now();
  let inPlace!: () => void;
  const floodInPlace = new Promise<void>((resolve) => (inPlace = resolve));
  const answeredConnections = new Set<unknown>();
  let floodRun!: ReturnType<typeof autocannon>;
  const flood = new Promise<Result>((resolve, reject) => {
    floodRun = autocannon(
      {
        url: baseUrl,
        // Connection i always uses key i mod FLOOD_KEYS: each key has exactly IN_FLIGHT_PER_KEY requests in flight.
        connections: FLOOD_KEYS * IN_FLIGHT_PER_KEY,
        // Stopped once the probe is done: this only bounds a run whose probe never ends.
        duration: (FLOOD_IN_PLACE_LIMIT_MS + FLOOD_HEAD_START_MS) / 1000 + 2 * seconds,
        timeout: 30,
        requests: [
          {
            method: 'GET',
            path: floodPath,
            setupRequest: (request, context: { key?: string }) => {
              context.key ??= keys.next();
              return { ...request, headers: { ...request.headers, 'accept-encoding': 'gzip, deflate', authorization: `Bearer ${context.key}` } };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ).on('response', (connection) => {
      answeredConnections.add(connection);
      if (answeredConnections.size === FLOOD_KEYS * IN_FLIGHT_PER_KEY) inPlace();
    });
  });
  const endedEarly = flood.then(() => Promise.reject(new Error('the flood ended before it was in place')));
  try {
    await waitFor(Promise.race([floodInPlace, endedEarly]), FLOOD_IN_PLACE_LIMIT_MS, () => `the flood was not in place after ${FLOOD_IN_PLACE_LIMIT_MS / 1000} s: ${answeredConnections.size} of its ${FLOOD_KEYS * IN_FLIGHT_PER_KEY} connections answered`);
  } catch (error) {
    floodRun.stop();
    throw error;
  }
  const floodInPlaceMs = performance.now() - floodStarted;
  log(`the flood is in place after ${(floodInPlaceMs / 1000).toFixed(1)} s (each of its connections answered)`);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, FLOOD_HEAD_START_MS - floodInPlaceMs)));
  const probe = await probeInWorker(`${baseUrl}/api/v1/me`, probeKeys, seconds);
  const durations = probe.map((answer) => answer.ms);
  const probeStatuses: Record<string, number> = {};
  for (const { status } of probe) probeStatuses[status] = (probeStatuses[status] ?? 0) + 1;
  floodRun.stop();
  const result = await flood;
  const floodStatuses: Record<string, number> = {};
  for (const [status, count] of Object.entries(result.statusCodeStats)) floodStatuses[status] = count.count;
  if (result.errors + result.timeouts > 0) floodStatuses.errors = result.errors + result.timeouts;
  const { p50, p95 } = percentiles(durations);
  return {
    seconds,
    probes: durations.length,
    p50,
    p95,
    slowest: Math.max(...durations),
    probeStatuses,
    floodStatuses,
    floodRequestsPerSecond: result.requests.total / result.duration,
    floodInPlaceMs,
  };
}

/** `promise`, or an error with `message()` once `ms` have passed without it settling. */
async function waitFor(promise: Promise<void>, ms: number, message: () => string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message())), ms)));
  try {
    await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** The probe's result in one line, as the bench prints it. */
export function fairnessLine(result: FairnessResult): string {
  const counts = (statuses: Record<string, number>) => Object.entries(statuses).map(([status, n]) => `${status}: ${n}`).join(', ');
  return (
    `fairness: during ${result.seconds} s of one organisation's flood (${FLOOD_KEYS} keys × ${IN_FLIGHT_PER_KEY} in flight, ${result.floodRequestsPerSecond.toFixed(0)} requests/s, in place after ${(result.floodInPlaceMs / 1000).toFixed(1)} s; ${counts(result.floodStatuses)}), ` +
    `another organisation's /me: ${result.probes} requests, p50 ${result.p50.toFixed(0)} ms, p95 ${result.p95.toFixed(0)} ms, slowest ${result.slowest.toFixed(0)} ms (${counts(result.probeStatuses)})`
  );
}
