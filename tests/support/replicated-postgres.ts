// A PostgreSQL primary and a streaming replica of it for one test file: the cluster's own
// (scripts/cluster/postgres.ts, what `npm run demo:cluster` runs: the embedded PostgreSQL, a base
// backup, a standby streaming through a slot), on free ports, in a temporary folder that stop()
// deletes. As root, the servers run as the `postgres` system user.
import { restartReplica, startPrimary, startReplica } from '../../scripts/cluster/postgres';
import { supervised } from './supervised';

export interface ReplicatedPostgres {
  /** The application's database (empty: no tables) on the primary. */
  primaryUrl: string;
  /** The same database on the replica. */
  replicaUrl: string;
  /** Stops the replica (fast shutdown); startReplica() starts it again. */
  stopReplica(): Promise<void>;
  /** Starts the stopped replica again; resolves once it streams from the primary. */
  startReplica(): Promise<void>;
  stop(): Promise<void>;
}

export function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  return supervised('replica', async (supervisor) => {
    const primary = await startPrimary(supervisor, async () => {});
    const replica = await startReplica(supervisor, primary);
    return {
      primaryUrl: primary.url,
      replicaUrl: replica.url,
      stopReplica: () => replica.service.stop(),
      startReplica: () => restartReplica(replica, primary),
    };
  });
}
