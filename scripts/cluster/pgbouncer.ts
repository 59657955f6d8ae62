// PgBouncer in transaction mode in front of the primary (`--pooler`): many client connections share a
// few server connections, each lent for one transaction. Debian's PgBouncer 1.18 keeps no prepared
// statements across transactions (that came in 1.21), so instances behind it are started with
// DATABASE_PREPARED_STATEMENTS=off. Nor does it pass on the startup parameter `options`, in which the
// app sends its session settings (lib/db.ts: work_mem, statement_timeout, …): it is ignored, and the
// cluster stores those settings on the server instead (scripts/db-settings.ts), with the instances
// started with DATABASE_SESSION_SETTINGS=server.
import { chown, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { postgresOsUser } from '../postgres-binaries';
import { freePort, waitFor, type Service, type Supervisor } from './processes';
import type { RestartPolicy } from './restart';

export interface Pooler {
  service: Service;
  url: string;
}

/**
 * Starts PgBouncer in front of the database of `databaseUrl` (the primary's), for the same user and
 * password; a URL without a password is a server with trust authentication (the tests' PostgreSQL),
 * and PgBouncer then trusts its clients too.
 */
export async function startPgBouncer(supervisor: Supervisor, program: string, databaseUrl: string, restart?: RestartPolicy): Promise<Pooler> {
  const folder = path.join(supervisor.dir, 'pgbouncer');
  await mkdir(folder, { recursive: true });
  const port = await freePort();
  const target = new URL(databaseUrl);
  const database = target.pathname.slice(1);
  const userName = decodeURIComponent(target.username);
  const userList = path.join(folder, 'userlist.txt');
  const config = path.join(folder, 'pgbouncer.ini');
  // The password in clear in a file only its user reads: PgBouncer needs it to log in to PostgreSQL.
  await writeFile(userList, `"${userName}" "${decodeURIComponent(target.password)}"\n`, { mode: 0o600 });
  await writeFile(
    config,
    `; Written by the cluster script (scripts/cluster/pgbouncer.ts).
[databases]
${database} = host=${target.hostname} port=${target.port} dbname=${database}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
; TCP only: a socket in /tmp would collide with any other server that uses the same port number.
unix_socket_dir =
auth_type = ${target.password ? 'scram-sha-256' : 'trust'}
auth_file = ${userList}
pool_mode = transaction
; SHOW POOLS, SHOW DATABASES… on the console (the database \`pgbouncer\` of the same address).
admin_users = ${userName}
default_pool_size = 20
max_client_conn = 500
; PgBouncer 1.18 refuses a connection that sends these startup parameters; it cannot pass them on.
ignore_startup_parameters = extra_float_digits,options
; A line for every connection and disconnection would drown the log.
log_connections = 0
log_disconnections = 0
`,
    { mode: 0o600 },
  );
  // PgBouncer refuses to run as root: as root it runs as the user PostgreSQL runs as.
  const user = postgresOsUser();
  if (user) for (const file of [folder, userList, config]) await chown(file, user.uid, user.gid);
  // SIGINT: PgBouncer's safe shutdown, once the transactions in flight are done.
  const service = supervisor.start('pgbouncer', program, [config], { user, stopSignal: 'SIGINT', graceMs: 10_000, restart });
  const pooled = new URL(databaseUrl);
  pooled.port = String(port);
  const url = pooled.href;
  await waitFor(
    'PgBouncer to reach the primary',
    async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
      await client.connect();
      try {
        await client.query('SELECT 1');
        return true;
      } finally {
        await client.end();
      }
    },
    { timeoutMs: 30_000, service },
  );
  supervisor.log(`PgBouncer (transaction mode) listening on 127.0.0.1:${port} (pid ${service.pid}), in front of the primary`);
  return { service, url };
}
