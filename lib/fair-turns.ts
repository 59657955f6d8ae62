// Turns at a scarce resource, shared fairly between lanes (organisations): at most `total` turns at
// once, at most `perLane` of them for one lane, so that one lane never holds them all; a turn beyond
// that waits in a bounded queue, where the lanes are served round robin, and is refused when the queue
// is full or it has waited `maxWaitMs`. Used for the requests in flight (lib/ratelimit/concurrency.ts)
// and for the gate's database connections (lib/db.ts). Imports nothing, so that both can use it.

export interface FairTurnsOptions {
  total: number;
  perLane: number;
  /** Turns that may wait, all lanes together; more are refused at once. */
  queue: number;
  maxWaitMs: number;
  /** The error a refused turn fails with. */
  refusal(reason: 'queue_full' | 'timeout'): Error;
  /** Told how long each turn that had to wait waited, granted or refused (for the metrics). */
  waited?(ms: number): void;
}

export interface FairTurns {
  /** Resolves once `lane` has a turn; rejects with the refusal when it gets none. */
  take(lane: string): Promise<void>;
  /** Ends a turn of `lane` that `take` gave. */
  release(lane: string): void;
  stats(): { running: number; waiting: number };
}

interface Waiter {
  grant(): void;
  refuse(reason: 'queue_full' | 'timeout'): void;
}

export function fairTurns(options: FairTurnsOptions): FairTurns {
  // Entries exist only while turns are held or awaited.
  const runningOf = new Map<string, number>();
  let running = 0;
  // Each lane's waiting turns in arrival order. The map's order is the rotation: the lane at the
  // front is served first, and after a turn it goes to the back.
  const waiting = new Map<string, Waiter[]>();
  let waitingCount = 0;

  const mayRun = (lane: string) => running < options.total && (runningOf.get(lane) ?? 0) < options.perLane;

  function startTurn(lane: string): void {
    running++;
    runningOf.set(lane, (runningOf.get(lane) ?? 0) + 1);
  }

  function leaveQueue(lane: string, waiter: Waiter): void {
    const queue = waiting.get(lane)!;
    queue.splice(queue.indexOf(waiter), 1);
    if (queue.length === 0) waiting.delete(lane);
    waitingCount--;
  }

  /**
   * When the queue is full, a lane with fewer turns waiting than another takes the place of that
   * one's newest: a flood from one lane fills the queue only until others need it.
   */
  function makeRoomFor(lane: string): boolean {
    const mine = waiting.get(lane)?.length ?? 0;
    let longest: Waiter[] | undefined;
    for (const queue of waiting.values()) if (queue.length > (longest?.length ?? mine)) longest = queue;
    if (!longest) return false;
    longest.at(-1)!.refuse('queue_full');
    return true;
  }

  return {
    async take(lane) {
      if (mayRun(lane)) return startTurn(lane);
      if (waitingCount >= options.queue && !makeRoomFor(lane)) throw options.refusal('queue_full');
      const queuedAt = performance.now();
      const waited = () => options.waited?.(performance.now() - queuedAt);
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          grant() {
            clearTimeout(timer);
            waited();
            startTurn(lane);
            resolve();
          },
          refuse(reason) {
            clearTimeout(timer);
            waited();
            leaveQueue(lane, waiter);
            reject(options.refusal(reason));
          },
        };
        const timer = setTimeout(() => waiter.refuse('timeout'), options.maxWaitMs);
        const queue = waiting.get(lane);
        if (queue) queue.push(waiter);
        else waiting.set(lane, [waiter]);
        waitingCount++;
      });
    },
    release(lane) {
      running--;
      const count = (runningOf.get(lane) ?? 0) - 1;
      if (count === 0) runningOf.delete(lane);
      else runningOf.set(lane, count);
      // Round robin: the first lane in the rotation that is below its share takes the turn, and goes
      // to the back. A map visits entries re-added while it is iterated, so this loop hands out every
      // turn that is free, one lane after another, and ends when none is or nobody may take it.
      for (const [next, queue] of waiting) {
        if (running >= options.total) return;
        if (!mayRun(next)) continue;
        const waiter = queue.shift()!;
        waiting.delete(next);
        if (queue.length > 0) waiting.set(next, queue);
        waitingCount--;
        waiter.grant();
      }
    },
    stats: () => ({ running, waiting: waitingCount }),
  };
}
