// The production server under test: `next build` into the benchmark's own folder, then `npm start`'s
// server (scripts/server.mjs), with the peak resident memory of its whole process tree sampled from
// /proc while it runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { keptCodeDir, NEXT_BIN, SERVER_SCRIPT } from '../support/production-server';
import { freePort } from '../../scripts/cluster/processes';

export const DIST_DIR = '.next-bench';
const RSS_SAMPLE_MS = 250;

function run(command: string, args: string[], env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail: string[] = [];
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 40) tail.shift();
        if (/^\s*(✓|▲|Creating|Compiled|Running|Generating|Finalizing|Collecting)/.test(line)) log(`  build: ${line.trim()}`);
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${tail.join('\n')}`))));
  });
}

export async function buildServer(databaseUrl: string, log: (line: string) => void): Promise<number> {
  const started = performance.now();
  log(`building the production server into ${DIST_DIR}/ (next build)`);
  await run(process.execPath, [NEXT_BIN, 'build'], { ...process.env, NEXT_DIST_DIR: DIST_DIR, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: '1' }, log);
  const seconds = (performance.now() - started) / 1000;
  log(`built in ${seconds.toFixed(0)} s`);
  return seconds;
}

/** Every process whose ancestry leads to `rootPid` (a server may fork). */
function processTree(rootPid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name in field 2 may hold spaces and parentheses: parse after its last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended between listing and reading.
    }
  }
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  return tree;
}

/** User and system CPU seconds that `pid` has used so far (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

export interface RunningServer {
  url: string;
  pid: number;
  /** Highest summed VmRSS of the process tree seen so far, and the highest VmHWM of any one process, in MB. */
  memory(): { peakTreeRssMb: number; peakProcessHwmMb: number; currentTreeRssMb: number };
  /** CPU seconds (user and system) that the process tree has used so far: a cost that another process's load on the machine hardly changes, unlike latency. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * `cold`: the response cache off, so every request computes its answer (the cache would otherwise
 * answer a case's repeated queries from memory after the first). `warm`: the cache at its default size.
 */
export type CachePath = 'cold' | 'warm';

export async function startServer(
  databaseUrl: string,
  port: number,
  path: CachePath,
  log: (line: string) => void,
  /** Variables for this server only (e.g. the warm path's RESPONSE_CACHE_MAX_BYTES). */
  extraEnv: Record<string, string> = {},
): Promise<RunningServer> {
  // No UPSTASH_* variables: the in-process limiter, as on a single-server deployment.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_DIST_DIR: DIST_DIR,
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
  };
  if (path === 'cold') env.RESPONSE_CACHE_MAX_BYTES = '0';
  else delete env.RESPONSE_CACHE_MAX_BYTES;
  delete env.UPSTASH_REDIS_REST_URL;
  delete env.UPSTASH_REDIS_REST_TOKEN;
  Object.assign(env, extraEnv);
  const child: ChildProcess = spawn(process.execPath, [SERVER_SCRIPT, '-p', String(port)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const pid = child.pid!;
  let peakTreeKb = 0;
  let peakHwmKb = 0;
  let currentKb = 0;
  const sample = () => {
    const tree = processTree(pid);
    currentKb = tree.reduce((sum, p) => sum + statusKb(p, 'VmRSS'), 0);
    peakTreeKb = Math.max(peakTreeKb, currentKb);
    for (const p of tree) peakHwmKb = Math.max(peakHwmKb, statusKb(p, 'VmHWM'));
  };
  const sampler = setInterval(sample, RSS_SAMPLE_MS);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // An interrupted or crashed run must not leave the server holding the port.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer /api/health within 60 s:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  log(`${path} server (response cache ${path === 'cold' ? 'off' : 'on'}) up at ${url} (pid ${pid})`);
  return {
    url,
    pid,
    memory() {
      sample();
      return { peakTreeRssMb: peakTreeKb / 1024, peakProcessHwmMb: peakHwmKb / 1024, currentTreeRssMb: currentKb / 1024 };
    },
    cpuSeconds: () => processTree(pid).reduce((sum, p) => sum + cpuSeconds(p), 0),
    async stop() {
      clearInterval(sampler);
      process.off('exit', killOnExit);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

export type ColdStart = { liveMs: number; apiMs: number };

/**
 * Cold starts of the benchmark's build: the first as after a deployment, with no compiled code kept (its
 * folder emptied, as `next build` leaves it), then `restarts` more, each reading what the starts before
 * it kept.
 */
export async function coldStarts(databaseUrl: string, nextKey: () => string, restarts: number): Promise<{ first: ColdStart; restarts: ColdStart[] }> {
  rmSync(keptCodeDir(DIST_DIR), { recursive: true, force: true });
  const first = await coldStart(databaseUrl, nextKey());
  const later: ColdStart[] = [];
  for (let i = 0; i < restarts; i++) later.push(await coldStart(databaseUrl, nextKey()));
  return { first, restarts: later };
}

/**
 * Milliseconds from spawning a new server process (`npm start`'s, on the benchmark's build) to its first
 * 200 of liveness, then of `/api/v1/me` with `key` (the first route module, database connection and
 * limiter call).
 */
async function coldStart(databaseUrl: string, key: string): Promise<ColdStart> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER_SCRIPT, '-p', String(port), '-H', '127.0.0.1'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NEXT_DIST_DIR: DIST_DIR, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', UPSTASH_REDIS_REST_URL: '', UPSTASH_REDIS_REST_TOKEN: '' },
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
  try {
    const liveMs = await firstOk('/api/health');
    const apiMs = await firstOk('/api/v1/me', { authorization: `Bearer ${key}` });
    return { liveMs, apiMs };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}
