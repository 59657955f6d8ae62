// PgBouncer (Debian's package, `tests/run.sh` installs it) in transaction mode in front of one database
// of the machine's PostgreSQL, for one test file: the cluster's own (scripts/cluster/pgbouncer.ts, what
// `npm run demo:cluster -- --pooler` runs), on a free port, in a temporary folder that stop() deletes.
import { startPgBouncer as startPooler } from '../../scripts/cluster/pgbouncer';
import { requireProgram } from '../../scripts/cluster/processes';
import { supervised } from './supervised';

export interface PgBouncer {
  /** The database through the pooler, as the app connects to it. */
  url: string;
  stop(): Promise<void>;
}

/** `target`: postgresql://user@host:port/database (trust authentication, as on this machine). */
export function startPgBouncer(target: string): Promise<PgBouncer> {
  return supervised('pgbouncer', async (supervisor) => {
    const pooler = await startPooler(supervisor, requireProgram('pgbouncer', 'pgbouncer', 'the connection pooler'), target);
    return { url: pooler.url };
  });
}
