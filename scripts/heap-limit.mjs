// The bound on V8's heap of `npm start`'s server (and so of the demo's and the cluster's instances,
// which start the same script). Left to itself V8 sizes the heap from the machine's memory, not from
// what the app needs: on a machine of 24 GB it lets the old generation reach about 4 GB and the young
// one 192 MB before it collects in earnest, so an instance whose live heap is about 100 MB sat at
// 600 MB and more under load (docs/performance/round-18-lean-and-fair.md). V8 takes its heap's size
// only when the process starts, so when none was given the server starts itself again, in the same
// process (execve: the same pid, signals and standard streams), with the bound below. Plain JavaScript
// (its types in heap-limit.d.mts): the start that is thrown away should not pay for stripping types.
//
// The same start sets MALLOC_ARENA_MAX (glibc's allocator, read once when a process starts) unless
// the operator did, see MALLOC_ARENAS.
//
// The heap's bound, first match wins:
//   1. a heap flag of the operator's own, in NODE_OPTIONS or on node's command line
//      (--max-old-space-size, --max-semi-space-size or --max-heap-size): left as it is;
//   2. SERVER_HEAP_MB: the old generation's bound in MB, or `off` for V8's own sizing;
//   3. otherwise a quarter of the memory the process may use (the container's limit when it has one,
//      else the machine's), at least MIN_OLD_SPACE_MB and at most MAX_OLD_SPACE_MB.
import os from 'node:os';

/**
 * The old generation's bound when nothing else says: the app's live heap under the heaviest traffic
 * measured is about 100 MB, so this leaves it room to grow without letting garbage pile up for GBs.
 */
const MAX_OLD_SPACE_MB = 256;
/** In a small container the bound still leaves the app room to start and answer. */
const MIN_OLD_SPACE_MB = 96;
/**
 * The young generation's semi-spaces: V8's default on a large machine is 64 MB each (three of them),
 * which alone held over 130 MB under load. Smaller ones cost CPU when a request's short-lived objects
 * outlive the collections: they are copied each time. Round 18 found 16 MB too slow for the 500-row
 * lists, but each statement's rows then outlived the collections (pg's query_timeout, see
 * lib/db-answer-bound.ts). Without that, 16 MB costs those lists no measurable time and holds the
 * mixed load about 50 MB lower than 32 MB (docs/performance/round-25-rows-kept-by-the-query-timeout.md).
 */
const SEMI_SPACE_MB = 16;

/**
 * glibc's allocator gives threads that allocate at the same time arenas of their own, up to 8 a core,
 * and keeps what was freed in each: the server's threads (the event loop, libuv's pool compressing
 * answers, V8's helpers) spread its native memory over many arenas. With two, 100 s of the mixed load
 * that is mostly refused 429 held 20-30 MB less RSS for the same CPU a request
 * (docs/performance/round-22-fairness-and-the-web-layer.md). Ignored by other allocators (musl).
 */
const MALLOC_ARENAS = '2';

const HEAP_FLAG = /(^|\s)--(max-old-space-size|max-semi-space-size|max-heap-size)(=|\s|$)/;

/** The memory the process may use in bytes: its container's limit (cgroup) when lower than the machine's. */
function memoryLimitBytes() {
  const constrained = process.constrainedMemory?.() ?? 0;
  const total = os.totalmem();
  return constrained > 0 && constrained < total ? constrained : total;
}

/**
 * The V8 flags the server should start with, or an empty list when it should start as it is. Pure, for
 * the unit tests: the environment, node's own flags and the memory limit are its arguments.
 */
export function heapFlags({ env = process.env, execArgv = process.execArgv, limitBytes = memoryLimitBytes() } = {}) {
  if (HEAP_FLAG.test(env.NODE_OPTIONS ?? '') || execArgv.some((flag) => HEAP_FLAG.test(flag))) return [];
  const chosen = env.SERVER_HEAP_MB?.trim();
  if (chosen === 'off') return [];
  let oldSpaceMb;
  if (chosen) {
    if (!/^\d+$/.test(chosen) || Number(chosen) < 16) throw new Error(`SERVER_HEAP_MB must be a whole number of MB (16 or more) or off, not "${env.SERVER_HEAP_MB}"`);
    oldSpaceMb = Number(chosen);
  } else {
    oldSpaceMb = Math.min(MAX_OLD_SPACE_MB, Math.max(MIN_OLD_SPACE_MB, Math.floor(limitBytes / 4 / 2 ** 20)));
  }
  return [`--max-old-space-size=${oldSpaceMb}`, `--max-semi-space-size=${SEMI_SPACE_MB}`];
}

/** The variables the server should start with beside its own: MALLOC_ARENA_MAX unless the operator set it. Pure, for the unit tests. */
export function allocatorEnv({ env = process.env } = {}) {
  return env.MALLOC_ARENA_MAX === undefined ? { MALLOC_ARENA_MAX: MALLOC_ARENAS } : {};
}

/**
 * Starts this process again with the heap's flags and the allocator's variable when it lacks either;
 * returns only when it has them (or cannot).
 */
export function boundMemory() {
  const flags = heapFlags();
  const env = allocatorEnv();
  // process.execve: Node.js 22.15 and 23.11 on; not on Windows, where the server starts unbounded.
  if ((flags.length === 0 && Object.keys(env).length === 0) || typeof process.execve !== 'function') return;
  process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, ...env });
}
