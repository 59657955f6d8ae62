// The heap's bound of `npm start`'s server (scripts/heap-limit.mjs): an operator's own flag wins, then
// SERVER_HEAP_MB, then a quarter of the memory limit within the default's floor and ceiling.
// glibc's arenas: two unless the operator set MALLOC_ARENA_MAX.
import { describe, expect, it } from 'vitest';
import { allocatorEnv, heapFlags } from '../../scripts/heap-limit.mjs';

const GB = 2 ** 30;
const flagsFor = (env: Record<string, string>, limitBytes = 24 * GB, execArgv: string[] = []) => heapFlags({ env, execArgv, limitBytes });

describe('the heap bound of the server', () => {
  it('is 256 MB of old generation on a large machine, and a quarter of a small container', () => {
    expect(flagsFor({})).toEqual(['--max-old-space-size=256', '--max-semi-space-size=16']);
    expect(flagsFor({}, 512 * 2 ** 20)[0]).toBe('--max-old-space-size=128');
    expect(flagsFor({}, 256 * 2 ** 20)[0]).toBe('--max-old-space-size=96');
  });

  it("leaves an operator's own heap flag alone, in NODE_OPTIONS or on node's command line", () => {
    expect(flagsFor({ NODE_OPTIONS: '--enable-source-maps --max-old-space-size=1024' })).toEqual([]);
    expect(flagsFor({ NODE_OPTIONS: '--max-heap-size=600' })).toEqual([]);
    expect(flagsFor({}, 24 * GB, ['--max-semi-space-size=16'])).toEqual([]);
    // A flag that merely starts like one is not one.
    expect(flagsFor({ NODE_OPTIONS: '--max-old-space-size-x' })).not.toEqual([]);
  });

  it('takes SERVER_HEAP_MB, or off for V8’s own sizing, and refuses anything else', () => {
    expect(flagsFor({ SERVER_HEAP_MB: '512' })[0]).toBe('--max-old-space-size=512');
    expect(flagsFor({ SERVER_HEAP_MB: 'off' })).toEqual([]);
    expect(() => flagsFor({ SERVER_HEAP_MB: '1.5GB' })).toThrow(/SERVER_HEAP_MB/);
    expect(() => flagsFor({ SERVER_HEAP_MB: '8' })).toThrow(/16 or more/);
  });
});

describe("the allocator's arenas", () => {
  it("are two unless the operator set MALLOC_ARENA_MAX, whatever its value", () => {
    expect(allocatorEnv({ env: {} })).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(allocatorEnv({ env: { MALLOC_ARENA_MAX: '8' } })).toEqual({});
    expect(allocatorEnv({ env: { MALLOC_ARENA_MAX: '' } })).toEqual({});
  });
});
