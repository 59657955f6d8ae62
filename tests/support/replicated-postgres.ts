// A PostgreSQL primary and a streaming replica of it, made for one test file with the machine's own
// PostgreSQL binaries (Debian's, under /usr/lib/postgresql/<major>/bin): initdb, pg_basebackup -R
// (the standby's connection to its primary written for it), two servers on free ports, in a temporary
// folder that stop() deletes. As root, the servers run as the `postgres` system user.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/cluster/processes';

export interface ReplicatedPostgres {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the replica (fast shutdown); startReplica() starts it again. */
  stopReplica(): void;
  startReplica(): void;
  stop(): void;
}

function binaries(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((major) => existsSync(path.join(root, major, 'bin/pg_basebackup'))) : [];
  if (majors.length === 0) throw new Error(`No PostgreSQL server binaries under ${root}: install Debian's postgresql package.`);
  return path.join(root, majors.sort((a, b) => Number(b) - Number(a))[0]!, 'bin');
}

export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const bin = binaries();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'metrics-replica-'));
  const asRoot = process.getuid?.() === 0;
  const postgresUid = asRoot ? Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })) : undefined;
  if (postgresUid !== undefined) chownSync(dir, postgresUid, postgresUid);
  const run = (program: string, args: string[]) => {
    const [command, all] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]] : [path.join(bin, program), args];
    execFileSync(command, all, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  // Throw-away servers: no fsync; the socket in the folder, listening on loopback only.
  const serverOptions = (port: number) => `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = (dataDir: string, port: number) => run('pg_ctl', ['-D', dataDir, '-o', serverOptions(port), '-l', `${dataDir}.log`, '-w', 'start']);
  const stop = (dataDir: string) => run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);

  run('initdb', ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  start(primaryDir, primaryPort);
  try {
    run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
    start(replicaDir, replicaPort);
  } catch (error) {
    stop(primaryDir);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = (port: number) => `postgresql://postgres@127.0.0.1:${port}/postgres`;
  return {
    primaryUrl: url(primaryPort),
    replicaUrl: url(replicaPort),
    stopReplica: () => stop(replicaDir),
    startReplica: () => start(replicaDir, replicaPort),
    stop() {
      for (const dataDir of [replicaDir, primaryDir]) {
        try {
          stop(dataDir);
        } catch {
          // already stopped
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
