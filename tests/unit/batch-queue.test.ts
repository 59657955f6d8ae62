// The batch queue behind the request log and the tool-call records: every record written once, in
// order, in bounded batches, while the database is slow as well as when it is quick; the oldest
// dropped (and said) when it cannot keep up; a failed batch let go.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchQueue } from '@/lib/usage/batch-queue';
import { logger } from '@/lib/telemetry/logger';

/** A writer that holds every write until `release()`, recording the batches it was given. */
function slowWriter() {
  const batches: number[][] = [];
  let release: () => void = () => {};
  let gate = new Promise<void>((resolve) => (release = resolve));
  return {
    batches,
    async write(rows: number[]) {
      batches.push(rows);
      await gate;
    },
    release() {
      release();
      gate = Promise.resolve();
    },
  };
}

let queueNumber = 0;
/** Each test its own queue: a queue's state is kept on globalThis under its name. */
const uniqueName = () => `batch-queue-test-${++queueNumber}`;

afterEach(() => vi.restoreAllMocks());

describe('batchQueue', () => {
  it('writes a full batch at once and, while that write is slow, everything pushed meanwhile in the same flush: in order, once each', async () => {
    const writer = slowWriter();
    const afterFlush = vi.fn(async () => {});
    const queue = batchQueue<number>({ name: uniqueName(), records: 'numbers', flushAfterMs: 60_000, batchSize: 200, maxPending: 10_000, flushWhenFull: true, write: writer.write, afterFlush });
    for (let i = 0; i < 1_000; i += 1) queue.push(i);
    // The 200th record started a write, which the database holds.
    expect(writer.batches.map((batch) => batch.length)).toEqual([200]);
    writer.release();
    await queue.flush();
    expect(writer.batches.map((batch) => batch.length)).toEqual([200, 200, 200, 200, 200]);
    expect(writer.batches.flat()).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
    // One flush wrote them all, and the explicit one found nothing left: not one flush per record
    // pushed while the first write waited.
    expect(afterFlush.mock.calls.length).toBeLessThanOrEqual(2);
  });

  it('writes a record that fills a batch while a flush is finishing within flushAfterMs', async () => {
    vi.useFakeTimers();
    try {
      const written: number[][] = [];
      let finishFlush: () => void = () => {};
      const finishing = new Promise<void>((resolve) => (finishFlush = resolve));
      const queue = batchQueue<number>({
        name: uniqueName(),
        records: 'numbers',
        flushAfterMs: 1_000,
        batchSize: 1,
        maxPending: 100,
        flushWhenFull: true,
        write: async (rows) => void written.push(rows),
        afterFlush: () => finishing,
      });
      queue.push(1);
      await vi.advanceTimersByTimeAsync(0);
      // The first flush has written its batch and is still at its last step when the next record comes.
      queue.push(2);
      finishFlush();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(written).toEqual([[1], [2]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes what is pushed within flushAfterMs, without a full batch', async () => {
    vi.useFakeTimers();
    try {
      const written: number[][] = [];
      const queue = batchQueue<number>({ name: uniqueName(), records: 'numbers', flushAfterMs: 1_000, batchSize: 200, maxPending: 10_000, flushWhenFull: true, write: async (rows) => void written.push(rows) });
      queue.push(1);
      queue.push(2);
      await vi.advanceTimersByTimeAsync(999);
      expect(written).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(written).toEqual([[1, 2]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops the oldest unwritten records beyond maxPending and says how many once they are written', async () => {
    const warn = vi.spyOn(logger(), 'warn').mockImplementation(() => {});
    const written: number[] = [];
    const queue = batchQueue<number>({ name: uniqueName(), records: 'numbers', flushAfterMs: 60_000, batchSize: 10, maxPending: 5, write: async (rows) => void written.push(...rows) });
    for (let i = 0; i < 8; i += 1) queue.push(i);
    await queue.flush();
    expect(written).toEqual([3, 4, 5, 6, 7]);
    expect(warn.mock.calls.map(([line]) => line)).toEqual([
      expect.stringMatching(/^\[batch-queue-test-\d+\] the database is not keeping up; dropping the oldest unwritten numbers$/),
      expect.stringMatching(/^\[batch-queue-test-\d+\] 3 numbers were dropped while the database was not keeping up$/),
    ]);
  });

  it('lets a failed batch go, saying so, and writes the next ones', async () => {
    const warn = vi.spyOn(logger(), 'warn').mockImplementation(() => {});
    const written: number[][] = [];
    let calls = 0;
    const queue = batchQueue<number>({
      name: uniqueName(),
      records: 'numbers',
      flushAfterMs: 60_000,
      batchSize: 2,
      maxPending: 100,
      write: async (rows) => {
        if (++calls === 1) throw new Error('connection lost');
        written.push(rows);
      },
    });
    for (let i = 0; i < 5; i += 1) queue.push(i);
    await queue.flush();
    expect(written).toEqual([[2, 3], [4]]);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[batch-queue-test-\d+\] could not write 2 numbers: connection lost$/));
  });
});
