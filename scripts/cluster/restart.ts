// When the orchestrator starts a process again after it exited on its own (a crash, or a stop it was
// not asked for): after a short wait that grows with each exit, and not at all once it has exited too
// often in a short time (a process that cannot start would otherwise be started forever, hiding the
// reason in its log). systemd's Restart=, RestartSec= and StartLimitBurst= play the same part.

export interface RestartPolicy {
  /** The wait before each start again, in order; the last one repeats. */
  delaysMs: number[];
  /** Started again after at most this many exits within `windowMs`; the next one leaves it down. */
  maxExits: number;
  windowMs: number;
}

/**
 * 1, 2, 4, then 8 s: an instance killed once is back within seconds; a sixth exit within two minutes
 * is a process that will not stay up.
 */
export const DEFAULT_RESTART_POLICY: RestartPolicy = { delaysMs: [1_000, 2_000, 4_000, 8_000], maxExits: 5, windowMs: 120_000 };

/** Counts a process's exits; each call to `next` records one and says how long to wait, or null: give up. */
export function exitCounter(policy: RestartPolicy, now: () => number = Date.now): { next(): number | null; readonly recent: number } {
  const exits: number[] = [];
  return {
    next() {
      const at = now();
      while (exits.length > 0 && at - exits[0]! > policy.windowMs) exits.shift();
      exits.push(at);
      if (exits.length > policy.maxExits) return null;
      return policy.delaysMs[Math.min(exits.length, policy.delaysMs.length) - 1]!;
    },
    get recent() {
      return exits.length;
    },
  };
}
