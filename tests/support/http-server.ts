// A real production server (`npm start`) for HTTP-level tests (the gate, rate limits, headers on every response),
// against the run's test database and, by default, the Upstash stand-in in front of the real Redis.
//
// The build lives in its own folder (.next-test) so it never collides with a developer's .next. It is
// rebuilt when any source file is newer than its BUILD_ID (so a fresh checkout, as in CI, builds once
// per run and the test files share that build). Type checking is skipped in this build (`--experimental-build-mode compile` + `generate`):
// `tsc --noEmit` checks types separately, and a half-edited test file elsewhere must not stop a test
// server from starting. Parallel test files share one build through a lock directory.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../scripts/cluster/processes';
import { startUpstashRest, type UpstashRest } from '../../scripts/cluster/upstash-rest';
import { logEntries, logMessages, type LogEntry } from './log-lines';
import { NEXT_BIN, SERVER_SCRIPT } from './production-server';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const TEST_DIST_DIR = '.next-test';
const BUILD_ID = path.join(ROOT, TEST_DIST_DIR, 'BUILD_ID');
const LOCK = path.join(ROOT, `${TEST_DIST_DIR}.lock`);
const SOURCES = ['app', 'lib', 'proxy.ts', 'instrumentation.ts', 'next.config.ts', 'package.json', 'prisma/schema.prisma'];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

function buildIsCurrent(): boolean {
  if (!existsSync(BUILD_ID)) return false;
  const built = statSync(BUILD_ID).mtimeMs;
  return SOURCES.every((source) => newestMtime(path.join(ROOT, source)) < built);
}

async function withBuildLock<T>(work: () => T): Promise<T> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A lock older than 10 minutes was left by a killed run.
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 10 * 60_000) rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${LOCK}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Builds the app into .next-test unless that build is newer than every source file; says whether it built. */
export async function ensureTestBuild(): Promise<boolean> {
  return withBuildLock(() => {
    if (buildIsCurrent()) return false;
    const startedAt = new Date();
    for (const mode of ['compile', 'generate']) {
      const result = spawnSync(process.execPath, [NEXT_BIN, 'build', '--experimental-build-mode', mode], {
        cwd: ROOT,
        env: { ...process.env, NEXT_DIST_DIR: TEST_DIST_DIR, NEXT_TELEMETRY_DISABLED: '1' },
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      });
      if (result.status !== 0) throw new Error(`next build (${mode}) failed:\n${result.stdout}\n${result.stderr}`);
    }
    // Dated at its start: a file edited while it ran is newer, so the next run builds again.
    utimesSync(BUILD_ID, startedAt, startedAt);
    return true;
  });
}

export interface RequestOptions {
  key?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface TestServer {
  origin: string;
  /** The server's process id. */
  pid: number;
  /** The Redis key prefix of this server's limiter (unique per server). */
  rateLimitPrefix: string;
  standIn: UpstashRest | null;
  /** What the server logged so far, one message a line, without the per-request lines (see logMessages). */
  logs(): string;
  /** Every line the server logged so far, parsed. */
  logEntries(): LogEntry[];
  request(pathAndQuery: string, options?: RequestOptions): Promise<Response>;
  /** Sends the server's process a signal (SIGTERM: drain and exit). */
  kill(signal: NodeJS.Signals): void;
  /** The process's exit code (null: ended by a signal), once it has exited. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  databaseUrl: string;
  /** 'standin' (default): the Upstash stand-in on the real Redis; 'none': no Upstash configured;
   *  or an explicit URL and token (e.g. one that cannot be reached). */
  upstash?: 'standin' | 'none' | { url: string; token: string };
  /** Variables beside the test's own; undefined: the variable is not passed at all. */
  env?: Record<string, string | undefined>;
}

export async function startTestServer(options: ServerOptions): Promise<TestServer> {
  await ensureTestBuild();
  const upstash = options.upstash ?? 'standin';
  const standIn = upstash === 'standin' ? await startUpstashRest() : null;
  const target = typeof upstash === 'object' ? upstash : standIn;
  const upstashEnv = target ? { UPSTASH_REDIS_REST_URL: target.url, UPSTASH_REDIS_REST_TOKEN: target.token } : {};
  const rateLimitPrefix = `metrics-test:${randomBytes(6).toString('hex')}`;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    UPSTASH_REDIS_REST_URL: undefined,
    UPSTASH_REDIS_REST_TOKEN: undefined,
    NODE_ENV: 'production',
    NEXT_DIST_DIR: TEST_DIST_DIR,
    NEXT_TELEMETRY_DISABLED: '1',
    DATABASE_URL: options.databaseUrl,
    APP_URL: origin,
    RATE_LIMIT_PREFIX: rateLimitPrefix,
    // Under the limiter's prefix, so that stop() clears it and no other server or run shares a window.
    SIGN_IN_THROTTLE_PREFIX: `${rateLimitPrefix}:sign-in`,
    // Tests choose their client address with X-Forwarded-For so that files do not share a window.
    TRUST_PROXY: '1',
    ...upstashEnv,
    ...options.env,
  };
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [SERVER_SCRIPT, '-p', String(port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not become live within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    origin,
    pid: child.pid!,
    rateLimitPrefix,
    standIn,
    logs: () => logMessages(output),
    logEntries: () => logEntries(output),
    request(pathAndQuery, { key, method = 'GET', headers = {}, body } = {}) {
      const all = new Headers(headers);
      if (key) all.set('authorization', `Bearer ${key}`);
      return fetchAgainIfStale(new URL(pathAndQuery, origin), { method, headers: all, body, redirect: 'manual' });
    },
    kill: (signal) => child.kill(signal),
    exited,
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      if (standIn) {
        await standIn.redis.eval(
          "for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end return 1",
          { keys: [], arguments: [`${rateLimitPrefix}:*`] },
        );
        await standIn.close();
      }
    },
  };
}

/**
 * fetch, sent once more when a GET or HEAD went out on a kept-alive connection that the server had
 * already closed (undici: "other side closed", before any answer). The server closes a connection idle
 * for 5 s (6 s with Node's buffer) and says so; the client drops it after 3 s, but a test process whose
 * event loop was held that long on a loaded machine sends on it anyway. Browsers send such a request
 * again; a server that really closes on a request closes on the second try too. Any other failure, and
 * any failure of another method, is the caller's.
 */
export async function fetchAgainIfStale(url: URL, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const method = init.method ?? 'GET';
    const cause = (error as Error).cause as { code?: string } | undefined;
    if (cause?.code !== 'UND_ERR_SOCKET' || (method !== 'GET' && method !== 'HEAD') || init.signal?.aborted) throw error;
    return fetch(url, init);
  }
}

/** A distinct client address per call, so tests of unauthenticated requests never share a window. */
export function clientAddress(): string {
  const bytes = randomBytes(3);
  return `10.${bytes[0]}.${bytes[1]}.${bytes[2]}`;
}
