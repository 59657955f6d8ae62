// The read replica's verdict (lib/db-replica.ts): caught up, behind, cut off from its primary, or
// not a standby at all; and the monitor that checks it at most once a second and logs each change.
import { describe, expect, it } from 'vitest';
import { replicaMonitor, replicaVerdict, REPLICA_CHECK_EVERY_MS, type ReplicaStatus } from '@/lib/db-replica';

const standby = (status: Partial<ReplicaStatus>): ReplicaStatus => ({ recovering: true, receiving: true, replayedAll: false, sinceLastReplay: 0.5, ...status });

describe('replicaVerdict', () => {
  it('uses a standby that has replayed all it received, however long ago the primary last wrote', () => {
    expect(replicaVerdict(standby({ replayedAll: true, sinceLastReplay: 3_600 }), 30)).toEqual({ state: 'used' });
  });

  it('uses a standby still replaying, while its last replayed commit is within the lag allowed', () => {
    expect(replicaVerdict(standby({ sinceLastReplay: 29.9 }), 30)).toEqual({ state: 'used' });
    expect(replicaVerdict(standby({ sinceLastReplay: 30 }), 30)).toEqual({ state: 'used' });
  });

  it('skips a standby further behind, saying how far', () => {
    expect(replicaVerdict(standby({ sinceLastReplay: 45.25 }), 30)).toEqual({ state: 'skipped', reason: '45.3 s behind the primary (at most 30 s)' });
  });

  it('measures a standby cut off from its primary by its last replayed commit, even if it replayed all it had', () => {
    expect(replicaVerdict(standby({ receiving: false, replayedAll: true, sinceLastReplay: 120 }), 30)).toEqual({
      state: 'skipped',
      reason: '120.0 s behind the primary (at most 30 s)',
    });
    expect(replicaVerdict(standby({ receiving: false, replayedAll: true, sinceLastReplay: null }), 30)).toEqual({ state: 'skipped', reason: 'no transaction replayed yet' });
  });

  it('uses a server that is not a standby (nothing to wait for)', () => {
    expect(replicaVerdict({ recovering: false, receiving: false, replayedAll: false, sinceLastReplay: null }, 30)).toEqual({ state: 'used' });
  });
});

describe('replicaMonitor', () => {
  function setup(statuses: (ReplicaStatus | Error)[]) {
    let clock = 0;
    const lines: string[] = [];
    let checks = 0;
    const monitor = replicaMonitor({
      check: async () => {
        const next = statuses[Math.min(checks++, statuses.length - 1)]!;
        if (next instanceof Error) throw next;
        return next;
      },
      maxLagSeconds: 30,
      log: (line) => lines.push(line),
      now: () => clock,
    });
    return { monitor, lines, checks: () => checks, advance: (ms: number) => (clock += ms) };
  }

  it('checks at most once a second, whatever the number of calls', async () => {
    const { monitor, checks, advance } = setup([standby({ replayedAll: true })]);
    await Promise.all(Array.from({ length: 50 }, () => monitor.verdict()));
    expect(checks()).toBe(1);
    advance(REPLICA_CHECK_EVERY_MS - 1);
    await monitor.verdict();
    expect(checks()).toBe(1);
    advance(1);
    await monitor.verdict();
    expect(checks()).toBe(2);
  });

  it('logs the first verdict and each change between used and skipped', async () => {
    const { monitor, lines, advance } = setup([
      standby({ replayedAll: true }),
      standby({ sinceLastReplay: 40 }),
      standby({ sinceLastReplay: 50 }),
      new Error('connect ECONNREFUSED 10.0.0.5:5432'),
      standby({ replayedAll: true }),
    ]);
    const verdicts = [];
    for (let i = 0; i < 5; i++) {
      verdicts.push(await monitor.verdict());
      advance(REPLICA_CHECK_EVERY_MS);
    }
    // A call starts the next check and answers with the latest verdict until it is done.
    await monitor.verdict();
    expect(verdicts.map((verdict) => verdict.state)).toEqual(['used', 'used', 'skipped', 'skipped', 'skipped']);
    expect(await monitor.verdict()).toEqual({ state: 'used' });
    expect(lines).toEqual([
      '[db] read replica in use for the synced data.',
      '[db] read replica skipped (40.0 s behind the primary (at most 30 s)): reading from the primary.',
      '[db] read replica in use for the synced data.',
    ]);
  });

  it('skips the replica at once when a read on it fails, until the next check', async () => {
    const { monitor, lines, advance } = setup([standby({ replayedAll: true })]);
    expect(await monitor.verdict()).toEqual({ state: 'used' });
    monitor.failed(new Error('Connection terminated unexpectedly'));
    expect(await monitor.verdict()).toEqual({ state: 'skipped', reason: 'a read failed' });
    advance(REPLICA_CHECK_EVERY_MS);
    await monitor.verdict();
    expect(await monitor.verdict()).toEqual({ state: 'used' });
    expect(lines).toEqual([
      '[db] read replica in use for the synced data.',
      '[db] read replica skipped (a read failed: Connection terminated unexpectedly): reading from the primary.',
      '[db] read replica in use for the synced data.',
    ]);
  });
});
