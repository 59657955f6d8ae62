// npx tsx tests/bench/cluster-heals.ts -- --url BALANCER_URL --database-url PRIMARY_URL [--dir .data/cluster]
// The check of docs/performance/round-15-cluster-heals.md, against a running `npm run demo:cluster`
// (both URLs are in its summary): 25 requests a second over 30 keys through the balancer, and
// meanwhile, one after another: kill -9 of instance i1, of Redis and of the replica, each timed until
// it is back (the instance ready on its port, every instance counting in Redis again, every instance
// reading from the replica again); SIGHUP to the orchestrator (build a new .next/ first: `npm run
// build:cluster`), timed until every instance is one of the new build; then SIGINT, timed until the
// orchestrator and every process it started have exited. Every request's outcome is counted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createApiKey } from '../../lib/keys/issuing';
import { SCOPES } from '../../lib/contract/scopes';
import { closeDb, sql } from '../../lib/db';
import { isAlive } from '../../scripts/cluster/processes';

const { values } = parseArgs({
  options: { url: { type: 'string' }, 'database-url': { type: 'string' }, dir: { type: 'string', default: '.data/cluster' } },
});
if (!values.url || !values['database-url']) throw new Error('--url and --database-url are needed (demo:cluster prints both).');
process.env.DATABASE_URL = values['database-url'];
const url = values.url;
const dir = path.resolve(values.dir);

const KEYS = 30;
const PER_SECOND = 25;
const startedAt = Date.now();
const log = (line: string) => console.log(`${((Date.now() - startedAt) / 1000).toFixed(1).padStart(6)} s  ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The orchestrator's processes, by name, with their current ids (it rewrites the file on each restart). */
const processes = () => JSON.parse(readFileSync(path.join(dir, 'processes.json'), 'utf8')) as { name: string; pid: number }[];
const pidOf = (name: string) => processes().find((process) => process.name === name)!.pid;
/** The instances in the balancer's configuration (rewritten as they change): id and port. */
const backends = () => [...readFileSync(path.join(dir, 'haproxy.cfg'), 'utf8').matchAll(/^\s+server (\S+) 127\.0\.0\.1:(\d+)/gm)].map(([, id, port]) => ({ id: id!, port: port! }));

type Readiness = { status: string; checks: { replica: { state: string }; rateLimiter: { counting: string } } };
async function everyInstance(holds: (body: Readiness) => boolean): Promise<boolean> {
  for (const { port } of backends()) {
    const response = await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => null);
    if (response?.status !== 200 || !holds((await response.json()) as Readiness)) return false;
  }
  return true;
}

/** Seconds from `from` until `probe` holds (checked every 200 ms), or throws after `limitMs`. */
async function until(what: string, from: number, probe: () => Promise<boolean>, limitMs: number): Promise<number> {
  while (!(await probe().catch(() => false))) {
    if (Date.now() - from > limitMs) throw new Error(`${what}: not after ${limitMs / 1000} s`);
    await sleep(200);
  }
  const seconds = (Date.now() - from) / 1000;
  log(`${what}: ${seconds.toFixed(1)} s`);
  return seconds;
}

const orgId = (await sql<{ id: string }>(`SELECT id FROM organizations WHERE slug = 'demo-agency'`))[0]!.id;
const keys: string[] = [];
for (let i = 0; i < KEYS; i++) keys.push((await createApiKey({ orgId, name: `round 15 load ${i}`, scopes: [...SCOPES], clientIds: null, expiresAt: null, createdById: null })).key);
await closeDb();

// The load: one request every 40 ms, the keys in turn (each 50 a minute, under its 60).
const outcomes: { status: number | string; instance: string | null }[] = [];
let sent = 0;
const inFlight = new Set<Promise<void>>();
const pacer = setInterval(() => {
  const key = keys[sent++ % KEYS]!;
  const request = fetch(`${url}/api/v1/clients`, { headers: { authorization: `Bearer ${key}` } })
    .then(async (response) => {
      await response.arrayBuffer();
      outcomes.push({ status: response.status, instance: response.headers.get('x-cluster-instance') });
    })
    .catch((error: Error) => void outcomes.push({ status: `${error.message} (${(error.cause as Error | undefined)?.message})`, instance: null }))
    .finally(() => inFlight.delete(request));
  inFlight.add(request);
}, 1000 / PER_SECOND);
log(`${PER_SECOND} requests a second over ${KEYS} keys through ${url}`);
await sleep(10_000);

let at = Date.now();
const instancePid = pidOf('instance i1');
process.kill(instancePid, 'SIGKILL');
log(`kill -9 instance i1 (pid ${instancePid})`);
const port = backends().find((backend) => backend.id === 'i1')!.port;
await until('instance i1 ready again', at, async () => pidOf('instance i1') !== instancePid && (await fetch(`http://127.0.0.1:${port}/api/health/ready`)).status === 200, 60_000);
await sleep(5_000);

at = Date.now();
const redisPid = pidOf('redis');
process.kill(redisPid, 'SIGKILL');
log(`kill -9 redis (pid ${redisPid})`);
await until('Redis back, every instance counting in it', at, async () => pidOf('redis') !== redisPid && (await everyInstance((body) => body.checks.rateLimiter.counting === 'shared')), 60_000);
await sleep(5_000);

at = Date.now();
const replicaPid = pidOf('postgres replica');
process.kill(replicaPid, 'SIGKILL');
log(`kill -9 postgres replica (pid ${replicaPid})`);
// A second for the instances to notice (a readiness verdict stands for a second).
await sleep(1_500);
await until('the replica used again by every instance', at, async () => pidOf('postgres replica') !== replicaPid && (await everyInstance((body) => body.checks.replica.state === 'used')), 180_000);
await sleep(5_000);

const orchestrator = Number(readFileSync(path.join(dir, 'orchestrator.pid'), 'utf8'));
const old = new Set(backends().map((backend) => backend.id));
at = Date.now();
process.kill(orchestrator, 'SIGHUP');
log(`SIGHUP to the orchestrator (pid ${orchestrator}); instances before: ${[...old].join(', ')}`);
await until('every instance replaced', at, async () => backends().every((backend) => !old.has(backend.id)) && backends().length === old.size && (await everyInstance((body) => body.status === 'ready')), 300_000);
await sleep(5_000);

clearInterval(pacer);
await Promise.all(inFlight);
const failed = outcomes.filter((outcome) => outcome.status !== 200);
const served = new Map<string, number>();
for (const { instance } of outcomes) served.set(instance ?? 'none', (served.get(instance ?? 'none') ?? 0) + 1);
const byInstance = [...served].map(([id, count]) => `${id} ${count}`);
log(`${outcomes.length} requests, ${failed.length} not 200 (${byInstance.join(', ')})`);
for (const outcome of failed.slice(0, 20)) log(`  ${outcome.status} from ${outcome.instance}`);

const started = processes().filter((process) => isAlive(process.pid));
at = Date.now();
process.kill(orchestrator, 'SIGINT');
log(`SIGINT to the orchestrator; ${started.length} processes running: ${started.map((process) => process.name).join(', ')}`);
await until('the orchestrator and everything it started stopped', at, async () => !isAlive(orchestrator) && started.every((process) => !isAlive(process.pid)), 120_000);
