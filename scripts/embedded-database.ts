// The zero-setup database: a real PostgreSQL started from the binary that the `embedded-postgres`
// package ships, kept in .data/ across restarts, listening on the loopback address only. Its port and
// password are chosen on first start and kept in .data/embedded-postgres.json, so its URL can be
// derived again by another command (`npm run key:create`) while `npm run demo` runs. Created and run
// by the cluster's code (scripts/cluster/postgres.ts), under a supervisor whose log is
// .data/logs/postgres.log.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, readlink, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { initialise, startServer, urlOf, waitForConnections, withClient } from './cluster/postgres';
import { Supervisor } from './cluster/processes';
import { canReach, postgresOsUser, sharedFolder, type OsUser } from './postgres-binaries';

const DATA_DIR = path.resolve('.data');
/** The server's data folder, or a link to it (see dataFolder). */
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
  return settings && urlOf(settings.password, settings.port, DATABASE);
}

export interface EmbeddedDatabase {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Where the server keeps its data: .data/postgres; or, as root in a checkout that the `postgres` user
 * cannot traverse (under /root, in a `mktemp -d` folder), a folder of this checkout's own in the shared
 * folder, which .data/postgres links to, so that what reads .data/postgres (key:create) finds it as before.
 */
async function dataFolder(user: OsUser, log: (line: string) => void): Promise<string> {
  if (canReach(user, DATA_DIR)) return CLUSTER_DIR;
  if ((await lstat(CLUSTER_DIR).catch(() => null))?.isSymbolicLink() && existsSync(CLUSTER_DIR)) return realpath(CLUSTER_DIR);
  if (existsSync(path.join(CLUSTER_DIR, 'PG_VERSION'))) {
    throw new Error(
      `The postgres user, which PostgreSQL runs as under root, cannot reach ${DATA_DIR}: open the folders above it to others (chmod o+x), or remove ${CLUSTER_DIR} to start the demo's database afresh where it can.`,
    );
  }
  const shared = await sharedFolder();
  const abandoned = await removeAbandonedDemoFolders(shared);
  if (abandoned.length > 0) log(`removed ${abandoned.length} demo database(s) in ${shared} whose checkout is gone: ${abandoned.join(', ')}`);
  const folder = path.join(shared, `demo-${createHash('sha256').update(DATA_DIR).digest('hex').slice(0, 12)}`);
  // What is there is not this checkout's database: an empty folder left by a failed start, or the
  // database of an earlier checkout in the same place (its password is not this one's).
  await rm(CLUSTER_DIR, { recursive: true, force: true });
  await rm(folder, { recursive: true, force: true });
  await symlink(folder, CLUSTER_DIR);
  // After the link: whenever the note exists, so does the link it is checked against.
  await writeFile(`${folder}${CHECKOUT_NOTE}`, `${DATA_DIR}\n`);
  log(`the postgres user cannot reach ${DATA_DIR}: the database is kept in ${folder}, linked from ${CLUSTER_DIR}`);
  return folder;
}

/** Beside each demo folder in the shared folder: the `.data` folder of the checkout it belongs to. */
const CHECKOUT_NOTE = '.checkout';

/**
 * Removes the demo folders in `shared` whose checkout no longer links to them: the checkout was deleted
 * (a clone in a temporary folder, as CI makes, left its database behind for good) or keeps its data
 * elsewhere now. A folder without a note is left alone: whose it is cannot be told. Returns those removed.
 */
export async function removeAbandonedDemoFolders(shared: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(shared)) {
    if (!/^demo-[0-9a-f]{12}\.checkout$/.test(name)) continue;
    const note = path.join(shared, name);
    const folder = note.slice(0, -CHECKOUT_NOTE.length);
    const dataDir = (await readFile(note, 'utf8')).trim();
    // The link itself, not where it resolves: a folder still being created by its checkout's first start is kept.
    if ((await readlink(path.join(dataDir, 'postgres')).catch(() => null)) === folder) continue;
    await rm(folder, { recursive: true, force: true });
    await rm(note, { force: true });
    removed.push(folder);
  }
  return removed;
}

export async function startEmbeddedDatabase(log: (line: string) => void): Promise<EmbeddedDatabase> {
  const settings = await loadSettings();
  const user = postgresOsUser();
  const dataDir = await dataFolder(user, log);
  const supervisor = new Supervisor(DATA_DIR, log);
  // Stops a server that a demo killed before it could stop it left running.
  await supervisor.prepare();
  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
  if (fresh) {
    log(`creating the embedded PostgreSQL cluster in ${dataDir}`);
    await initialise(dataDir, settings.password, user);
  }
  const service = await startServer(supervisor, 'postgres', dataDir, settings.port, [], user);
  const adminUrl = urlOf(settings.password, settings.port, 'postgres');
  await waitForConnections(adminUrl, service, 'the embedded PostgreSQL to accept connections');
  if (fresh) await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${DATABASE}`));
  log(`embedded PostgreSQL listening on 127.0.0.1:${settings.port}`);
  return { url: urlOf(settings.password, settings.port, DATABASE), stop: () => supervisor.stopAll() };
}
