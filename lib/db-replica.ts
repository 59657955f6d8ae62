// Whether the read replica (DATABASE_REPLICA_URL) may serve reads now: reachable and not too far
// behind the primary. Checked at most once a second, whatever the traffic; requests use the latest
// verdict while the next check runs, and each change between used and skipped is logged once.
import { logger } from './telemetry/logger';

/** What the replica says about itself (the row of REPLICA_CHECK_SQL). */
export interface ReplicaStatus {
  /** false: not a standby (a primary, or a promoted standby): nothing to wait for. */
  recovering: boolean;
  /** A WAL receiver runs: the standby is connected to its primary (or connecting). */
  receiving: boolean;
  /** Everything received has been replayed (false when either position is unknown). */
  replayedAll: boolean;
  /** Seconds since the last replayed transaction was committed on the primary; null before the first. */
  sinceLastReplay: number | null;
}

export type ReplicaVerdict = { state: 'used' } | { state: 'skipped'; reason: string };

/**
 * `now() - pg_last_xact_replay_timestamp()` alone grows on an idle primary without any real lag (no
 * new transaction to replay), so a connected standby that has replayed all it received counts as
 * caught up. pg_stat_wal_receiver shows its row (the pid at least) to every role.
 */
export const REPLICA_CHECK_SQL = `
  SELECT pg_is_in_recovery() AS recovering,
         EXISTS (SELECT 1 FROM pg_stat_wal_receiver) AS receiving,
         coalesce(pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn(), false) AS "replayedAll",
         extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 AS "sinceLastReplay"`;

/** The verdict on a replica from what it says, given the most lag allowed (seconds). */
export function replicaVerdict(status: ReplicaStatus, maxLagSeconds: number): ReplicaVerdict {
  if (!status.recovering || (status.receiving && status.replayedAll)) return { state: 'used' };
  // Behind, or cut off from its primary: how far is measured by the last transaction replayed.
  const lag = status.sinceLastReplay;
  if (lag === null) return { state: 'skipped', reason: 'no transaction replayed yet' };
  if (lag > maxLagSeconds) return { state: 'skipped', reason: `${lag.toFixed(1)} s behind the primary (at most ${maxLagSeconds} s)` };
  return { state: 'used' };
}

/** How long a verdict stands before the replica is checked again. */
export const REPLICA_CHECK_EVERY_MS = 1_000;

export interface ReplicaMonitor {
  /** The latest verdict; the first call waits for the first check. */
  verdict(): Promise<ReplicaVerdict>;
  /** A read on the replica failed: skip it until the next check says otherwise. */
  failed(error: Error): void;
}

export function replicaMonitor(options: {
  check: () => Promise<ReplicaStatus>;
  maxLagSeconds: number;
  log?: (message: string) => void;
  now?: () => number;
}): ReplicaMonitor {
  const { check, maxLagSeconds, log = (message: string) => logger().warn(message), now = Date.now } = options;
  let latest: ReplicaVerdict | null = null;
  let checkedAt = -Infinity;
  let checking: Promise<ReplicaVerdict> | null = null;

  /** `detail` (an error's message) goes to the log only: the verdict is shown to anyone (readiness). */
  const settle = (verdict: ReplicaVerdict, detail?: string): ReplicaVerdict => {
    if (latest?.state !== verdict.state) {
      log(
        verdict.state === 'used'
          ? '[db] read replica in use for the synced data.'
          : `[db] read replica skipped (${verdict.reason}${detail ? `: ${detail}` : ''}): reading from the primary.`,
      );
    }
    latest = verdict;
    return verdict;
  };

  const runCheck = async (): Promise<ReplicaVerdict> => {
    try {
      return settle(replicaVerdict(await check(), maxLagSeconds));
    } catch (error) {
      return settle({ state: 'skipped', reason: 'unreachable' }, (error as Error).message);
    } finally {
      checking = null;
    }
  };

  return {
    async verdict() {
      if (!checking && now() - checkedAt >= REPLICA_CHECK_EVERY_MS) {
        checkedAt = now();
        checking = runCheck();
      }
      return latest ?? (await checking)!;
    },
    failed(error) {
      settle({ state: 'skipped', reason: 'a read failed' }, error.message);
    },
  };
}
