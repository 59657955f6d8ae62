// The newcomer's path: the demo's own entry starts its embedded database (migrations, demo data, demo
// key; `--database-only`, i.e. `npm run demo:db`: everything `npm run demo` does but `next build` and
// the web server), then `npm run key:create` with no DATABASE_URL finds that database by itself, and
// the key it prints works on /api/v1/me of a server against it. Once the demo has stopped, key:create
// says what to do instead. Both run in a folder laid out like a fresh checkout (links to this one's
// code and node_modules, a copy of scripts/), so that the demo's .data/ there is its own and never a
// developer's; and made as a clone in a `mktemp -d` folder is, inside a folder of mode 700, which as
// root is closed to the `postgres` user that runs the server (scripts/embedded-database.ts then keeps
// the database in the shared folder, linked from .data/postgres).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meOperation } from '@/lib/account/operations';
import { freePort } from '../../scripts/cluster/processes';
import { SHARED_FOLDER } from '../../scripts/postgres-binaries';
import { expectContract } from '../support/contract';
import { startTestServer, type TestServer } from '../support/http-server';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LINKED = ['package.json', 'tsconfig.json', 'node_modules', 'lib', 'prisma'];
const NO_DATABASE_HINT = 'No database: start `npm run demo` (its embedded database is then found in .data/), or set DATABASE_URL to the service database.';

/** This process's environment without the variables that would point a command at a database. */
function environmentWithoutDatabase(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.EMBEDDED_POSTGRES_PORT;
  return env;
}

function keyCreate(checkout: string) {
  return spawnSync('npm', ['run', '--silent', 'key:create', '--', '--org', 'demo-agency', '--scopes', 'ads:read'], {
    cwd: checkout,
    env: environmentWithoutDatabase(),
    encoding: 'utf8',
  });
}

let parent: string;
let checkout: string;
let demo: ChildProcess | undefined;
let demoExited: Promise<void>;
let demoUrl: string;
let server: TestServer | undefined;

async function stopDemo(): Promise<void> {
  if (!demo || demo.exitCode !== null) return;
  demo.kill('SIGTERM');
  await demoExited;
}

beforeAll(async () => {
  // mkdtemp makes it mode 700.
  parent = mkdtempSync(path.join(os.tmpdir(), 'metrics-checkout-'));
  checkout = path.join(parent, 'checkout');
  mkdirSync(checkout);
  for (const entry of LINKED) symlinkSync(path.join(ROOT, entry), path.join(checkout, entry));
  // Copied, not linked: a command runs its main() only when started as the file itself (not a link to it).
  cpSync(path.join(ROOT, 'scripts'), path.join(checkout, 'scripts'), { recursive: true });

  // The demo's entry in one Node process (tsx as a loader), so that SIGTERM reaches its own handler.
  demo = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--database-only'], {
    cwd: checkout,
    env: { ...environmentWithoutDatabase(), EMBEDDED_POSTGRES_PORT: String(await freePort()) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  demoExited = new Promise((resolve) => demo!.once('exit', () => resolve()));
  let output = '';
  demoUrl = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /DATABASE_URL=(\S+)/.exec(output);
      if (ready && output.includes('Demo API key')) resolve(ready[1]!);
    };
    demo!.stdout!.on('data', read);
    demo!.stderr!.on('data', read);
    demo!.once('exit', (code) => reject(new Error(`the demo exited with ${code} before its database was ready:\n${output}`)));
  });
}, 300_000);

// A hook of its own: on a fresh checkout it waits for the app's build (minutes on a busy machine).
beforeAll(async () => {
  server = await startTestServer({ databaseUrl: demoUrl });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await stopDemo();
  if (!parent) return;
  const database = path.join(checkout, '.data/postgres');
  if (lstatSync(database, { throwIfNoEntry: false })?.isSymbolicLink()) {
    rmSync(readlinkSync(database), { recursive: true, force: true });
    rmSync(`${readlinkSync(database)}.checkout`, { force: true });
  }
  rmSync(parent, { recursive: true, force: true });
});

describe('npm run key:create against the demo database, with no DATABASE_URL', () => {
  it.skipIf(process.getuid?.() !== 0)('as root, keeps the database in the shared folder, linked from .data/postgres, when postgres cannot reach the checkout', () => {
    const folder = realpathSync(path.join(checkout, '.data/postgres'));
    expect(folder).toMatch(new RegExp(`^${SHARED_FOLDER}/demo-[0-9a-f]{12}$`));
    // Beside it, whose it is: a later start removes it once this checkout is gone.
    expect(readFileSync(`${folder}.checkout`, 'utf8')).toBe(`${realpathSync(checkout)}/.data\n`);
  });

  it('mints a key in the running demo database that works on /api/v1/me', async () => {
    const result = keyCreate(checkout);
    expect(result.stderr.replace(/^npm warn .*\n/gm, '')).toBe('');
    expect(result.status).toBe(0);
    const created = /^Created key (\S+) \((\S+)…\) for Demo Agency: scopes ads:read; every client; no expiry\.$/m.exec(result.stdout);
    expect(created, result.stdout).not.toBeNull();
    const [, id, prefix] = created!;
    const key = result.stdout.trim().split('\n').at(-1)!;

    const client = new pg.Client({ connectionString: demoUrl });
    await client.connect();
    const { rows } = await client
      .query<{ org_id: string; org_name: string; prefix: string }>(
        'SELECT o.id AS org_id, o.name AS org_name, k.prefix FROM api_keys k JOIN organizations o ON o.id = k.org_id WHERE k.id = $1',
        [id],
      )
      .finally(() => client.end());
    expect(rows).toEqual([{ org_id: expect.any(String), org_name: 'Demo Agency', prefix }]);

    const body = await expectContract(meOperation, await server!.request('/api/v1/me', { key }));
    expect(body).toEqual({
      data: {
        key: { id, name: 'CLI key', prefix, expiresAt: null },
        org: { id: rows[0]!.org_id, name: 'Demo Agency' },
        scopes: ['ads:read'],
        clientIds: null,
      },
      meta: { timezone: 'Asia/Kolkata', syncedAt: null },
    });
  });

  it('says to start the demo or set DATABASE_URL once the demo has stopped, or left a stale postmaster.pid', async () => {
    await stopDemo();
    const stopped = keyCreate(checkout);
    expect(stopped.status).toBe(2);
    expect(stopped.stdout).toBe('');
    expect(stopped.stderr.replace(/^npm warn .*\n/gm, '')).toBe(`${NO_DATABASE_HINT}\n`);

    // What a crash leaves: the pid file of a process that no longer exists.
    const gone = spawnSync('true');
    writeFileSync(path.join(checkout, '.data/postgres/postmaster.pid'), `${gone.pid}\n${path.join(checkout, '.data/postgres')}\n`);
    const crashed = keyCreate(checkout);
    expect(crashed.status).toBe(2);
    expect(crashed.stderr.replace(/^npm warn .*\n/gm, '')).toBe(`${NO_DATABASE_HINT}\n`);
  });
});
