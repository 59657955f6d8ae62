// `npm run demo:cluster [-- --instances N] [--pooler] [--no-prometheus] [--fresh] [--scale tiny|demo|large]`: the service
// as a deployment runs it (see ./index.ts), with the demo data and a fresh demo key, until Ctrl-C or
// SIGTERM, which stop everything it started in order (a second one kills what is left at once).
// SIGHUP rolls the build now in .next/ out (`npm run build:cluster` makes one). `npm run demo:cluster`
// builds the app first (./build.ts).
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Scale } from '../../prisma/seed';
import { mintDemoKey } from '../demo-data';
import { CLUSTER_DIR, ClusterError, MAX_INSTANCES, startCluster, type Cluster } from './index';

const USAGE = `Usage: npm run demo:cluster -- [--instances N (1-${MAX_INSTANCES}, default 2)] [--pooler] [--no-prometheus] [--fresh] [--scale tiny|demo|large] [--dir FOLDER]`;
const SCALES: readonly Scale[] = ['tiny', 'demo', 'large'];
const log = (line: string) => console.log(`[cluster] ${line}`);

/** The command's options; throws a message for the user when one is wrong. */
function options() {
  const { values } = parseArgs({
    options: {
      instances: { type: 'string', default: '2' },
      pooler: { type: 'boolean', default: false },
      prometheus: { type: 'boolean', default: true },
      fresh: { type: 'boolean', default: false },
      scale: { type: 'string', default: 'demo' },
      dir: { type: 'string', default: CLUSTER_DIR },
    },
    strict: true,
    allowPositionals: false,
    // --no-prometheus
    allowNegative: true,
  });
  if (!/^\d+$/.test(values.instances)) throw new Error(`--instances takes a whole number, not "${values.instances}".`);
  if (!SCALES.includes(values.scale as Scale)) throw new Error(`--scale takes ${SCALES.join(', ')}, not "${values.scale}".`);
  return { instances: Number(values.instances), pooler: values.pooler, prometheus: values.prometheus, fresh: values.fresh, scale: values.scale as Scale, dir: values.dir };
}

/** SIGHUP: the roll-out of the build in the cluster's build folder, reported in the log either way. */
async function rollOut(cluster: Cluster): Promise<void> {
  log('SIGHUP: rolling the new build out, one instance at a time');
  try {
    await cluster.rollOut();
    log(`roll-out done: ${cluster.instances.map((instance) => `${instance.id} (pid ${instance.pid}, build ${instance.buildId})`).join(', ')}`);
  } catch (error) {
    log(`roll-out failed: ${(error as Error).message}`);
  }
}

function summary(cluster: Cluster, key: string, pidFile: string): string {
  const instances = cluster.instances.map((instance) => `    ${instance.id}  ${instance.url}  pid ${instance.pid}`).join('\n');
  return `
  Metrics API cluster: ${cluster.url}   (HAProxy, round robin over ${cluster.instances.length} instance${cluster.instances.length === 1 ? '' : 's'})
  Instances (INSTANCE_ID, address, process):
${instances}
  PostgreSQL primary:  DATABASE_URL=${cluster.primaryUrl}
  PostgreSQL replica:  DATABASE_REPLICA_URL=${cluster.replicaUrl}${cluster.poolerUrl ? `\n  PgBouncer (transaction mode, the instances' DATABASE_URL): ${cluster.poolerUrl}` : ''}
  Redis:               ${cluster.redisUrl}
  Upstash REST:        UPSTASH_REDIS_REST_URL=${cluster.upstash.url} UPSTASH_REDIS_REST_TOKEN=${cluster.upstash.token}
  Logs:                ${cluster.logDir}/   (JSON lines: one per request, with its request and trace ids)${cluster.prometheusUrl ? `\n  Prometheus:          ${cluster.prometheusUrl}   (every instance's metrics; try http_server_request_duration_seconds_count)` : ''}
  Dashboard sign-in:   ${cluster.url}/login   admin@demo.agency / demo-password
  Demo API key (every scope, shown once):
    ${key}
  Try:  curl ${cluster.url}/api/health   (names the instance that answered)
        curl -H "Authorization: Bearer ${key}" ${cluster.url}/api/v1/clients
  Orchestrator:        pid ${process.pid} (also in ${pidFile})
  Roll a new build out: npm run build:cluster && kill -HUP ${process.pid}
  Ctrl-C stops everything (a second Ctrl-C kills what is left at once).
`;
}

async function main(): Promise<void> {
  let settings;
  try {
    settings = options();
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  // Where the orchestrator's process id is kept while the cluster runs, for `kill -HUP`.
  const pidFile = path.resolve(settings.dir, 'orchestrator.pid');
  const aborted = new AbortController();
  let cluster: Cluster | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (reason: string, code: number) => {
    if (stopping) {
      // Exiting runs the supervisor's last resort: SIGKILL to every process still running.
      log(`${reason} during the stop: killing what is left at once`);
      process.exit(1);
    }
    stopping = (async () => {
      log(`${reason}: stopping everything (another Ctrl-C or SIGTERM kills what is left at once)`);
      // During the start, the abort stops what has started and startCluster's failure ends the process.
      aborted.abort();
      if (!cluster) return;
      await cluster.stop();
      rmSync(pidFile, { force: true });
      log('stopped');
      process.exit(code);
    })();
  };
  process.on('SIGINT', () => stop('SIGINT', 0));
  process.on('SIGTERM', () => stop('SIGTERM', 0));
  process.on('SIGHUP', () => (cluster && !stopping ? void rollOut(cluster) : log('SIGHUP: no roll-out while the cluster starts or stops')));

  try {
    cluster = await startCluster({ ...settings, log, signal: aborted.signal });
  } catch (error) {
    console.error(error instanceof ClusterError ? error.message : `[cluster] failed: ${(error as Error).message}`);
    process.exit(1);
  }
  try {
    // lib/db reads DATABASE_URL when it first connects.
    process.env.DATABASE_URL = cluster.primaryUrl;
    writeFileSync(pidFile, `${process.pid}\n`);
    console.log(summary(cluster, await mintDemoKey(), pidFile));
  } catch (error) {
    console.error(`[cluster] could not mint the demo key: ${(error as Error).message}`);
    stop('failed', 1);
  }
}

void main();
