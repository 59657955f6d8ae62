// The cluster of `npm run demo:cluster`, started by the same code (scripts/cluster) with two instances
// on the tests' build and the tiny demo data, in a folder of its own: HAProxy sends requests to each
// instance in turn, the instances see the client address HAProxy saw (not one a caller wrote) and
// count one rate limit between them in the cluster's Redis, a row written on the primary streams to
// the read-only replica, PgBouncer in transaction mode reaches the primary, and stop() ends every
// process the cluster started, their children included.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMIT } from '@/lib/contract/limits';
import { startCluster, type Cluster } from '../../scripts/cluster';
import { startPgBouncer } from '../../scripts/cluster/pgbouncer';
import { withClient } from '../../scripts/cluster/postgres';
import { isAlive, requireProgram, Supervisor, waitFor } from '../../scripts/cluster/processes';
import { awayFromWindowEdge } from '../integration/platform-support';
import { ensureTestBuild, TEST_DIST_DIR } from '../support/http-server';

let dir: string;
let cluster: Cluster;
const logs: string[] = [];

beforeAll(async () => {
  await ensureTestBuild();
  dir = mkdtempSync(path.join(os.tmpdir(), 'metrics-cluster-'));
  // As root PostgreSQL runs as `postgres`, which must traverse the folder to its data.
  chmodSync(dir, 0o755);
  cluster = await startCluster({ instances: 2, dir, scale: 'tiny', distDir: TEST_DIST_DIR, log: (line) => logs.push(line) });
  console.info(`cluster of 2 instances (tiny data, fresh folder) started in ${cluster.startupSeconds.toFixed(1)} s`);
}, 600_000);

afterAll(async () => {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The row, once the replica has it (streaming is asynchronous: it lags by a moment). */
function replicated(table: string, token: string): Promise<string> {
  return waitFor(
    `the row ${token} on the replica`,
    () =>
      withClient(cluster.replicaUrl, async (client) => {
        const { rows } = await client.query<{ token: string }>(`SELECT token FROM ${table} WHERE token = $1`, [token]);
        return rows[0]?.token;
      }),
    { timeoutMs: 30_000 },
  );
}

/** The process ids of `roots` and of all their descendants (PostgreSQL's server processes, for one). */
function processTree(roots: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const line of execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' }).trim().split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const tree: number[] = [];
  for (const queue = [...roots]; queue.length > 0; ) {
    const pid = queue.pop()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

describe('the cluster (npm run demo:cluster)', () => {
  it('started its processes in order and says where each one is', () => {
    expect(cluster.processes.map((process) => process.name)).toEqual(['postgres primary', 'postgres replica', 'redis', 'instance i1', 'instance i2', 'haproxy']);
    expect(cluster.instances.map((instance) => instance.id)).toEqual(['i1', 'i2']);
    expect(cluster.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cluster.primaryUrl).toMatch(/^postgresql:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/metrics$/);
    expect(cluster.replicaUrl).toMatch(/^postgresql:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/metrics$/);
    expect(cluster.replicaUrl).not.toBe(cluster.primaryUrl);
    expect(cluster.poolerUrl).toBeNull();
    expect(logs.at(-1)).toMatch(/^cluster ready in \d+\.\d s$/);
  });

  it('each instance names itself in /api/health', async () => {
    for (const instance of cluster.instances) {
      const response = await fetch(`${instance.url}/api/health`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({ status: 'ok', instance: instance.id });
    }
  });

  it('the balancer sends requests to each instance in turn (round robin, no stickiness)', async () => {
    const answered: string[] = [];
    for (let request = 0; request < 4; request++) {
      const response = await fetch(`${cluster.url}/api/health`);
      expect(response.status).toBe(200);
      answered.push(((await response.json()) as { instance: string }).instance);
    }
    expect(new Set(answered)).toEqual(new Set(['i1', 'i2']));
    expect(answered[1]).not.toBe(answered[0]);
    expect(answered.slice(2)).toEqual(answered.slice(0, 2));
  });

  it('the instances count one rate limit in the cluster Redis, under the address the balancer saw', async () => {
    // The two counts assume one fixed window.
    await awayFromWindowEdge();
    // A caller's own X-Forwarded-For is dropped by the balancer: it cannot choose its window.
    const headers = { 'X-Forwarded-For': '203.0.113.9' };
    const first = await fetch(`${cluster.url}/api/v1/me`, { headers });
    const second = await fetch(`${cluster.url}/api/v1/me`, { headers });
    expect([first.status, second.status]).toEqual([401, 401]);
    // Answered by both instances (round robin), counted once each in the same window.
    expect(first.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT.limit - 1));
    expect(second.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT.limit - 2));
    const redis = createClient({ url: cluster.redisUrl });
    await redis.connect();
    try {
      const keys = await redis.keys('*:addr:*');
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/:addr:127\.0\.0\.1:\d+$/);
      expect(await redis.get(keys[0]!)).toBe('2');
    } finally {
      await redis.quit();
    }
  });

  it('a row written on the primary streams to the replica, which refuses writes', async () => {
    const token = `row-${Date.now()}`;
    await withClient(cluster.primaryUrl, async (client) => {
      await client.query('CREATE TABLE IF NOT EXISTS cluster_check (token text PRIMARY KEY)');
      await client.query('INSERT INTO cluster_check (token) VALUES ($1)', [token]);
    });
    expect(await replicated('cluster_check', token)).toBe(token);
    await withClient(cluster.replicaUrl, async (client) => {
      expect((await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby')).rows).toEqual([{ standby: true }]);
      await expect(client.query('INSERT INTO cluster_check (token) VALUES ($1)', ['on the replica'])).rejects.toMatchObject({ code: '25006' });
    });
  });

  it('PgBouncer in transaction mode reaches the primary (the piece --pooler adds)', async () => {
    const supervisor = new Supervisor(path.join(dir, 'pooler-check'), () => {});
    await supervisor.prepare();
    try {
      const pooler = await startPgBouncer(supervisor, requireProgram('pgbouncer', 'pgbouncer', 'the connection pooler'), cluster.primaryUrl);
      // The admin console: the database `pgbouncer` at the same address.
      const adminConsole = new URL(pooler.url);
      adminConsole.pathname = '/pgbouncer';
      const settings = await withClient(adminConsole.href, async (client) => (await client.query<{ key: string; value: string }>('SHOW CONFIG')).rows);
      expect(settings.find((setting) => setting.key === 'pool_mode')?.value).toBe('transaction');
      const token = `pooled-${Date.now()}`;
      await withClient(pooler.url, (client) => client.query('INSERT INTO cluster_check (token) VALUES ($1)', [token]));
      expect(await replicated('cluster_check', token)).toBe(token);
    } finally {
      await supervisor.stopAll();
    }
    expect(supervisor.services.map((service) => [service.name, service.exitStatus()])).toEqual([['pgbouncer', '0']]);
  });

  it('stop() ends every process the cluster started, their children included, in the reverse order', async () => {
    const tree = processTree(cluster.processes.map((process) => process.pid));
    // Each PostgreSQL server has its own processes (checkpointer, WAL sender and receiver, …).
    expect(tree.length).toBeGreaterThan(cluster.processes.length);
    expect(tree.filter(isAlive)).toEqual(tree);
    logs.length = 0;
    await cluster.stop();
    expect(tree.filter(isAlive)).toEqual([]);
    expect(logs.map((line) => line.replace(/ \(pid \d+\)$/, ''))).toEqual([
      'stopping haproxy',
      'stopping instance i2',
      'stopping instance i1',
      'closing the Upstash REST endpoint',
      'stopping redis',
      'stopping postgres replica',
      'dropping the replication slot',
      'stopping postgres primary',
    ]);
    await expect(fetch(`${cluster.url}/api/health`)).rejects.toThrow();
  });
});
