// The in-process queue of records written in batches after the answers have gone (tool calls, the
// request log): a record waits at most `flushAfterMs`, or is written at once with a full batch when
// `flushWhenFull`; a batch that fails is logged and let go, since a record is worth less than the
// database's time. The queue is bounded: when the database cannot keep up, the oldest unwritten
// records are dropped (and that is logged), never the requests themselves. Its state is the whole
// process's (lib/process-wide.ts), as Next.js bundles lib/ into each route separately and all of them
// must share one queue.
import { logger } from '../telemetry/logger';
import { metrics, sampleOnScrape } from '../telemetry/metrics';
import { processWide } from '../process-wide';

export interface BatchQueueOptions<Row> {
  /** The log prefix and the records' name: `tool-calls`, `tool-call records`. */
  name: string;
  records: string;
  flushAfterMs: number;
  batchSize: number;
  maxPending: number;
  /** Write one batch now instead of waiting for the timer once `batchSize` records wait. */
  flushWhenFull?: boolean;
  write(rows: Row[]): Promise<void>;
  /** Work after each flush (pruning, when due). */
  afterFlush?(): Promise<void>;
}

export interface BatchQueue<Row> {
  push(row: Row): void;
  /** Writes every queued record now (tests and the server's shutdown call it; otherwise the timer does). */
  flush(): Promise<void>;
}

interface State<Row> {
  pending: Row[];
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
  dropped: number;
}

const queues = processWide('batch-queues', () => {
  const made = new Map<string, State<unknown>>();
  sampleOnScrape('batch-queues', sampleQueues);
  return made;
});

/** Each queue's records waiting, as batch_queue_pending_records reports them when scraped. */
function sampleQueues(): void {
  for (const [name, queue] of queues()) metrics().queuePending.set({ queue: name }, queue.pending.length);
}

export function batchQueue<Row>(options: BatchQueueOptions<Row>): BatchQueue<Row> {
  const { name, records } = options;
  const state = (): State<Row> => {
    const all = queues();
    let found = all.get(name);
    if (!found) all.set(name, (found = { pending: [], timer: null, flushing: null, dropped: 0 }));
    return found as State<Row>;
  };

  async function flush(): Promise<void> {
    const queue = state();
    if (queue.timer) clearTimeout(queue.timer);
    queue.timer = null;
    while (queue.flushing) await queue.flushing;
    queue.flushing = (async () => {
      while (queue.pending.length > 0) {
        const batch = queue.pending.splice(0, options.batchSize);
        try {
          await options.write(batch);
          metrics().queueRecords.inc({ queue: name, result: 'written' }, batch.length);
        } catch (error) {
          metrics().queueRecords.inc({ queue: name, result: 'failed' }, batch.length);
          logger().warn(`[${name}] could not write ${batch.length} ${records}: ${(error as Error).message}`);
        }
      }
      if (queue.dropped > 0) {
        logger().warn(`[${name}] ${queue.dropped} ${records} were dropped while the database was not keeping up`);
        queue.dropped = 0;
      }
      await options.afterFlush?.();
    })();
    try {
      await queue.flushing;
    } finally {
      queue.flushing = null;
    }
  }

  return {
    push(row) {
      const queue = state();
      queue.pending.push(row);
      if (queue.pending.length > options.maxPending) {
        const excess = queue.pending.length - options.maxPending;
        queue.pending.splice(0, excess);
        metrics().queueRecords.inc({ queue: name, result: 'dropped' }, excess);
        if (queue.dropped === 0) logger().warn(`[${name}] the database is not keeping up; dropping the oldest unwritten ${records}`);
        queue.dropped += excess;
      }
      // A full batch is written at once, unless a flush is under way: that one writes what arrives
      // meanwhile too (it runs until the queue is empty), and starting another for each record pushed
      // while the database is slow would pile up waiting flushes. The timer still stands behind it.
      const full = options.flushWhenFull && queue.pending.length >= options.batchSize;
      if (full && !queue.flushing) void flush();
      else if (!queue.timer) {
        queue.timer = setTimeout(() => void flush(), options.flushAfterMs);
        queue.timer.unref();
      }
    },
    flush,
  };
}
