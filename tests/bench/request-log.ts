// npm run bench:request-log [-- --no-build] [-- --requests 20000] [-- --rounds 4] [-- --in-process-only]
// What the request log costs a request (docs/performance/round-12-request-log.md): two production servers on the
// same build and database, one with REQUEST_LOG=on (the default) and one with REQUEST_LOG=off, loaded
// in alternating rounds with the same requests (autocannon at c=8, as the bench does), so that the
// machine's background load weighs on both alike. Cases: /api/v1/me (the smallest answer, where a
// fixed cost per request shows most) and an ads overview answered from the response cache (the warm
// path). It also counts the rows the log wrote, to show that every request was recorded.
// The database is created (migrated, demo data at scale `tiny`) when it does not exist yet.
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { createApiKey } from '@/lib/keys/issuing';
import type { ApiKeyContext } from '@/lib/contract/credential';
import { closeDb, sql } from '@/lib/db';
import { flushRequestLog, recordRequest, type RequestRecord } from '@/lib/usage/request-log';
import { mintKeyPool } from './keys';
import { runAlternating, runLoad } from './load';
import { onOffLine, prepareComparison } from './on-off';
import { startServer } from './server';

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    requests: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '4' },
    'in-process-only': { type: 'boolean', default: false },
  },
});
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = 8;
const DATABASE = 'metrics_bench_request_log';
const PORTS = { on: 3196, off: 3195 } as const;

const started = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** The request path's share (recordRequest, µs per call) and the batch writes' (ms per 200 rows), in-process. */
async function inProcessCost(orgId: string): Promise<string> {
  // A key of its own (the seed mints none): deleting it afterwards deletes its records with it.
  const name = 'request-log bench (in-process)';
  const key = await createApiKey({ orgId, name, scopes: ['ads:read'], clientIds: null, expiresAt: null, createdById: null });
  try {
    return await timeRecording({ kind: 'api_key', keyId: key.id, keyName: name, keyPrefix: key.prefix, expiresAt: null, orgId, orgName: 'bench', scopes: [], clientIds: null });
  } finally {
    await sql('DELETE FROM api_keys WHERE id = $1', [key.id]);
  }
}

async function timeRecording(auth: ApiKeyContext): Promise<string> {
  const calls = 9_000; // below the queue's bound, so none is dropped
  // Made before the clock starts: only the recording is timed.
  const records: RequestRecord[] = Array.from({ length: calls }, (_, i) => ({
    auth, method: 'GET', url: `http://127.0.0.1/api/v1/ads/overview?from=2026-06-01&to=2026-06-30&client=${randomUUID()}`, endpoint: '/api/v1/ads/overview',
    status: 200, durationMs: 3, clientAddress: '127.0.0.1', rateRemaining: i % 60, rateReset: null, rateLimited: false, requestId: randomUUID(),
  }));
  for (const record of records.slice(0, 1_000)) recordRequest(record);
  await flushRequestLog();
  const samples: number[] = [];
  for (let round = 0; round < 5; round++) {
    const startedAt = performance.now();
    for (const record of records) recordRequest(record);
    samples.push(((performance.now() - startedAt) * 1000) / calls);
    const flushStarted = performance.now();
    await flushRequestLog();
    samples.push(-((performance.now() - flushStarted) / (calls / 200)));
  }
  const recordUs = samples.filter((x) => x >= 0).sort((a, b) => a - b);
  const batchMs = samples.filter((x) => x < 0).map((x) => -x).sort((a, b) => a - b);
  return `in-process, 5 rounds of ${calls} records: recordRequest ${recordUs[2]!.toFixed(2)} µs per request (median round; min ${recordUs[0]!.toFixed(2)}), a batch of 200 rows written in ${batchMs[2]!.toFixed(1)} ms (median; min ${batchMs[0]!.toFixed(1)}) on the database`;
}

async function main(): Promise<void> {
  const { url, orgId } = await prepareComparison(DATABASE, !values['no-build'], log);
  const inProcess = await inProcessCost(orgId);
  log(inProcess);
  if (values['in-process-only']) return closeDb();
  const cases = [
    { name: 'GET /api/v1/me', path: '/api/v1/me' },
    { name: 'GET /api/v1/ads/overview, 30 days (response cache on)', path: '/api/v1/ads/overview?from=2026-06-01&to=2026-06-30' },
  ];
  // Both servers' warm-up and every case's requests, each key below its limit (tests/bench/keys.ts).
  const keys = await mintKeyPool(orgId, 2 * (cases.length * REQUESTS + 2 * 400) + 1_000, log);
  const servers = {
    on: await startServer(url, PORTS.on, 'warm', log, { REQUEST_LOG: 'on' }),
    off: await startServer(url, PORTS.off, 'warm', log, { REQUEST_LOG: 'off' }),
  };
  try {
    for (const server of Object.values(servers)) {
      await runLoad({ baseUrl: server.url, path: '/api/v1/me', connections: CONNECTIONS, amount: 400, keys });
      await runLoad({ baseUrl: server.url, path: cases[1]!.path, connections: CONNECTIONS, amount: 400, keys });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = Number((await sql<{ n: string }>('SELECT count(*) AS n FROM request_log'))[0]!.n);
    const lines: string[] = [];
    for (const benchCase of cases) {
      const load = (server: { url: string }) => ({ baseUrl: server.url, path: benchCase.path, connections: CONNECTIONS, amount: REQUESTS, keys });
      log(`${benchCase.name}: ${REQUESTS} requests each, c=${CONNECTIONS}, ${ROUNDS} alternating rounds`);
      const [on, off] = await runAlternating(load(servers.on), load(servers.off), ROUNDS);
      lines.push(onOffLine(benchCase.name, 'the log', on, off));
      log(lines.at(-1)!);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const after = Number((await sql<{ n: string }>('SELECT count(*) AS n FROM request_log'))[0]!.n);
    console.log(`\n${inProcess}\n${lines.join('\n')}\nrows the log wrote during the cases: ${after - before} (the log-on server answered ${cases.length * REQUESTS} requests)`);
  } finally {
    await servers.on.stop();
    await servers.off.stop();
    await closeDb();
  }
}

await main();
