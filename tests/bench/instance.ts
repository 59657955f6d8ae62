// npm run bench:instance -- --database-url URL [--no-build] [--seconds 60] [--cache off|BYTES] [--ranges every]
// What one instance of several costs (docs/performance/round-11-many-instances.md):
// - cold start: from spawning `npm start`'s server (scripts/server.mjs, on the production build) to its
//   first answered request: liveness (/api/health), then the first API call with a key (the first
//   touch of the database and the limiter); five starts, each a new process;
// - steady memory: the server's resident memory (VmRSS of its process tree, sampled every second)
//   under `--seconds` of autocannon at c=8 over a mixed set of endpoints (every surface, ranges of 7
//   to 366 days, the whole organisation and each client), with the response cache at its default
//   size, at BYTES (`--cache 16777216`), or off (`--cache off`); `--ranges every` asks for every length from 1 to 366 days instead of
//   four, so that nearly every request is a new answer and the cache fills to its cap.
// The database must hold seeded data (e.g. `npm run seed -- --scale demo`); keys are minted in it.
import autocannon, { type Result } from 'autocannon';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { closeDb, sql } from '@/lib/db';
import { addDays } from '@/lib/time/days';
import { SERVER_SCRIPT } from '../support/production-server';
import { freePort } from '../../scripts/cluster/processes';
import { mintKeyPool } from './keys';
import { buildServer, DIST_DIR, startServer } from './server';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    seconds: { type: 'string', default: '60' },
    cache: { type: 'string', default: 'on' },
    ranges: { type: 'string', default: 'four' },
  },
});
const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('--database-url (or DATABASE_URL) names a seeded database');
process.env.DATABASE_URL = databaseUrl;
const seconds = Number(values.seconds);
const log = (line: string) => console.log(line);
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

/** Milliseconds from spawn to the first 200 of liveness, then of an API call. */
async function coldStart(key: string): Promise<{ liveMs: number; apiMs: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER_SCRIPT, '-p', String(port), '-H', '127.0.0.1'], {
    env: { ...process.env, NEXT_DIST_DIR: DIST_DIR, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', UPSTASH_REDIS_REST_URL: '', UPSTASH_REDIS_REST_TOKEN: '' },
    stdio: 'ignore',
  });
  const firstOk = async (path: string, headers: Record<string, string> = {}) => {
    for (;;) {
      try {
        if ((await fetch(`${url}${path}`, { headers })).status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const liveMs = await firstOk('/api/health');
  const apiMs = await firstOk('/api/v1/me', { authorization: `Bearer ${key}` });
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { liveMs, apiMs };
}

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

const starts = [];
const startKeys = await mintKeyPool(org.id, 5 * 10, log);
for (let i = 0; i < 5; i++) starts.push(await coldStart(startKeys.next()));
log(`cold start, spawn → first liveness 200: ${starts.map((s) => s.liveMs.toFixed(0)).join(', ')} ms (median ${median(starts.map((s) => s.liveMs)).toFixed(0)})`);
log(`cold start, spawn → first API 200 (/me with a key): ${starts.map((s) => s.apiMs.toFixed(0)).join(', ')} ms (median ${median(starts.map((s) => s.apiMs)).toFixed(0)})`);

const paths = await mixedPaths(org.id, values.ranges === 'every' ? Array.from({ length: 366 }, (_, i) => 366 - i) : [7, 30, 90, 366]);
// At most ~1,000 requests a second on two cores; the pool refuses to hand out more than it minted.
const keys = await mintKeyPool(org.id, seconds * 1_000, log);
const cacheEnv: Record<string, string> = values.cache === 'off' || values.cache === 'on' ? {} : { RESPONSE_CACHE_MAX_BYTES: values.cache };
const server = await startServer(databaseUrl, await freePort(), values.cache === 'off' ? 'cold' : 'warm', log, cacheEnv);
const idleMb = server.memory().currentTreeRssMb;
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
await server.stop();
await closeDb();

const lastHalf = samples.slice(Math.floor(samples.length / 2));
log(`${paths.length} distinct requests, ${result.requests.total} sent in ${seconds} s (${result.requests.average.toFixed(0)}/s), statuses ${JSON.stringify(statuses)}, errors ${result.errors}`);
log(`RSS: ${idleMb.toFixed(0)} MB after start; under load median of the last ${lastHalf.length} s ${median(lastHalf).toFixed(0)} MB, peak ${peakTreeRssMb.toFixed(0)} MB`);
log(`RSS each second: ${samples.map((mb) => mb.toFixed(0)).join(' ')}`);
