// PgBouncer (Debian's package, `tests/run.sh` installs it) in transaction mode in front of one database
// of the machine's PostgreSQL, for one test file: the cluster's own PgBouncer (scripts/cluster/pgbouncer.ts,
// what `npm run demo:cluster -- --pooler` runs), on a free port, in a temporary folder that stop() deletes.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPgBouncer as startPooler } from '../../scripts/cluster/pgbouncer';
import { requireProgram, Supervisor } from '../../scripts/cluster/processes';

export interface PgBouncer {
  /** The database through the pooler, as the app connects to it. */
  url: string;
  stop(): Promise<void>;
}

/** `target`: postgresql://user@host:port/database (trust authentication, as on this machine). */
export async function startPgBouncer(target: string): Promise<PgBouncer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'metrics-pgbouncer-'));
  // As root PgBouncer runs as `postgres`, which must reach its configuration inside.
  chmodSync(dir, 0o755);
  const supervisor = new Supervisor(dir, () => {});
  const stop = async () => {
    await supervisor.stopAll();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await supervisor.prepare();
    const pooler = await startPooler(supervisor, requireProgram('pgbouncer', 'pgbouncer', 'the connection pooler'), target);
    return { url: pooler.url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
