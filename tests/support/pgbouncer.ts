// PgBouncer (Debian's package, `tests/run.sh` installs it) in transaction mode in front of one database
// of the machine's PostgreSQL, on a free port, for one test file. As root it drops to the `postgres`
// system user (PgBouncer refuses to run as root).
import { spawn, execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/cluster/processes';

export interface PgBouncer {
  /** The database through the pooler, as the app connects to it. */
  url: string;
  stop(): Promise<void>;
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** `target`: postgresql://user@host:port/database (trust authentication, as on this machine). */
export async function startPgBouncer(target: string): Promise<PgBouncer> {
  const { hostname, port, pathname, username } = new URL(target);
  const database = pathname.slice(1);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'metrics-pgbouncer-'));
  const listenPort = await freePort();
  writeFileSync(path.join(dir, 'userlist.txt'), `"${username}" ""\n`);
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${database} = host=${hostname} port=${port} dbname=${database}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${listenPort}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      // Transaction mode, as deployed: a server connection is the client's for one transaction only.
      'pool_mode = transaction',
      'default_pool_size = 4',
      'max_client_conn = 200',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, uid);
  }
  const child = spawn('pgbouncer', [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => {
    try {
      return readFileSync(path.join(dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const deadline = Date.now() + 10_000;
  while (!(await listening(listenPort))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`PgBouncer did not start:\n${stderr}\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `postgresql://${username}@127.0.0.1:${listenPort}/${database}`,
    async stop() {
      child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
