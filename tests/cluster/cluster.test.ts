// The service as `npm run demo:cluster` runs it, started once by the same code (scripts/cluster) with
// two instances on the tests' build and the tiny demo data, in a folder of its own: one cluster for
// every test here, since starting one takes most of a minute.
//
// The pieces: HAProxy sends requests to each instance in turn, the instances see the client address
// HAProxy saw (not one a caller wrote) and count one rate limit between them in the cluster's Redis, a
// row written on the primary streams to the read-only replica, PgBouncer in transaction mode reaches
// the primary, and stop() ends every process the cluster started, their children included.
//
// What a user sees of it: every request goes through the balancer, which answers each one from the
// other instance than the last (round robin) and names it in X-Cluster-Instance. One key's rate limit,
// an OAuth sign-in and its refresh tokens, the sign-in throttle and the registration limit behave as
// on one instance; a write on the primary changes every instance's next answer; a revocation holds
// while the replica lags, and every endpoint answers while it is down; Redis down means per-instance
// limits and no error, Redis back shared limits again; and an instance stopped under load loses no
// request. The pieces come first, then the outages, then the instance stop, and stop() last.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RATE_LIMIT } from '@/lib/contract/limits';
import { SCOPES } from '@/lib/contract/scopes';
import { SIGN_IN_RULES } from '@/lib/session/throttle';
import { RETRY_PRIMARY_AFTER_MS } from '@/lib/ratelimit/fallback';
import { csrfTokenFor } from '@/lib/session/tokens';
import { startCluster, type Cluster, type ClusterInstance } from '../../scripts/cluster';
import { startPgBouncer } from '../../scripts/cluster/pgbouncer';
import { withClient } from '../../scripts/cluster/postgres';
import { isAlive, requireProgram, Supervisor, waitFor } from '../../scripts/cluster/processes';
import { queryPrometheus } from '../../scripts/cluster/prometheus';
import { awayFromWindowEdge } from '../support/rate-limit-window';
import { postRpc } from '../integration/mcp-support';
import { mintKey } from '../support/api';
import { logMessages } from '../support/log-lines';
import { everyOperationPath } from '../support/every-operation';
import { ensureTestBuild, TEST_DIST_DIR } from '../support/http-server';
import { CookieJar, consentOverHttp, discover, exchangeCode, authorizationUrl, oauthError, postRefresh, refresh, register, sessionOf } from '../support/oauth-flow';
import { actionPost, pageAction } from '../support/page-actions';
import { rawRequest } from '../support/raw-request';
import { postSignIn, signInActionFields, signInAlert } from '../support/sign-in-form';

const INSTANCE = 'x-cluster-instance';
const PASSWORD = 'demo-password';
const WRONG = 'That email and password do not match an account.';
const THROTTLED = /^Too many failed sign-in attempts from your network\. Wait 1[45] minutes and try again\.$/;
const REDIRECT = 'http://127.0.0.1:9/callback';

let dir: string;
let cluster: Cluster;
const logs: string[] = [];
let demoOrg: string;
const saved = { ...process.env };

beforeAll(async () => {
  await ensureTestBuild();
  dir = mkdtempSync(path.join(os.tmpdir(), 'metrics-cluster-'));
  // As root PostgreSQL runs as `postgres`, which must traverse the folder to its data.
  chmodSync(dir, 0o755);
  // Crashed pieces are started again after half a second (a deployment waits longer, see DEFAULT_RESTART_POLICY).
  cluster = await startCluster({ instances: 2, dir, scale: 'tiny', distDir: TEST_DIST_DIR, log: (line) => logs.push(line), restart: { delaysMs: [500], maxExits: 5, windowMs: 60_000 } });
  console.info(`cluster of 2 instances (tiny data, fresh folder) started in ${cluster.startupSeconds.toFixed(1)} s`);
  // Keys and sessions are written where the instances read them: lib/db reads this when it first connects.
  process.env.DATABASE_URL = cluster.primaryUrl;
  demoOrg = await onPrimary(async (client) => (await client.query<{ id: string }>(`SELECT id FROM organizations WHERE slug = 'demo-agency'`)).rows[0]!.id);
}, 600_000);

afterAll(async () => {
  const { closeDb } = await import('@/lib/db');
  await closeDb();
  process.env = saved;
  await cluster?.stop();
  // KEEP_CLUSTER_DIR=1 keeps the folder, with every process's log, to look into a failure.
  if (dir && !process.env.KEEP_CLUSTER_DIR) rmSync(dir, { recursive: true, force: true });
  else if (dir) console.info(`the cluster's folder, logs included: ${dir}`);
});

const onPrimary = <T>(work: Parameters<typeof withClient<T>>[1]) => withClient(cluster.primaryUrl, work);

/** A key of the demo organisation with every scope, minted on the primary. */
const demoKey = (name: string) => mintKey({ orgId: demoOrg, scopes: [...SCOPES], name });

/** A GET through the balancer (or `origin`), with `key` when given. */
function get(pathAndQuery: string, key?: string, origin = cluster.url): Promise<Response> {
  return fetch(`${origin}${pathAndQuery}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
}

/** Every origin a request can reach an instance by: each instance directly, and the balancer once per instance. */
const everyWay = () => [...cluster.instances.map((instance) => instance.url), ...cluster.instances.map(() => cluster.url)];

type Readiness = { status: string; checks: { replica: { state: string; reason?: string }; rateLimiter: { backend: string; state: string; counting: string } } };

async function readiness(instance: ClusterInstance): Promise<Readiness> {
  const response = await fetch(`${instance.url}/api/health/ready`);
  expect(response.status).toBe(200);
  return (await response.json()) as Readiness;
}

/** Polls every instance's readiness (a check stands for a second) until `done` holds for each. */
async function everyInstanceReady(what: string, done: (body: Readiness) => boolean): Promise<void> {
  for (const instance of cluster.instances) {
    await waitFor(`instance ${instance.id}'s readiness to show ${what}`, async () => (done(await readiness(instance)) ? true : undefined), { timeoutMs: 30_000 });
  }
}

const logOf = (instance: ClusterInstance) => logMessages(readFileSync(instance.logFile, 'utf8'));

/**
 * Waits for a line of a running instance's log to match `line`. The logger writes asynchronously
 * (pino), so a line may land in the file just after the answer that followed it.
 */
const logComesToMatch = (instance: ClusterInstance, line: RegExp) => vi.waitFor(() => expect(logOf(instance)).toMatch(line), { timeout: 5_000, interval: 50 });

/** Records which instance answered each fetch() through the balancer (helpers and oauth4webapi included). */
function recordInstances(): { served: { request: string; instance: string }[]; stop(): void } {
  const served: { request: string; instance: string }[] = [];
  const realFetch = globalThis.fetch;
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const response = await realFetch(input, init);
    const instance = response.headers.get(INSTANCE);
    const request = new Request(input, init);
    if (instance) served.push({ request: `${request.method} ${new URL(request.url).pathname}`, instance });
    return response;
  });
  return { served, stop: () => spy.mockRestore() };
}

/** Each answer from the other instance than the one before. */
function expectAlternating(instances: string[]): void {
  expect(new Set(instances)).toEqual(new Set(['i1', 'i2']));
  for (let index = 1; index < instances.length; index += 1) expect(instances[index], `request ${index}`).not.toBe(instances[index - 1]);
}

/** A failed sign-in through the balancer from `address`: its form message and the instance that answered. */
async function failedSignIn(fields: [string, string][], email: string, password: string, address: string) {
  const response = await postSignIn(cluster.url, { fields, email, password, localAddress: address });
  expect(response.status).toBe(200);
  expect(response.headers.get('set-cookie')).toBeNull();
  return { alert: signInAlert(await response.text()), instance: response.headers.get(INSTANCE)! };
}

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
    expect(cluster.processes.map((process) => process.name)).toEqual(['postgres primary', 'postgres replica', 'redis', 'instance i1', 'instance i2', 'haproxy', 'prometheus']);
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
      const pooler = await startPgBouncer(supervisor, requireProgram('pgbouncer', 'pgbouncer', 'the connection pooler'), cluster.primaryUrl, {
        delaysMs: [200],
        maxExits: 5,
        windowMs: 60_000,
      });
      // The admin console: the database `pgbouncer` at the same address.
      const adminConsole = new URL(pooler.url);
      adminConsole.pathname = '/pgbouncer';
      const settings = await withClient(adminConsole.href, async (client) => (await client.query<{ key: string; value: string }>('SHOW CONFIG')).rows);
      expect(settings.find((setting) => setting.key === 'pool_mode')?.value).toBe('transaction');
      const token = `pooled-${Date.now()}`;
      await withClient(pooler.url, (client) => client.query('INSERT INTO cluster_check (token) VALUES ($1)', [token]));
      expect(await replicated('cluster_check', token)).toBe(token);
      // Killed, it is started again with its configuration, on its port.
      process.kill(pooler.service.pid, 'SIGKILL');
      await waitFor('PgBouncer back', () => withClient(pooler.url, async (client) => (await client.query('SELECT 1')).rowCount === 1 || undefined), { timeoutMs: 20_000 });
    } finally {
      await supervisor.stopAll();
    }
    expect(supervisor.services.map((service) => [service.name, service.exitStatus()])).toEqual([['pgbouncer', '0']]);
  });
});

describe("the instances' metrics, in Prometheus", () => {
  it('Prometheus scrapes every instance: the sum over instances of the request histogram', async () => {
    const key = await demoKey('cluster metrics');
    // A method no other test sends: 405, one sample of its own label set per request.
    for (let request = 0; request < 6; request++) expect((await fetch(`${cluster.url}/api/v1/me`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } })).status).toBe(405);
    const series = 'http_server_request_duration_seconds_count{http_request_method="DELETE",http_route="/api/v1/me",http_response_status_code="405",door="rest"}';
    // Scraped every SCRAPE_INTERVAL_SECONDS: wait for the scrape after the last request.
    const total = await waitFor(
      'Prometheus to have scraped every request',
      async () => {
        const [sum] = await queryPrometheus(cluster.prometheusUrl!, `sum(${series})`);
        return sum?.value === 6 ? sum.value : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(total).toBe(6);
    // Round robin: three each, under each instance's INSTANCE_ID.
    const byInstance = await queryPrometheus(cluster.prometheusUrl!, `sum by (instance) (${series})`);
    expect(byInstance.map(({ metric, value }) => [metric.instance, value]).sort()).toEqual([
      ['i1', 3],
      ['i2', 3],
    ]);
  });
});

describe('one key, limited once across the instances', () => {
  it(`75 requests spread over both instances: exactly ${RATE_LIMIT.limit} answered, 15 refused with 429, the headers of one window`, async () => {
    const key = await demoKey('cluster rate limit');
    await awayFromWindowEdge(15_000);
    const answers: Response[] = [];
    // Five at a time: spread over the instances, and in flight together.
    for (let batch = 0; batch < 15; batch += 1) answers.push(...(await Promise.all(Array.from({ length: 5 }, () => get('/api/v1/me', key)))));
    const statuses = answers.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(75 - RATE_LIMIT.limit);
    const header = (name: string) => answers.map((response) => response.headers.get(name));
    expect(new Set(header('x-ratelimit-limit'))).toEqual(new Set([String(RATE_LIMIT.limit)]));
    expect(new Set(header('x-ratelimit-reset')).size).toBe(1);
    // Counted once each, in one window: the answered ones left 59, 58, … 0 (whatever the order they came back in).
    const remaining = answers.filter((response) => response.status === 200).map((response) => Number(response.headers.get('x-ratelimit-remaining')));
    expect(remaining.sort((a, b) => b - a)).toEqual(Array.from({ length: RATE_LIMIT.limit }, (_, index) => RATE_LIMIT.limit - 1 - index));
    for (const refused of answers.filter((response) => response.status === 429)) {
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(RATE_LIMIT.windowSeconds);
    }
    for (const answered of answers.filter((response) => response.status === 200)) expect(answered.headers.get('retry-after')).toBeNull();
    const served = header(INSTANCE);
    expect(served.filter((instance) => instance === 'i1').length).toBeGreaterThanOrEqual(30);
    expect(served.filter((instance) => instance === 'i2').length).toBeGreaterThanOrEqual(30);
  });
});

describe('OAuth across instances', () => {
  it('a sign-in whose sign-in, authorize, consent, resume and token requests each land on the other instance works', async () => {
    const as = await discover(cluster.url);
    const client = await register(as, { client_name: 'Cluster client', redirect_uris: [REDIRECT] });
    const fields = await signInActionFields(cluster.url);
    const signedIn = await postSignIn(cluster.url, { fields, email: 'admin@demo.agency', password: PASSWORD, localAddress: '127.0.0.1' });
    expect(signedIn.status).toBe(303);
    const session = signedIn.headers.get('set-cookie')!.match(/^metrics_session=([A-Za-z0-9_-]{43});/)![1]!;

    const recorder = recordInstances();
    try {
      const start = await authorizationUrl(as, client.client_id, REDIRECT);
      const callback = await consentOverHttp(cluster.url, new CookieJar(), session, start.url, { decision: 'allow', orgId: demoOrg });
      const tokens = await exchangeCode(as, client, callback, start, REDIRECT);
      expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'ads:read social:read' });
      const listed = await postRpc(cluster.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: tokens.access_token });
      expect(listed.status).toBe(200);
      expect(recorder.served.map(({ request }) => request)).toEqual([
        'GET /oauth/authorize',
        expect.stringMatching(/^POST \/consent\/[A-Za-z0-9_-]+\/decision$/) as unknown,
        expect.stringMatching(/^GET \/oauth\/authorize\/[A-Za-z0-9_-]+$/) as unknown,
        'POST /oauth/token',
        'POST /api/mcp',
      ]);
      expectAlternating([signedIn.headers.get(INSTANCE)!, ...recorder.served.map(({ instance }) => instance)]);
    } finally {
      recorder.stop();
    }
  });

  /** A client with a fresh grant of the demo organisation's admin, through the balancer. */
  async function connected() {
    const as = await discover(cluster.url);
    const client = await register(as, { client_name: 'Cluster client', redirect_uris: [REDIRECT] });
    const fields = await signInActionFields(cluster.url);
    const signedIn = await postSignIn(cluster.url, { fields, email: 'admin@demo.agency', password: PASSWORD, localAddress: '127.0.0.1' });
    const session = signedIn.headers.get('set-cookie')!.match(/^metrics_session=([A-Za-z0-9_-]{43});/)![1]!;
    const start = await authorizationUrl(as, client.client_id, REDIRECT);
    const callback = await consentOverHttp(cluster.url, new CookieJar(), session, start.url, { decision: 'allow', orgId: demoOrg });
    return { as, client, tokens: await exchangeCode(as, client, callback, start, REDIRECT) };
  }

  it('a rotated refresh token replayed on the other instance revokes the grant everywhere', async () => {
    const { as, client, tokens } = await connected();
    const recorder = recordInstances();
    try {
      const rotated = await refresh(as, client, tokens.refresh_token!);
      const next = await refresh(as, client, rotated.refresh_token!);
      // The first token again, after its successor was used: a replay.
      expect(await oauthError(refresh(as, client, tokens.refresh_token!))).toBe('invalid_grant');
      expect(await oauthError(refresh(as, client, next.refresh_token!))).toBe('invalid_grant');
      for (const origin of cluster.instances.map(() => cluster.url)) {
        expect((await postRpc(origin, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: next.access_token })).status).toBe(401);
      }
      expectAlternating(recorder.served.map(({ instance }) => instance));
    } finally {
      recorder.stop();
    }
  });

  it('10 parallel refreshes of one token over both instances: exactly one wins, the others are invalid_grant', async () => {
    const { client, tokens } = await connected();
    const recorder = recordInstances();
    try {
      const answers = await Promise.all(Array.from({ length: 10 }, () => postRefresh(cluster.url, client.client_id, tokens.refresh_token!)));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      for (const lost of answers.filter((answer) => answer.status !== 200)) {
        expect(lost).toEqual({
          status: 400,
          contentType: 'application/json; charset=utf-8',
          body: { error: 'invalid_grant', error_description: 'this refresh token was already used: a concurrent request rotated it. Use the newest refresh token, or sign in again' },
        });
      }
      expect(new Set(recorder.served.map(({ instance }) => instance))).toEqual(new Set(['i1', 'i2']));
      const winner = answers.find((answer) => answer.status === 200)!.body;
      expect((await postRpc(cluster.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: winner.access_token as string })).status).toBe(200);
    } finally {
      recorder.stop();
    }
  });
});

describe('limits on sign-in and registration count across instances', () => {
  it(`${SIGN_IN_RULES.accountAddress.maxFailures} failures on one account from one address over both instances refuse the next attempt, as on one instance`, async () => {
    const fields = await signInActionFields(cluster.url);
    const failures = [];
    for (let i = 0; i < SIGN_IN_RULES.accountAddress.maxFailures; i += 1) failures.push(await failedSignIn(fields, 'admin@other.agency', `wrong-${i}`, '127.0.0.31'));
    expect(failures.map(({ alert }) => alert)).toEqual(failures.map(() => WRONG));
    expectAlternating(failures.map(({ instance }) => instance));
    // The right password now, on either instance: refused.
    for (let i = 0; i < 2; i += 1) expect((await failedSignIn(fields, 'admin@other.agency', PASSWORD, '127.0.0.31')).alert).toMatch(THROTTLED);
  });

  it(`${SIGN_IN_RULES.address.maxFailures} failures from one address over both instances refuse its next attempt`, async () => {
    const fields = await signInActionFields(cluster.url);
    const alerts = [];
    for (let i = 0; i <= SIGN_IN_RULES.address.maxFailures; i += 1) alerts.push((await failedSignIn(fields, `guess-${i}@demo.agency`, 'wrong', '127.0.0.32')).alert);
    expect(alerts.slice(0, -1)).toEqual(Array.from({ length: SIGN_IN_RULES.address.maxFailures }, () => WRONG));
    expect(alerts.at(-1)).toMatch(THROTTLED);
  });

  it(`registration: ${RATE_LIMIT.limit} a minute from one address over both instances, then 429`, async () => {
    await awayFromWindowEdge(15_000);
    const answers: Response[] = [];
    for (let i = 0; i <= RATE_LIMIT.limit; i += 1) {
      answers.push(
        await rawRequest(`${cluster.url}/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          pieces: [JSON.stringify({ client_name: `Registration ${i}`, redirect_uris: [REDIRECT] })],
          localAddress: '127.0.0.33',
        }),
      );
    }
    expect(answers.slice(0, -1).map((response) => response.status)).toEqual(Array.from({ length: RATE_LIMIT.limit }, () => 201));
    const refused = answers.at(-1)!;
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'invalid_request', error_description: 'too many registrations from this address; try again later' });
    expectAlternating(answers.map((response) => response.headers.get(INSTANCE)!));
  });
});

describe('the synced data, read from the replica', () => {
  /** The demo organisation's ad spend on `date` as /ads/overview answers it from `origin`. */
  async function spendOn(date: string, key: string, origin: string): Promise<{ spend: number; etag: string }> {
    const response = await get(`/api/v1/ads/overview?from=${date}&to=${date}`, key, origin);
    expect(response.status).toBe(200);
    return { spend: ((await response.json()) as { data: { kpis: { spend: number } } }).data.kpis.spend, etag: response.headers.get('etag')! };
  }

  it('a row changed on the primary, as a sync writes it, changes the next answer of every instance, directly and through the balancer', async () => {
    const key = await demoKey('cluster data change');
    // ctid: the row's place in the table, which names one row until it is updated.
    const [{ date, row }] = await onPrimary(
      async (client) =>
        (
          await client.query<{ date: string; row: string }>(
            `SELECT to_char(date, 'YYYY-MM-DD') AS date, ctid::text AS row FROM ad_insights_daily
              WHERE org_id = $1 AND level = 'account' AND spend > 0 ORDER BY date DESC LIMIT 1`,
            [demoOrg],
          )
        ).rows as [{ date: string; row: string }],
    );
    // Twice from each way in: the second answer is the cached one.
    const before = [];
    for (const origin of [...everyWay(), ...everyWay()]) before.push(await spendOn(date, key, origin));
    expect(new Set(before.map(({ spend }) => spend)).size).toBe(1);
    expect(new Set(before.map(({ etag }) => etag)).size).toBe(1);

    // The trigger on the table bumps the organisation's data version in the same transaction.
    const versions = () => onPrimary(async (client) => (await client.query<{ sum: string }>('SELECT sum(version)::text AS sum FROM data_versions WHERE org_id = $1', [demoOrg])).rows[0]!.sum);
    const versionBefore = await versions();
    await onPrimary((client) => client.query('UPDATE ad_insights_daily SET spend = spend + 1000 WHERE ctid = $1::tid', [row]));
    expect(BigInt(await versions())).toBeGreaterThan(BigInt(versionBefore));
    await cluster.replicaCaughtUp();

    for (const origin of everyWay()) {
      const after = await spendOn(date, key, origin);
      expect(after.spend, origin).toBeCloseTo(before[0]!.spend + 1000, 2);
      expect(after.etag).not.toBe(before[0]!.etag);
    }
  });
});

describe('the replica lagging, then down', () => {
  it('with the replay paused, a key revoked on the primary is refused on the next call of every instance', async () => {
    const key = await demoKey('cluster revoked');
    await everyInstanceReady('the replica in use', (body) => body.checks.replica.state === 'used');
    for (const origin of everyWay()) expect((await get('/api/v1/clients', key, origin)).status).toBe(200);
    await cluster.pauseReplicaReplay(true);
    try {
      await onPrimary((client) => client.query(`UPDATE api_keys SET revoked_at = now() WHERE name = 'cluster revoked'`));
      for (const origin of everyWay()) {
        const refused = await get('/api/v1/clients', key, origin);
        expect(refused.status, origin).toBe(401);
        expect(refused.headers.get('content-type')).toBe('application/problem+json');
      }
    } finally {
      await cluster.pauseReplicaReplay(false);
    }
  });

  it('with the replica stopped, every endpoint answers 200 from every instance, which log that they skip it', async () => {
    const key = await demoKey('cluster replica down');
    const [{ to }] = await onPrimary(
      async (client) => (await client.query<{ to: string }>(`SELECT to_char(max(date), 'YYYY-MM-DD') AS to FROM ad_insights_daily WHERE org_id = $1`, [demoOrg])).rows as [{ to: string }],
    );
    const paths = await everyOperationPath(cluster.primaryUrl, demoOrg, { from: `${to.slice(0, 4)}-01-01`, to });
    await cluster.stopReplica();
    try {
      for (const origin of everyWay()) {
        for (const pathAndQuery of paths) expect((await get(pathAndQuery, key, origin)).status, `${origin}${pathAndQuery}`).toBe(200);
      }
      await everyInstanceReady('the replica skipped', (body) => body.checks.replica.state === 'skipped' && body.status === 'degraded');
      for (const instance of cluster.instances) {
        await logComesToMatch(instance, /^\[db\] read replica skipped \((unreachable|a read failed)[^\n]*\): reading from the primary\.$/m);
      }
    } finally {
      await cluster.startReplica();
    }
    await everyInstanceReady('the replica in use again', (body) => body.checks.replica.state === 'used');
  });
});

describe('Redis down, then back', () => {
  it('every instance serves and signs in with limits and a throttle of its own, and says so; with Redis back the limit is shared again; never a 5xx', async () => {
    const statuses: number[] = [];
    const call = async (key: string) => {
      const response = await get('/api/v1/me', key);
      statuses.push(response.status);
      return response;
    };
    await cluster.stopRedis();
    try {
      await awayFromWindowEdge(20_000);
      const key = await demoKey('cluster redis down');
      // Each instance counts its own window of 60: twice as many pass through the balancer. It takes
      // the instances in turn, but one may answer two in a row (a request HAProxy sends again goes to
      // the other instance, see scripts/cluster/haproxy.ts; one CI run had 61 and 59), so each
      // instance's answers are read apart, until both have answered past their window.
      const byInstance = new Map<string, number[]>([['i1', []], ['i2', []]]);
      const past = () => [...byInstance.values()].every((answered) => answered.length > RATE_LIMIT.limit);
      for (let i = 0; i < 2 * RATE_LIMIT.limit + 10 && !past(); i += 1) {
        const response = await call(key);
        const instance = response.headers.get(INSTANCE) ?? 'none';
        expect([...byInstance.keys()], 'the instance that answered').toContain(instance);
        byInstance.get(instance)!.push(response.status);
      }
      for (const [instance, answered] of byInstance) {
        expect(answered.slice(0, RATE_LIMIT.limit), instance).toEqual(Array.from({ length: RATE_LIMIT.limit }, () => 200));
        expect(answered.length, instance).toBeGreaterThan(RATE_LIMIT.limit);
        expect(new Set(answered.slice(RATE_LIMIT.limit)), instance).toEqual(new Set([429]));
      }
      // A readiness check stands for a second: one made just before Redis stopped may still answer.
      await everyInstanceReady(
        'per-instance counting',
        (body) => body.status === 'degraded' && body.checks.rateLimiter.state === 'unreachable' && body.checks.rateLimiter.counting === 'per instance',
      );
      for (const instance of cluster.instances) {
        await logComesToMatch(instance, /^\[ratelimit\] upstash unreachable \([^\n]*\); counting limits in-process until it answers again\.$/m);
      }

      // The sign-in throttle counts in-process too: the right password signs in, and failures on one
      // account from one address are refused once each instance has counted its own limit of them.
      const fields = await signInActionFields(cluster.url);
      const signedIn = await postSignIn(cluster.url, { fields, email: 'member@demo.agency', password: PASSWORD, localAddress: '127.0.0.34' });
      statuses.push(signedIn.status);
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get('set-cookie')).toMatch(/^metrics_session=[A-Za-z0-9_-]{43};/);
      const { maxFailures } = SIGN_IN_RULES.accountAddress;
      const failures = [];
      for (let i = 0; i < cluster.instances.length * maxFailures; i += 1) failures.push(await failedSignIn(fields, 'admin@other.agency', `wrong-${i}`, '127.0.0.35'));
      expect(failures.map(({ alert }) => alert)).toEqual(failures.map(() => WRONG));
      expectAlternating(failures.map(({ instance }) => instance));
      for (let i = 0; i < cluster.instances.length; i += 1) expect((await failedSignIn(fields, 'admin@other.agency', PASSWORD, '127.0.0.35')).alert).toMatch(THROTTLED);
      for (const instance of cluster.instances) {
        await logComesToMatch(instance, /^\[sign-in throttle\] [^\n]*upstash unreachable \([^\n]*\); counting failures in-process until it answers again\.$/m);
      }
    } finally {
      await cluster.startRedis();
    }

    // Without a request, well before RETRY_PRIMARY_AFTER_MS: readiness's ping (HAProxy asks every 2 s) finds Redis back.
    const backAt = Date.now();
    await everyInstanceReady('shared counting', (body) => body.checks.rateLimiter.counting === 'shared' && body.status === 'ready');
    expect(Date.now() - backAt).toBeLessThan(RETRY_PRIMARY_AFTER_MS);
    for (const instance of cluster.instances) {
      await logComesToMatch(instance, /^\[ratelimit\] upstash reachable again; limits are counted there again\.$/m);
    }
    await awayFromWindowEdge(15_000);
    const key = await demoKey('cluster redis back');
    const answers = [];
    for (let i = 0; i <= RATE_LIMIT.limit; i += 1) answers.push(await call(key));
    expect(answers.slice(0, -1).map((response) => response.status)).toEqual(Array.from({ length: RATE_LIMIT.limit }, () => 200));
    expect(answers.at(-1)!.status).toBe(429);
    expect(answers.at(-1)!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  }, 120_000);
});

/**
 * One request's outcome through the balancer: its status (or what failed), the instance that answered
 * (known once the answer's head came, even when its body was then cut), and when it was sent and settled.
 */
type Outcome = { status: number | string; instance: string | null; sentAt: number; settledAt: number };

/**
 * A steady load through the balancer until stop(): `loops` loops, each with a key of its own, one
 * request after another with `pauseMs` between them (at least 1 s keeps a key under its 60 a minute
 * however long the load lasts).
 */
async function steadyLoad(name: string, loops: number, pauseMs: number) {
  const keys = await Promise.all(Array.from({ length: loops }, (_, index) => demoKey(`${name} ${index}`)));
  const outcomes: Outcome[] = [];
  let running = true;
  const done = Promise.all(
    keys.map(async (key) => {
      while (running) {
        const sentAt = Date.now();
        let instance: string | null = null;
        try {
          const response = await get('/api/v1/clients', key);
          instance = response.headers.get(INSTANCE);
          await response.arrayBuffer();
          outcomes.push({ status: response.status, instance, sentAt, settledAt: Date.now() });
        } catch (error) {
          // The cause says what failed (UND_ERR_SOCKET: the connection closed unanswered, or, after
          // "terminated", with the body cut).
          const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
          outcomes.push({ status: `${(error as Error).message}: ${cause?.code ?? cause?.message}`, instance, sentAt, settledAt: Date.now() });
        }
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    }),
  );
  return {
    outcomes,
    async stop() {
      running = false;
      await done;
      return outcomes;
    },
  };
}

/** HAProxy's log lines of requests that did not end normally (termination state other than `----`), to show beside a failure. */
const unusualBalancerLines = () =>
  readFileSync(path.join(cluster.logDir, 'haproxy.log'), 'utf8')
    .split('\n')
    .filter((line) => / [A-Za-z-]{4} \d+\/\d+\/\d+\/\d+\/\+?\d+ /.test(line) && !/ ---- \d/.test(line))
    .join('\n');

/** Seconds since `startedAt`, once `probe` holds (polled every 200 ms). */
async function secondsUntil(what: string, startedAt: number, probe: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  await waitFor(what, async () => ((await probe()) ? true : undefined), { timeoutMs });
  return (Date.now() - startedAt) / 1000;
}

/** Whether `instance` answers readiness `ready` directly (not through the balancer). */
const isReady = async (instance: ClusterInstance) => (await fetch(`${instance.url}/api/health/ready`).catch(() => null))?.status === 200;

/**
 * Resolves once the balancer sends requests to instance `id` (again): one failure at a time is the
 * case at hand, and an instance HAProxy has not taken back yet leaves the others alone.
 */
function inRotation(id: string): Promise<true> {
  return waitFor(`the balancer to send requests to ${id}`, async () => ((await (await fetch(`${cluster.url}/api/health`)).json()) as { instance: string }).instance === id || undefined, {
    timeoutMs: 20_000,
  });
}

describe('crashes, healed under load', () => {
  it('an instance drained by hand, an instance, Redis and the replica killed: each back (the instances with their INSTANCE_ID within 20 s, Redis and shared counting within 20 s, the replica made again and used within 120 s), no request failed but the answers the killed instance had begun to send', async () => {
    const load = await steadyLoad('cluster heal', 10, 1_000);
    const [first, second] = cluster.instances as [ClusterInstance, ClusterInstance];

    // A planned stop: SIGTERM sent by someone else than the cluster, a drain and exit 0.
    process.kill(second.pid, 'SIGTERM');
    await waitFor('the drained instance to be started again', async () => (cluster.instances[1]!.pid !== second.pid && (await isReady(cluster.instances[1]!)) ? true : undefined), {
      timeoutMs: 20_000,
    });
    expect(logs).toContain(`instance ${second.id} stopped cleanly (exit 0) without the cluster asking; starting it again in 0.5 s`);
    expect(logs.join('\n')).not.toMatch(new RegExp(`instance ${second.id} exited unexpectedly`));
    await inRotation(second.id);

    const instanceKilledAt = Date.now();
    process.kill(first.pid, 'SIGKILL');
    const instanceBack = await secondsUntil('the killed instance ready again', instanceKilledAt, async () => cluster.instances[0]!.pid !== first.pid && (await isReady(cluster.instances[0]!)), 20_000);
    expect(cluster.instances.map((instance) => [instance.id, instance.url])).toEqual([
      [first.id, first.url],
      [second.id, second.url],
    ]);
    expect(logs).toContain(`instance ${first.id} exited unexpectedly (SIGKILL); starting it again in 0.5 s`);
    await inRotation(first.id);

    let killedAt = Date.now();
    const redisPid = cluster.processes.find((process) => process.name === 'redis')!.pid;
    process.kill(redisPid, 'SIGKILL');
    const redisBack = await secondsUntil(
      'Redis back and every instance counting in it',
      killedAt,
      async () => {
        for (const instance of cluster.instances) if ((await readiness(instance)).checks.rateLimiter.counting !== 'shared') return false;
        return cluster.processes.find((process) => process.name === 'redis')!.pid !== redisPid;
      },
      20_000,
    );
    expect(logs).toContain('redis exited unexpectedly (SIGKILL); starting it again in 0.5 s');

    // Its control file gone, the replica cannot start from its folder again: it is made again.
    killedAt = Date.now();
    const replicaPid = cluster.processes.find((process) => process.name === 'postgres replica')!.pid;
    rmSync(path.join(dir, 'replica', 'global', 'pg_control'));
    process.kill(replicaPid, 'SIGKILL');
    const logsBefore = logs.length;
    const replicaBack = await secondsUntil(
      'the replica made again and used by every instance',
      killedAt,
      async () => {
        // Readiness may tell the verdict of a check made before the kill for a second more.
        if (!logs.slice(logsBefore).some((line) => line.startsWith('postgres replica started again'))) return false;
        for (const instance of cluster.instances) if ((await readiness(instance)).checks.replica.state !== 'used') return false;
        return true;
      },
      120_000,
    );
    expect(logs.slice(logsBefore)).toEqual([
      'postgres replica exited unexpectedly (SIGKILL); starting it again in 0.5 s',
      // PostgreSQL exits 2 when it finds no control file.
      'the replica cannot resume (postgres replica exited (2) before the replica to accept read-only connections): making it again from a new base backup',
      expect.stringMatching(/^base backup of the primary copied to /),
      expect.stringMatching(/^postgres replica started again \(pid \d+\)$/),
    ]);
    await cluster.replicaCaughtUp();

    const outcomes = await load.stop();
    console.info(`healed under load: instance back in ${instanceBack} s, Redis and shared counting in ${redisBack} s, the replica in ${replicaBack} s; ${outcomes.length} requests`);
    // HAProxy sends a request again elsewhere when nothing of its answer has come back (retry-on
    // conn-failure empty-response). An answer the killed instance had begun to send (its head, and the
    // body compressed on libuv's threads) cannot be sent again: it is cut, and the caller sees the
    // connection close. Only those may fail, and only in that way.
    const cutByTheKill = (outcome: Outcome) =>
      outcome.status === 'terminated: UND_ERR_SOCKET' && outcome.instance === first.id && outcome.sentAt <= instanceKilledAt && outcome.settledAt >= instanceKilledAt;
    const failed = outcomes.filter((outcome) => outcome.status !== 200);
    console.info(`answers cut by the kill: ${failed.filter(cutByTheKill).length}`);
    expect(
      failed.filter((outcome) => !cutByTheKill(outcome)),
      `instance ${first.id} killed at ${instanceKilledAt}; HAProxy's requests that did not end normally:\n${unusualBalancerLines()}`,
    ).toEqual([]);
    expect(new Set(outcomes.map((outcome) => outcome.instance))).toEqual(new Set([first.id, second.id]));

    // The balancer itself (no load: while it is down, nothing answers on its port).
    const haproxyPid = cluster.processes.find((process) => process.name === 'haproxy')!.pid;
    process.kill(haproxyPid, 'SIGKILL');
    const answered = new Set<string>();
    await waitFor(
      'HAProxy back, balancing over both instances',
      async () => {
        const response = await fetch(`${cluster.url}/api/health`).catch(() => null);
        if (response?.ok) answered.add(((await response.json()) as { instance: string }).instance);
        return answered.size === 2 ? true : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(logs).toContain('haproxy exited unexpectedly (SIGKILL); starting it again in 0.5 s');
  }, 240_000);
});

/**
 * The next build, for the roll-out: a copy of the tests' build under another BUILD_ID rather than a
 * second `next build` (1-3 minutes of both cores, beside the other test files). What differs between
 * two builds of the same code for what a page asks of the server: the BUILD_ID (an App Router page
 * whose server answers with another one reloads in full) and the deployment id, where there is one
 * (the tests' build has none). What a rebuild of unchanged code keeps, and so does a copy: the asset
 * names (hashes of their content) and the action ids, which Next.js salts with the server actions key
 * (one per cluster, given to every build and instance). What a copy cannot show: a build whose code
 * changed, where a moved action gets another id and an old page must reload before posting.
 */
function copyAsNextBuild(from: string, to: string): string {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, filter: (source) => source !== path.join(from, 'cache') });
  const oldId = readFileSync(path.join(to, 'BUILD_ID'), 'utf8');
  const newId = `rollout-${Date.now().toString(36)}`;
  renameSync(path.join(to, 'static', oldId), path.join(to, 'static', newId));
  writeFileSync(path.join(to, 'BUILD_ID'), newId);
  return newId;
}

describe('a roll-out under load', () => {
  it('to a build whose instance cannot start stops at that instance: the old instances keep serving, the balancer never saw it', async () => {
    const BROKEN_DIST_DIR = `${TEST_DIST_DIR}-broken`;
    copyAsNextBuild(TEST_DIST_DIR, BROKEN_DIST_DIR);
    // Next.js reads it when the server starts.
    rmSync(path.join(BROKEN_DIST_DIR, 'routes-manifest.json'));
    const before = cluster.instances;
    try {
      await expect(cluster.rollOut(BROKEN_DIST_DIR)).rejects.toThrow(
        'stopped before instance i1 was replaced (those not replaced keep serving): instance i3 exited (1) before instance i3 to be ready',
      );
    } finally {
      rmSync(BROKEN_DIST_DIR, { recursive: true, force: true });
    }
    expect(cluster.instances).toEqual(before);
    for (const instance of cluster.instances) expect(await isReady(instance)).toBe(true);
    expect(readFileSync(path.join(dir, 'haproxy.cfg'), 'utf8')).not.toMatch(/^\s+server i3 /m);
    // Stopped, and not started again (its restart, due half a second after its exit, is cancelled
    // unless the machine is slow enough for it to have happened: then the stop ends that one).
    expect(logs).toContain('instance i3 exited unexpectedly (1); starting it again in 0.5 s');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(isAlive(cluster.processes.find((process) => process.name === 'instance i3')!.pid)).toBe(false);
  });

  it('replaces every instance by one of the new build, one at a time; a settings form rendered by the old build posts to the new one; no request fails', async () => {
    const ROLLOUT_DIST_DIR = `${TEST_DIST_DIR}-rollout`;
    const newId = copyAsNextBuild(TEST_DIST_DIR, ROLLOUT_DIST_DIR);
    const old = cluster.instances;
    const admin = await onPrimary(async (client) => (await client.query<{ id: string }>(`SELECT id FROM users WHERE email = 'admin@demo.agency'`)).rows[0]!.id);
    const session = await sessionOf(admin);
    const cookie = `metrics_session=${session}`;
    // The form as the old build rendered it, with one of its scripts.
    const action = await pageAction(old[0]!.url, '/settings/api-keys', cookie);
    const page = await (await fetch(`${old[0]!.url}/settings/api-keys`, { headers: { cookie } })).text();
    const script = page.match(/<script src="(\/_next\/static\/chunks\/[^"]+)"/)![1]!;

    /** Posts the old page's form (as React does) to `origin`: a key named `name` is made. */
    const postForm = async (origin: string, name: string) => {
      const post = actionPost(action, [['csrf_token', csrfTokenFor(session)], ['name', name], ['scopes', 'ads:read'], ['clientAccess', 'all'], ['expiry', 'never']], 'fetch');
      const response = await fetch(`${origin}/settings/api-keys`, { method: 'POST', body: post.body, headers: { ...post.headers, cookie, origin }, redirect: 'manual' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/x-component');
      return onPrimary(async (client) => (await client.query<{ scopes: string[] }>('SELECT scopes FROM api_keys WHERE name = $1', [name])).rows);
    };

    const load = await steadyLoad('cluster roll-out', 10, 1_000);
    const rolling = cluster.rollOut(ROLLOUT_DIST_DIR);
    // During the roll-out: the first instance of the new build takes the old page's post.
    const newcomer = await waitFor('an instance of the new build', async () => cluster.instances.find((instance) => instance.buildId === newId), { timeoutMs: 120_000 });
    await waitFor('it to be ready', async () => ((await isReady(newcomer)) ? true : undefined), { timeoutMs: 60_000 });
    expect(await postForm(newcomer.url, `roll-out during ${newId}`)).toEqual([{ scopes: ['ads:read'] }]);
    await rolling;
    // The load goes on a little: the last instance started takes its share too.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const outcomes = await load.stop();
    rmSync(ROLLOUT_DIST_DIR, { recursive: true, force: true });

    expect(cluster.instances.map((instance) => instance.buildId)).toEqual(old.map(() => newId));
    // i3 was the instance of the build that could not start, above.
    expect(cluster.instances.map((instance) => instance.id)).toEqual(['i4', 'i5']);
    for (const previous of old) {
      expect(logs).toContainEqual(expect.stringMatching(new RegExp(`^instance ${previous.id} \\(build [\\w-]+\\) replaced by i\\d \\(build ${newId}\\)$`)));
      expect(isAlive(previous.pid)).toBe(false);
      expect(logOf(previous)).toMatch(/^\[server\] drained in \d+ ms\.$/m);
    }
    // After it, through the balancer: the old page's form, and its script.
    expect(await postForm(cluster.url, `roll-out after ${newId}`)).toEqual([{ scopes: ['ads:read'] }]);
    const asset = await fetch(`${cluster.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get(INSTANCE)).toMatch(/^i[45]$/);
    // A file of the old build only (in the folder named by its BUILD_ID; the copy's is named by its
    // own), from the new instances: the static files of every build the cluster served stay.
    expect(existsSync(path.join(TEST_DIST_DIR, 'static', old[0]!.buildId, '_buildManifest.js'))).toBe(true);
    const oldOnly = await fetch(`${cluster.url}/_next/static/${old[0]!.buildId}/_buildManifest.js`);
    expect(oldOnly.status).toBe(200);
    expect(oldOnly.headers.get(INSTANCE)).toMatch(/^i[45]$/);

    expect(
      outcomes.filter((outcome) => outcome.status !== 200),
      unusualBalancerLines(),
    ).toEqual([]);
    // Each instance, old and new, answered some of the load.
    expect(new Set(outcomes.map((outcome) => outcome.instance))).toEqual(new Set([...old.map((instance) => instance.id), 'i4', 'i5']));
  }, 240_000);
});

describe('an instance stopped under load', () => {
  it('SIGTERM to one instance during a steady load through the balancer: no request fails, and it drains and exits 0', async () => {
    const [kept, stopped] = cluster.instances as [ClusterInstance, ClusterInstance];
    // One key per loop, a request every 150 ms for 8 s: under its limit of 60 a minute, so every answer should be a 200.
    const load = await steadyLoad('cluster load', 20, 150);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const status = await cluster.stopInstance(stopped.id);
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    const outcomes = await load.stop();
    expect(status).toBe('0');
    expect(
      outcomes.filter((outcome) => outcome.status !== 200),
      unusualBalancerLines(),
    ).toEqual([]);
    // A steady load: every loop kept sending (on a quiet machine about 500 requests; under a load average of 18, 190).
    expect(outcomes.length).toBeGreaterThan(20 * 4);
    expect(outcomes.filter((outcome) => outcome.instance === stopped.id).length).toBeGreaterThan(0);
    expect(outcomes.slice(-20).every((outcome) => outcome.instance === kept.id)).toBe(true);
    // Stopped by the cluster: not started again.
    expect(logs.join('\n')).not.toMatch(new RegExp(`^instance ${stopped.id} (exited|stopped cleanly)`, 'm'));
    const log = logOf(stopped);
    expect(log).toMatch(/^\[server\] draining: \d+ requests in flight, \d+ connections open\.$/m);
    expect(log).toMatch(/^\[server\] drained in \d+ ms\.$/m);
  }, 60_000);
});

describe('the supervisor', () => {
  it('starts a process that keeps exiting again after its waits, then gives up on it and says so', async () => {
    const lines: string[] = [];
    const supervisor = new Supervisor(path.join(dir, 'supervisor-check'), (line) => lines.push(line));
    await supervisor.prepare();
    try {
      supervisor.start('failing', process.execPath, ['-e', 'process.exit(3)'], { stopSignal: 'SIGTERM', graceMs: 1_000, restart: { delaysMs: [100, 200], maxExits: 2, windowMs: 60_000 } });
      await waitFor('the supervisor to give up', async () => (lines.some((line) => line.includes('not started again')) ? true : undefined), { timeoutMs: 10_000 });
    } finally {
      await supervisor.stopAll();
    }
    expect(lines.slice(0, 5)).toEqual([
      'failing exited unexpectedly (3); starting it again in 0.1 s',
      expect.stringMatching(/^failing started again \(pid \d+\)$/),
      'failing exited unexpectedly (3); starting it again in 0.2 s',
      expect.stringMatching(/^failing started again \(pid \d+\)$/),
      `failing exited unexpectedly (3): 3 exits within 60 s, so it is not started again; see ${path.join(dir, 'supervisor-check', 'logs', 'failing.log')}`,
    ]);
  });

  it('goes on with the shutdown when a step does not end within its time', async () => {
    const lines: string[] = [];
    const supervisor = new Supervisor(path.join(dir, 'supervisor-check'), (line) => lines.push(line));
    await supervisor.prepare();
    supervisor.onStop('a step before', async () => {});
    supervisor.onStop('a step that never ends', () => new Promise(() => {}), 300);
    const startedAt = Date.now();
    await supervisor.stopAll();
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    expect(lines).toEqual(['a step that never ends', 'a step that never ends: not done after 0.3 s, going on', 'a step before']);
  });
});

describe('stopping the cluster', () => {
  it('with Redis down, stop() ends every process the cluster started, their children included, in the reverse order, within 60 s', async () => {
    // Redis stopped by the cluster stays down: the REST endpoint in front of it must still close at once.
    await cluster.stopRedis();
    const running = cluster.processes.filter((process) => isAlive(process.pid));
    expect(running.map((process) => process.name)).toEqual(['postgres primary', 'postgres replica', 'haproxy', 'prometheus', 'instance i4']);
    const tree = processTree(running.map((process) => process.pid));
    // Each PostgreSQL server has its own processes (checkpointer, WAL sender and receiver, …). The tree
    // is read from `ps`, so each was alive then; a connection's backend may end on its own before stop().
    expect(tree.length).toBeGreaterThan(running.length);
    logs.length = 0;
    const startedAt = Date.now();
    await cluster.stop();
    expect(Date.now() - startedAt).toBeLessThan(60_000);
    expect(tree.filter(isAlive)).toEqual([]);
    // Every instance ever started has a step (those stopped before end at once); the balancer's comes first.
    expect(logs.map((line) => line.replace(/ \(pid \d+\)$/, ''))).toEqual([
      'stopping haproxy',
      'stopping instance i5',
      'stopping instance i4',
      'stopping instance i3',
      'stopping prometheus',
      'stopping instance i2',
      'stopping instance i1',
      "removing the cluster's copies of the builds",
      'closing the Upstash REST endpoint',
      'stopping redis',
      'stopping postgres replica',
      'dropping the replication slot',
      'stopping postgres primary',
    ]);
    await expect(fetch(`${cluster.url}/api/health`)).rejects.toThrow();
  });
});
