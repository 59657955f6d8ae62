// What the production server (scripts/server.mjs) adds to Next.js, through that server without
// TRUST_PROXY: each request's socket address reaches the server actions and route handlers (the sign-in
// throttle, the registration limit, the REST API's limit on requests without a key) and no header a
// caller writes changes it; and the connection limits, which cut a trickled body within their bound
// and log a cut or aborted request in one line; and what it starts with (bounded memory, its compiled
// code kept with the build). Clients are told apart by their source address: every
// address of 127.0.0.0/8 is this machine's.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { RATE_LIMIT } from '@/lib/contract/limits';
import { SIGN_IN_RULES } from '@/lib/session/throttle';
import { startTestServer, TEST_DIST_DIR, type TestServer } from '../support/http-server';
import { keptCodeDir, SERVER_SCRIPT } from '../support/production-server';
import { rawExchange, rawRequest } from '../support/raw-request';
import { postSignIn, signInActionFields, signInAlert } from '../support/sign-in-form';
import { awayFromWindowEdge } from '../support/rate-limit-window';

const PASSWORD = 'demo-password';
const WRONG = 'That email and password do not match an account.';
const THROTTLED = /^Too many failed sign-in attempts from your network\. Wait 1[45] minutes and try again\.$/;

const KEPT_CODE = keptCodeDir(TEST_DIST_DIR);

let server: TestServer;
let fields: [string, string][];

beforeAll(async () => {
  // The stand-in for a held event loop (tests/support/stall-on-signal.mjs) is loaded: SIGUSR2 holds it.
  const stallOnSignal = fileURLToPath(new URL('../support/stall-on-signal.mjs', import.meta.url));
  // Without the test run's own compile cache (tests/run.sh), as `npm start` runs; the build's is emptied first.
  rmSync(KEPT_CODE, { recursive: true, force: true });
  server = await startTestServer({
    databaseUrl: inject('databaseUrl'),
    env: { TRUST_PROXY: '0', NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import="${stallOnSignal}"`, NODE_COMPILE_CACHE: undefined },
  });
  fields = await signInActionFields(server.origin);
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

const signIn = (email: string, password: string, localAddress: string, headers: Record<string, string> = {}) =>
  postSignIn(server.origin, { fields, email, password, localAddress, headers });

/** A failed sign-in's answer: the login page again (200, HTML) with the form's message. */
async function failure(response: Response): Promise<string | null> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('set-cookie')).toBeNull();
  return signInAlert(await response.text());
}

/** A sign-in that opened a session: 303 to the settings with the session cookie. */
function expectSignedIn(response: Response): void {
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe('/settings/api-keys');
  expect(response.headers.get('set-cookie')).toMatch(/^metrics_session=[A-Za-z0-9_-]{43};/);
}

describe('the sign-in throttle counts by the socket address', () => {
  it('200 failed sign-ins from one address leave a correct sign-in from another working at once', async () => {
    const alerts: Record<string, number> = {};
    for (let i = 0; i < 200; i += 1) {
      // Half on the admin (5 failures lock it from this address only), half spraying other emails.
      const email = i % 2 === 0 ? 'admin@demo.agency' : `guess-${i}@demo.agency`;
      const alert = (await failure(await signIn(email, `wrong-${i}`, '127.0.0.2')))!;
      const kind = alert === WRONG ? 'wrong' : THROTTLED.test(alert) ? 'throttled' : alert;
      alerts[kind] = (alerts[kind] ?? 0) + 1;
    }
    expect(alerts).toEqual({ wrong: SIGN_IN_RULES.address.maxFailures, throttled: 200 - SIGN_IN_RULES.address.maxFailures });
    expect(THROTTLED.test((await failure(await signIn('admin@demo.agency', PASSWORD, '127.0.0.2')))!)).toBe(true);

    expectSignedIn(await signIn('admin@demo.agency', PASSWORD, '127.0.0.3'));
    expectSignedIn(await signIn('member@demo.agency', PASSWORD, '127.0.0.3'));
  }, 180_000);

  it('refuses an account from the address that failed 5 times on it, and from nowhere else', async () => {
    for (let i = 0; i < SIGN_IN_RULES.accountAddress.maxFailures; i += 1) {
      expect(await failure(await signIn('admin@other.agency', `wrong-${i}`, '127.0.0.4'))).toBe(WRONG);
    }
    expect(await failure(await signIn('admin@other.agency', PASSWORD, '127.0.0.4'))).toMatch(THROTTLED);
    // The same address may still sign in to another account; another address to this one.
    expectSignedIn(await signIn('member@demo.agency', PASSWORD, '127.0.0.4'));
    expectSignedIn(await signIn('admin@other.agency', PASSWORD, '127.0.0.5'));
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: a forged header neither escapes the throttle nor locks out its target', async () => {
    for (let i = 0; i < SIGN_IN_RULES.accountAddress.maxFailures; i += 1) {
      // Naming 127.0.0.7 changes nothing: these count for 127.0.0.6, their socket's address.
      expect(await failure(await signIn('member@demo.agency', `wrong-${i}`, '127.0.0.6', { 'x-forwarded-for': '127.0.0.7' }))).toBe(WRONG);
    }
    expect(await failure(await signIn('member@demo.agency', PASSWORD, '127.0.0.6', { 'x-forwarded-for': '127.0.0.8' }))).toMatch(THROTTLED);
    expectSignedIn(await signIn('member@demo.agency', PASSWORD, '127.0.0.7'));
  });
});

describe('limits on requests without a credential count by the socket address', () => {
  const register = (localAddress: string) =>
    rawRequest(`${server.origin}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.50' },
      pieces: [JSON.stringify({ redirect_uris: ['http://127.0.0.1:43117/callback'] })],
      localAddress,
    });

  it(`registration: ${RATE_LIMIT.limit} a minute from one address, while another address registers at once`, async () => {
    await awayFromWindowEdge();
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMIT.limit; i += 1) statuses.push((await register('127.0.0.10')).status);
    expect(statuses).toEqual([...Array<number>(RATE_LIMIT.limit).fill(201), 429]);

    const other = await register('127.0.0.11');
    expect(other.status).toBe(201);
    expect(other.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await other.json()).toMatchObject({ redirect_uris: ['http://127.0.0.1:43117/callback'] });
  });

  it('the REST API: each address has its own window, whatever X-Forwarded-For says', async () => {
    await awayFromWindowEdge();
    const remaining = async (localAddress: string, forwardedFor: string) => {
      const response = await rawRequest(`${server.origin}/api/v1/me`, { method: 'GET', headers: { 'x-forwarded-for': forwardedFor }, pieces: [], localAddress });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      return Number(response.headers.get('x-ratelimit-remaining'));
    };
    expect(await remaining('127.0.0.12', '198.51.100.1')).toBe(RATE_LIMIT.limit - 1);
    expect(await remaining('127.0.0.12', '198.51.100.2')).toBe(RATE_LIMIT.limit - 2);
    expect(await remaining('127.0.0.13', '198.51.100.1')).toBe(RATE_LIMIT.limit - 1);
  });
});

/** Bytes sent on a raw connection, each after `pauseMs`; resolves with what came back once the server closed it. */
/** What the server answers on a connection from `localAddress` on which `send` writes, until it closes. */
function exchange(localAddress: string, send: (socket: net.Socket) => Promise<void>): Promise<string> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: Number(port), localAddress });
    let answer = '';
    socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A byte written just after the server answered and closed makes its kernel reset the
      // connection; the answer before the reset has been read, and it is what the test is about.
      if (error.code === 'ECONNRESET' && answer !== '') resolve(answer);
      else reject(error);
    });
    socket.on('close', () => resolve(answer));
    socket.once('connect', () => void send(socket));
  });
}

/** Writes `chunks` one every `pauseMs`, as long as the server keeps the connection and has not answered; its answer. */
function trickle(chunks: string[], pauseMs: number, localAddress: string): Promise<string> {
  return exchange(localAddress, async (socket) => {
    for (const chunk of chunks) {
      if (!socket.writable || socket.bytesRead > 0) return;
      socket.write(chunk);
      await new Promise((wait) => setTimeout(wait, pauseMs));
    }
  });
}

/** What the server logged while `run` ran. */
async function loggedDuring(run: () => Promise<unknown>): Promise<string> {
  const before = server.logs().length;
  await run();
  // The log line is written when the connection closes, which the client may see first.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return server.logs().slice(before);
}

describe('the memory bounds the server starts with (scripts/heap-limit.mjs)', () => {
  it("runs, in the process it was started as, with V8's heap bounded and glibc's arenas at two", () => {
    const commandLine = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
    expect(commandLine.filter((argument) => /^--max-(old|semi)-space-size=/.test(argument))).toEqual([
      expect.stringMatching(/^--max-old-space-size=\d+$/),
      '--max-semi-space-size=16',
    ]);
    const environment = readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0');
    expect(environment).toContain(`MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '2'}`);
  });
});

describe('the compiled code the server keeps (scripts/server.mjs)', () => {
  it("is on disk in its build's folder once it listens, for the next start to read", () => {
    const files = readdirSync(KEPT_CODE, { recursive: true, encoding: 'utf8' }).filter((entry) => statSync(path.join(KEPT_CODE, entry)).isFile());
    // One file for each module compiled so far: Next.js's server alone is some hundreds.
    expect(files.length).toBeGreaterThan(100);
  });
});

describe('a start without a build', () => {
  it('ends with exit code 1 and one line saying to build, without a stack trace, and makes no folder', async () => {
    const distDir = '.next-not-built';
    const root = path.dirname(path.dirname(SERVER_SCRIPT));
    const started = promisify(execFile)(process.execPath, [SERVER_SCRIPT, '-p', '0'], { cwd: root, env: { ...process.env, NEXT_DIST_DIR: distDir, LOG_FORMAT: 'json' } });
    const failure = (await started.then(
      () => null,
      (error: unknown) => error,
    )) as { code: number; stdout: string; stderr: string };
    expect(failure.code).toBe(1);
    expect(failure.stderr).toBe('');
    expect(failure.stdout.trim().split('\n').map((line) => JSON.parse(line) as { level: string; msg: string })).toEqual([
      expect.objectContaining({
        level: 'fatal',
        msg: `No production build in ${path.join(root, distDir)}: run \`npm run build\` first (\`npm run demo\` builds, then starts with demo data).`,
      }),
    ]);
    expect(existsSync(path.join(root, distDir))).toBe(false);
  });
});

describe('connection limits', () => {
  // The bound: the app's body timeout (2 s) plus 1 s, checked every 250 ms. Asserted with a generous
  // ceiling far below the 35 s such a body took before.
  const CEILING_MS = 10_000;
  const INCOMPLETE = /^\[server\] POST \/login: the connection closed \d+ ms into the request, before the request had arrived in full\.$/;

  it('cuts a sign-in body trickled in a byte a second with a 408, and logs one line', async () => {
    const body = new URLSearchParams({ email: 'admin@demo.agency', password: 'wrong-password' }).toString();
    let response: Response | undefined;
    const started = Date.now();
    const logged = await loggedDuring(async () => {
      response = await rawRequest(`${server.origin}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin },
        pieces: [...body],
        pauseMs: 1_000,
        localAddress: '127.0.0.20',
      });
    });
    expect(Date.now() - started).toBeLessThan(CEILING_MS);
    expect(response!.status).toBe(408);
    expect(response!.headers.get('connection')).toBe('close');
    expect(await response!.text()).toBe('');
    expect(logged.trim().split('\n')).toEqual([expect.stringMatching(INCOMPLETE)]);
  });

  it('closes a connection whose headers come a byte a second with a 408', async () => {
    const started = Date.now();
    const answer = await trickle([...'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'], 1_000, '127.0.0.21');
    expect(Date.now() - started).toBeLessThan(CEILING_MS);
    expect(answer).toBe('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
  });

  it('answers a request that arrived in time while the server was busy, on a connection opened before, instead of a 408', async () => {
    const HELD = '[test] the event loop is held';
    const answer = await exchange('127.0.0.23', async (socket) => {
      // Accepted: Node counts the connection's time from here. Then the loop is held 4 s, over the
      // 3 s bound, and the request is sent while it is.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const before = server.logs().length;
      server.kill('SIGUSR2');
      await vi.waitFor(() => expect(server.logs().slice(before)).toContain(HELD), { timeout: 5_000 });
      socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toContain('{"status":"ok"');
  });

  it.each([
    ['a request line it cannot parse', 'GET /api/health HTTP/9\r\n\r\n', 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'],
    ['a head over 16 KiB', `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: ${'a'.repeat(17 * 1024)}\r\n\r\n`, 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n'],
  ])('answers %s as Node.js does, and closes the connection', async (_, request, expected) => {
    expect(await trickle([request], 0, '127.0.0.24')).toBe(expected);
  });

  it('logs a client that goes away in the middle of a form post in one line, without a stack', async () => {
    const logged = await loggedDuring(async () => {
      const { port } = new URL(server.origin);
      const socket = net.connect({ host: '127.0.0.1', port: Number(port), localAddress: '127.0.0.22' });
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(`POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${server.origin}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nemail=a`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.destroy();
    });
    expect(logged.trim().split('\n')).toEqual([expect.stringMatching(INCOMPLETE)]);
  });
});

describe('a request line in absolute form', () => {
  const request = (target: string) => `GET ${target} HTTP/1.1\r\nHost: ${new URL(server.origin).host}\r\nConnection: close\r\n\r\n`;

  it.each(['http://evil.example/settings', 'http://evil.example/', 'https://evil.example/login?next=/settings', 'http://127.0.0.1:1/api/health'])(
    'naming another host (%s) is refused with 400, never redirected there',
    async (target) => {
      const { received } = await rawExchange(server.origin, [request(target)], 5_000);
      const [head, body] = received.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(head).toMatch(/^Content-Type: text\/plain; charset=utf-8$/im);
      expect(head).not.toMatch(/^location:/im);
      expect(body).toBe('The request line names another host: this server serves only its own.');
    },
  );

  it('naming this server is served as its path', async () => {
    const { received } = await rawExchange(server.origin, [request(`${server.origin}/api/health`)], 5_000);
    const [head, body] = received.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/^content-type: application\/json$/im);
    expect(body).toContain('{"status":"ok"');
  });
});
