// The service run as a deployment runs it, on one machine: a PostgreSQL primary with a streaming
// replica, a Redis of its own behind an Upstash-compatible REST endpoint, optionally PgBouncer in
// transaction mode, N instances of the production server (`npm start`, one shared build) and HAProxy
// balancing over them. `npm run demo:cluster` (scripts/cluster/cli.ts) is a thin command over
// startCluster; the cluster's integration test (tests/cluster/) runs the same code.
//
// Started in this order, stopped in the reverse one: primary (migrated, demo data seeded once),
// replica, Redis, the REST endpoint, PgBouncer, the instances, HAProxy, Prometheus. Every piece but the primary is
// started again when it crashes (./restart.ts); a roll-out replaces the instances by instances of a new
// build (./instances.ts).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Scale } from '../../prisma/seed';
import { prepareDemoDatabase } from '../demo-data';
import { buildsFolder, prepareBuild, serverActionsKey } from './builds';
import { startHaproxy, type Balancer } from './haproxy';
import { storeSessionSettings } from '../db-settings';
import { Instances } from './instances';
import { startPgBouncer } from './pgbouncer';
import { startPrometheus, type PrometheusServer } from './prometheus';
import { caughtUp, pauseReplay, restartReplica, startPrimary, startReplica, type Primary, type PostgresServer } from './postgres';
import { freePorts, requireProgram, Supervisor, waitFor } from './processes';
import { restartRedis, startRedis, type RedisServer } from './redis';
import { DEFAULT_RESTART_POLICY, type RestartPolicy } from './restart';
import { startUpstashRest, type UpstashRest } from './upstash-rest';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const CLUSTER_DIR = path.join(ROOT, '.data', 'cluster');
/** Each instance is a Next.js server of about 140 MB. */
export const MAX_INSTANCES = 16;

export interface ClusterOptions {
  /** How many app instances (default 2). */
  instances?: number;
  /** PgBouncer in transaction mode between the instances and the primary (default off). */
  pooler?: boolean;
  /** Where everything lives (default .data/cluster); the primary's data is kept there across runs. */
  dir?: string;
  /** Prometheus scraping every instance's metrics (default on). */
  prometheus?: boolean;
  /** Start from an empty primary (the demo data is seeded again). */
  fresh?: boolean;
  /** The scale of the demo data seeded into an empty primary (default `demo`). */
  scale?: Scale;
  /** The production build the instances serve (default NEXT_DIST_DIR, else .next: where `next build` writes it). */
  distDir?: string;
  log?: (line: string) => void;
  /** Aborting it during the start stops what was started at once; startCluster then throws. */
  signal?: AbortSignal;
  /** When a crashed piece is started again, and when it is given up on (default DEFAULT_RESTART_POLICY). */
  restart?: RestartPolicy;
}

export interface ClusterInstance {
  id: string;
  url: string;
  pid: number;
  logFile: string;
  /** The build it serves: its deployment id, else its BUILD_ID (see ./builds.ts). */
  buildId: string;
}

export interface Cluster {
  /** The balancer's URL, which is also the instances' APP_URL. */
  url: string;
  /** The instances serving now (others after a roll-out). */
  readonly instances: ClusterInstance[];
  primaryUrl: string;
  replicaUrl: string;
  /** PgBouncer's URL (the instances' DATABASE_URL) when the cluster has one. */
  poolerUrl: string | null;
  redisUrl: string;
  upstash: { url: string; token: string };
  /** Prometheus's URL when the cluster has one. */
  prometheusUrl: string | null;
  /** Every process started, in the order of their start, each with its current id (a restarted one's new id). */
  readonly processes: { name: string; pid: number }[];
  logDir: string;
  /** Seconds from the call to a cluster answering through the balancer. */
  startupSeconds: number;
  /** Stops everything, in the reverse order of the start. Safe to call more than once. */
  stop(): Promise<void>;

  // Outages, for the cluster's tests: each piece stopped and started again as it would fail and return.
  /** Stops Redis: its REST endpoint then answers errors, as an unreachable Upstash does. */
  stopRedis(): Promise<void>;
  /** Starts the stopped Redis again on its port, empty; resolves once it answers. */
  startRedis(): Promise<void>;
  /** Stops the replica (fast shutdown). */
  stopReplica(): Promise<void>;
  /** Starts the stopped replica again; resolves once it streams from the primary. */
  startReplica(): Promise<void>;
  /** Pauses (true) or resumes (false) the replica's replay of the WAL (pg_wal_replay_pause/resume). */
  pauseReplicaReplay(paused: boolean): Promise<void>;
  /** Resolves once the replica has replayed everything written on the primary before the call. */
  replicaCaughtUp(): Promise<void>;
  /** Sends one instance SIGTERM, as a rolling restart does; resolves with its exit status once it has exited. */
  stopInstance(id: string): Promise<string | null>;
  /**
   * Replaces every instance, one at a time, by one serving the build in `distDir` (default: the
   * cluster's distDir, where `next build` wrote the new one); resolves once the last is replaced.
   */
  rollOut(distDir?: string): Promise<void>;
}

export class ClusterError extends Error {}

/** Finds every program and the build before anything starts: a missing piece fails at once, not after the seeding. */
function checkPrerequisites(pooler: boolean, prometheus: boolean, distDir: string) {
  if (!existsSync(path.join(ROOT, distDir, 'BUILD_ID'))) {
    throw new ClusterError(`No production build in ${distDir}/: run \`npx next build\` first (npm run demo:cluster does).`);
  }
  try {
    return {
      redis: requireProgram('redis-server', 'redis-server', 'the Redis the instances share'),
      haproxy: requireProgram('haproxy', 'haproxy', 'the load balancer'),
      pgbouncer: pooler ? requireProgram('pgbouncer', 'pgbouncer', 'the connection pooler of --pooler') : null,
      prometheus: prometheus ? requireProgram('prometheus', 'prometheus', 'the metrics of every instance (--no-prometheus goes without)') : null,
    };
  } catch (error) {
    throw new ClusterError((error as Error).message);
  }
}

/** The pieces the instances depend on, started before them. */
interface Backing {
  primary: Primary;
  replica: PostgresServer;
  redis: RedisServer;
  upstash: UpstashRest;
  poolerUrl: string | null;
}

async function startBacking(supervisor: Supervisor, options: ClusterOptions, programs: ReturnType<typeof checkPrerequisites>, restart: RestartPolicy): Promise<Backing> {
  const { log } = supervisor;
  if (options.fresh) {
    log('fresh start: removing the primary kept from earlier runs');
    await rm(path.join(supervisor.dir, 'primary'), { recursive: true, force: true });
  }
  const primary = await startPrimary(supervisor, (url) => prepareDemoDatabase(url, log, options.scale));
  const replica = await startReplica(supervisor, primary, restart);

  const redis = await startRedis(supervisor, programs.redis, restart);
  const upstash = await startUpstashRest({ redisUrl: redis.url });
  supervisor.onStop('closing the Upstash REST endpoint', () => upstash.close());
  log(`Upstash REST endpoint on ${upstash.url}, in front of that Redis`);

  const poolerUrl = programs.pgbouncer ? (await startPgBouncer(supervisor, programs.pgbouncer, primary.url, restart)).url : null;
  // PgBouncer does not pass the session settings on at connection start: they are stored on the server.
  if (poolerUrl) await storeSessionSettings(primary.url);
  return { primary, replica, redis, upstash, poolerUrl };
}

/** What every instance gets: the same settings, so that any of them can answer any request. */
async function instanceEnv(backing: Backing, url: string, dir: string): Promise<NodeJS.ProcessEnv> {
  const { primary, replica, upstash, poolerUrl } = backing;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    APP_URL: url,
    // The balancer sets X-Forwarded-For (and drops a caller's own).
    TRUST_PROXY: '1',
    // One secret for all: an OAuth interaction begun on one instance is finished on another.
    OAUTH_COOKIE_SECRET: randomBytes(32).toString('base64url'),
    // One key for all, and for every build: a form rendered by one instance posts to any other (./builds.ts).
    NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: await serverActionsKey(dir),
    UPSTASH_REDIS_REST_URL: upstash.url,
    UPSTASH_REDIS_REST_TOKEN: upstash.token,
    DATABASE_URL: poolerUrl ?? primary.url,
    DATABASE_REPLICA_URL: replica.url,
    // PgBouncer 1.18 in transaction mode cannot keep a connection's prepared statements, nor pass
    // the session settings on (they are on the server, above).
    ...(poolerUrl ? { DATABASE_PREPARED_STATEMENTS: 'off', DATABASE_SESSION_SETTINGS: 'server' } : {}),
  };
  // Each instance's own (its port, its build's folder and deployment id) are set per instance.
  for (const own of ['PORT', 'NEXT_DIST_DIR', 'NEXT_DEPLOYMENT_ID']) delete env[own];
  return env;
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const startedAt = Date.now();
  const count = options.instances ?? 2;
  if (!Number.isInteger(count) || count < 1 || count > MAX_INSTANCES) {
    throw new ClusterError(`The number of instances must be a whole number from 1 to ${MAX_INSTANCES}, not ${count}.`);
  }
  const distDir = options.distDir ?? process.env.NEXT_DIST_DIR ?? '.next';
  const dir = path.resolve(options.dir ?? CLUSTER_DIR);
  const log = options.log ?? ((line: string) => console.log(`[cluster] ${line}`));
  const restart = options.restart ?? DEFAULT_RESTART_POLICY;
  const programs = checkPrerequisites(options.pooler ?? false, options.prometheus ?? true, distDir);

  const supervisor = new Supervisor(dir, log);
  // Aborting stops what has started so far; the step under way then fails (its process is gone, or
  // the supervisor refuses to start another) and the catch below reports the abort.
  options.signal?.addEventListener('abort', () => void supervisor.stopAll(), { once: true });
  try {
    await supervisor.prepare();
    const backing = await startBacking(supervisor, options, programs, restart);
    const [balancerPort, prometheusPort, ...ports] = await freePorts(count + 2);
    const url = `http://127.0.0.1:${balancerPort}`;
    const instances = new Instances(supervisor, await instanceEnv(backing, url, dir), restart);
    // Copies left by a run that was killed go first; this run's go once every instance has stopped.
    await rm(buildsFolder(dir), { recursive: true, force: true });
    supervisor.onStop("removing the cluster's copies of the builds", () => rm(buildsFolder(dir), { recursive: true, force: true }));
    const build = await prepareBuild(dir, distDir);
    log(`starting ${count} instance${count === 1 ? '' : 's'} of the production server (${distDir}/, build ${build.id})…`);
    await Promise.all(ports.map((port) => instances.start(build, port)));

    const balancer = await startHaproxy(supervisor, programs.haproxy, balancerPort!, instances.running, restart);
    await everyInstanceAnswers(url, count, balancer);
    const prometheus = programs.prometheus ? await startPrometheus(supervisor, programs.prometheus, prometheusPort!, instances.running) : null;
    const startupSeconds = (Date.now() - startedAt) / 1000;
    log(`cluster ready in ${startupSeconds.toFixed(1)} s`);
    return clusterHandle({ supervisor, backing, instances, balancer, prometheus, url, dir, distDir, startupSeconds });
  } catch (error) {
    if (options.signal?.aborted) {
      await supervisor.stopAll();
      throw new ClusterError('Stopped before the cluster was ready.');
    }
    log('the start failed: stopping what was started');
    await supervisor.stopAll();
    throw error;
  }
}

async function everyInstanceAnswers(url: string, count: number, balancer: Balancer): Promise<void> {
  const answered = new Set<string>();
  await waitFor(
    'every instance to answer through the balancer',
    async () => {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) answered.add(((await response.json()) as { instance: string }).instance);
      return answered.size === count ? true : undefined;
    },
    { timeoutMs: 30_000, service: balancer.service },
  );
}

function clusterHandle(parts: {
  supervisor: Supervisor;
  backing: Backing;
  instances: Instances;
  balancer: Balancer;
  prometheus: PrometheusServer | null;
  url: string;
  dir: string;
  distDir: string;
  startupSeconds: number;
}): Cluster {
  const { supervisor, backing, instances, balancer, prometheus, url, dir, distDir, startupSeconds } = parts;
  const { primary, replica, redis, upstash, poolerUrl } = backing;
  return {
    url,
    get instances() {
      return instances.running.map(({ id, port, service, build }) => ({ id, url: `http://127.0.0.1:${port}`, pid: service.pid, logFile: service.logFile, buildId: build.id }));
    },
    primaryUrl: primary.url,
    replicaUrl: replica.url,
    poolerUrl,
    redisUrl: redis.url,
    upstash: { url: upstash.url, token: upstash.token },
    prometheusUrl: prometheus?.url ?? null,
    get processes() {
      return supervisor.services.map(({ name, pid }) => ({ name, pid }));
    },
    logDir: supervisor.logDir,
    startupSeconds,
    stop: () => supervisor.stopAll(),
    stopRedis: () => redis.service.stop(),
    startRedis: () => restartRedis(redis),
    stopReplica: () => replica.service.stop(),
    startReplica: () => restartReplica(replica, primary),
    pauseReplicaReplay: (paused) => pauseReplay(replica, paused),
    replicaCaughtUp: () => caughtUp(replica, primary),
    async stopInstance(id) {
      const instance = instances.running.find((candidate) => candidate.id === id);
      if (!instance) throw new ClusterError(`No instance ${id}.`);
      await instance.service.stop();
      return instance.service.exitStatus();
    },
    async rollOut(from = distDir) {
      if (!existsSync(path.join(ROOT, from, 'BUILD_ID'))) throw new ClusterError(`No production build in ${from}/ to roll out.`);
      // Prometheus scrapes the new instances once the roll-out is over (or stopped part way).
      await instances.rollOut(await prepareBuild(dir, from), balancer).finally(() => prometheus?.scrape(instances.running));
    },
  };
}
