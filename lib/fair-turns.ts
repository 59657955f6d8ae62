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

/** Turns shared fairly between lanes, as FairTurnsOptions says. */
export function fairTurns(options: FairTurnsOptions): FairTurns {
  return new LaneTurns(options);
}

class LaneTurns implements FairTurns {
  // Entries exist only while turns are held or awaited.
  private readonly runningOf = new Map<string, number>();
  private running = 0;
  // Each lane's waiting turns in arrival order. The map's order is the rotation: the lane at the
  // front is served first, and after a turn it goes to the back.
  private readonly waiting = new Map<string, Waiter[]>();
  private waitingCount = 0;

  constructor(private readonly options: FairTurnsOptions) {}

  async take(lane: string): Promise<void> {
    if (this.mayRun(lane)) return this.startTurn(lane);
    if (this.waitingCount >= this.options.queue && !this.makeRoomFor(lane)) throw this.options.refusal('queue_full');
    await this.waitInQueue(lane);
  }

  release(lane: string): void {
    this.running--;
    const count = (this.runningOf.get(lane) ?? 0) - 1;
    if (count === 0) this.runningOf.delete(lane);
    else this.runningOf.set(lane, count);
    this.handOutFreeTurns();
  }

  stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingCount };
  }

  private mayRun(lane: string): boolean {
    return this.running < this.options.total && (this.runningOf.get(lane) ?? 0) < this.options.perLane;
  }

  private startTurn(lane: string): void {
    this.running++;
    this.runningOf.set(lane, (this.runningOf.get(lane) ?? 0) + 1);
  }

  private leaveQueue(lane: string, waiter: Waiter): void {
    const queue = this.waiting.get(lane)!;
    queue.splice(queue.indexOf(waiter), 1);
    if (queue.length === 0) this.waiting.delete(lane);
    this.waitingCount--;
  }

  /**
   * When the queue is full, a lane with fewer turns waiting than another takes the place of that
   * one's newest: a flood from one lane fills the queue only until others need it.
   */
  private makeRoomFor(lane: string): boolean {
    const mine = this.waiting.get(lane)?.length ?? 0;
    let longest: Waiter[] | undefined;
    for (const queue of this.waiting.values()) if (queue.length > (longest?.length ?? mine)) longest = queue;
    if (!longest) return false;
    longest.at(-1)!.refuse('queue_full');
    return true;
  }

  /** Waits in `lane`'s queue until a released turn is handed to it, or it is refused (its place taken, or maxWaitMs). */
  private waitInQueue(lane: string): Promise<void> {
    const queuedAt = performance.now();
    const waited = () => this.options.waited?.(performance.now() - queuedAt);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          waited();
          this.startTurn(lane);
          resolve();
        },
        refuse: (reason) => {
          clearTimeout(timer);
          waited();
          this.leaveQueue(lane, waiter);
          reject(this.options.refusal(reason));
        },
      };
      const timer = setTimeout(() => waiter.refuse('timeout'), this.options.maxWaitMs);
      const queue = this.waiting.get(lane);
      if (queue) queue.push(waiter);
      else this.waiting.set(lane, [waiter]);
      this.waitingCount++;
    });
  }

  /**
   * Round robin: the first lane in the rotation that is below its share takes a free turn, and goes to
   * the back. A map visits entries re-added while it is iterated, so this loop hands out every turn that
   * is free, one lane after another, and ends when none is or nobody may take it.
   */
  private handOutFreeTurns(): void {
    for (const [next, queue] of this.waiting) {
      if (this.running >= this.options.total) return;
      if (!this.mayRun(next)) continue;
      const waiter = queue.shift()!;
      this.waiting.delete(next);
      if (queue.length > 0) this.waiting.set(next, queue);
      this.waitingCount--;
      waiter.grant();
    }
  }
}
