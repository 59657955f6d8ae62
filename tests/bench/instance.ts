// npm run bench:instance -- --database-url URL [--no-build] [--seconds 60] [--cache off|BYTES] [--ranges every] [--keys N] [--starts 5]
// What one instance of several costs (docs/performance/round-11-many-instances.md):
// - cold start: from spawning `npm start`'s server (scripts/server.mjs, on the production build) to its
//   first answered request: liveness (/api/health), then the first API call with a key (the first
//   touch of the database and the limiter); five starts, each a new process, the first with no compiled
//   code kept (as after a build), the others reading what the starts before them kept;
// - steady memory: the server's resident memory (VmRSS of its process tree, sampled every second)
//   under `--seconds` of autocannon at c=8 over a mixed set of endpoints (every surface, ranges of 7
//   to 366 days, the whole organisation and each client), with the response cache at its default
//   size, at BYTES (`--cache 16777216`), or off (`--cache off`); `--ranges every` asks for every length from 1 to 366 days instead of
//   four, so that nearly every request is a new answer and the cache fills to its cap;
//   `--keys N` sends it all with N keys used round robin past their limits, as clients that overrun them
//   do (40 keys at c=8: most answers are 429); by default every request has a key within its limit.
// - fairness (`--fairness SECONDS`, off by default): on a server with the response cache off, the first
//   organisation floods (tests/bench/fairness.ts) while the second calls /api/v1/me; the second's p95 and slowest.
// `--starts 0` skips the cold starts, `--seconds 0` the memory.
// The database must hold seeded data (e.g. `npm run seed -- --scale demo`); keys are minted in it.
import autocannon, { type Result } from 'autocannon';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { closeDb, sql } from '@/lib/db';
import { addDays } from '@/lib/time/days';
import { freePort } from '../../scripts/cluster/processes';
import { mintKeyPool, overrunKeyPool } from './keys';
import { fairnessLine, measureFairness, yearOfAdsPath } from './fairness';
import { buildServer, coldStarts, startServer, type ColdStart } from './server';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    seconds: { type: 'string', default: '60' },
    cache: { type: 'string', default: 'on' },
    ranges: { type: 'string', default: 'four' },
    keys: { type: 'string' },
    starts: { type: 'string', default: '5' },
    fairness: { type: 'string', default: '0' },
  },
});
const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('--database-url (or DATABASE_URL) names a seeded database');
process.env.DATABASE_URL = databaseUrl;
// The key pools mint one key per USES_PER_KEY requests in one organisation: thousands, past the cap.
process.env.API_KEYS_PER_ORG_MAX ??= '1000000';
const seconds = Number(values.seconds);
const fairnessSeconds = Number(values.fairness);
const log = (line: string) => console.log(line);
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

/** Every surface, ranges of 7 to 366 days ending at the data's last day, whole organisation and each client. */
async function mixedPaths(orgId: string, lengths: number[]): Promise<string[]> {
  const [{ last }] = (await sql<{ last: string }>(`SELECT max(date)::text AS last FROM ad_insights_daily WHERE org_id = $1`, [orgId])) as [{ last: string }];
  const clients = (await sql<{ id: string }>('SELECT id FROM clients WHERE org_id = $1 ORDER BY name', [orgId])).map((row) => row.id);
  const paths = ['/api/v1/me', '/api/v1/clients'];
  for (const days of lengths) {
    const range = `from=${addDays(last, -(days - 1))}&to=${last}`;
    for (const client of [null, ...clients]) {
      const reach = client ? `&client=${client}` : '';
      for (const endpoint of ['ads/overview', 'social/overview', 'social/posts', 'website/overview', 'website/search', 'store/overview']) {
        paths.push(`/api/v1/${endpoint}?${range}${reach}`);
      }
      paths.push(`/api/v1/ads/entities?level=campaign&${range}${reach}`);
    }
  }
  return paths;
}

const [org] = await sql<{ id: string }>('SELECT id FROM organizations ORDER BY name LIMIT 1');
if (!org) throw new Error('the database holds no organisation: seed it first');
if (!values['no-build']) await buildServer(databaseUrl, log);

const startCount = Number(values.starts);
if (startCount > 0) {
  const startKeys = await mintKeyPool(org.id, 5 * 10, log);
  const { first, restarts } = await coldStarts(databaseUrl, () => startKeys.next(), startCount - 1);
  for (const [what, ms] of [['liveness 200', (start: ColdStart) => start.liveMs], ['API 200 (/me with a key)', (start: ColdStart) => start.apiMs]] as const) {
    const restartMs = restarts.map(ms);
    log(`cold start, spawn → first ${what}: the build's first start ${ms(first).toFixed(0)} ms (no compiled code kept); restarts ${restartMs.map((x) => x.toFixed(0)).join(', ')} ms${restartMs.length ? ` (median ${median(restartMs).toFixed(0)})` : ''}`);
  }
}

/** `seconds` of the mixed load on a new server: its resident memory each second and the CPU it used. */
async function measureMemory(orgId: string, databaseUrl: string): Promise<void> {
  const paths = await mixedPaths(orgId, values.ranges === 'every' ? Array.from({ length: 366 }, (_, i) => 366 - i) : [7, 30, 90, 366]);
  // At most ~1,000 requests a second on two cores; the pool refuses to hand out more than it minted.
  const keys = values.keys ? await overrunKeyPool(orgId, Number(values.keys), log) : await mintKeyPool(orgId, seconds * 1_000, log);
  const cacheEnv: Record<string, string> = values.cache === 'off' || values.cache === 'on' ? {} : { RESPONSE_CACHE_MAX_BYTES: values.cache };
  const server = await startServer(databaseUrl, await freePort(), values.cache === 'off' ? 'cold' : 'warm', log, cacheEnv);
  const idleMb = server.memory().currentTreeRssMb;
  const cpuAtStart = server.cpuSeconds();
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(server.memory().currentTreeRssMb), 1_000);
  const statuses: Record<string, number> = {};
  let next = 0;
  const result = await new Promise<Result>((resolve, reject) =>
    autocannon(
      {
        url: server.url,
        connections: 8,
        duration: seconds,
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => ({
              ...request,
              path: paths[next++ % paths.length]!,
              headers: { ...request.headers, 'accept-encoding': 'gzip, deflate', authorization: `Bearer ${keys.next()}` },
            }),
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    ),
  );
  clearInterval(sampler);
  for (const [status, count] of Object.entries(result.statusCodeStats)) statuses[status] = count.count;
  const { peakTreeRssMb } = server.memory();
  const cpuUnderLoad = server.cpuSeconds() - cpuAtStart;
  await server.stop();

  const lastHalf = samples.slice(Math.floor(samples.length / 2));
  log(`${paths.length} distinct requests, ${result.requests.total} sent in ${seconds} s (${result.requests.average.toFixed(0)}/s), statuses ${JSON.stringify(statuses)}, errors ${result.errors}`);
  log(`RSS: ${idleMb.toFixed(0)} MB after start; under load median of the last ${lastHalf.length} s ${median(lastHalf).toFixed(0)} MB, peak ${peakTreeRssMb.toFixed(0)} MB`);
  log(`server CPU under load: ${cpuUnderLoad.toFixed(1)} s, ${((cpuUnderLoad / result.requests.total) * 1000).toFixed(2)} ms a request (load average ${os.loadavg()[0]!.toFixed(2)} at the end)`);
  log(`RSS each second: ${samples.map((mb) => mb.toFixed(0)).join(' ')}`);
}

if (seconds > 0) await measureMemory(org.id, databaseUrl);
if (fairnessSeconds > 0) {
  const [other] = await sql<{ id: string }>('SELECT id FROM organizations WHERE id <> $1 ORDER BY name LIMIT 1', [org.id]);
  if (!other) throw new Error('the fairness probe needs a second organisation in the database');
  const server = await startServer(databaseUrl, await freePort(), 'cold', log);
  try {
    const fairness = await measureFairness({ baseUrl: server.url, floodOrgId: org.id, floodPath: await yearOfAdsPath(org.id), probeOrgId: other.id, seconds: fairnessSeconds, log });
    log(`${fairnessLine(fairness)}; the flooded server's peak RSS ${server.memory().peakTreeRssMb.toFixed(0)} MB`);
  } finally {
    await server.stop();
  }
}
await closeDb();
