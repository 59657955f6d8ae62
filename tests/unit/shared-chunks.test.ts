// scripts/shared-chunks.mjs in a Node.js process of its own (the hook is for the whole process): chunk
// files that differ only in their source map's line are loaded once, as the first of them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const HOOK = path.resolve(import.meta.dirname, '../../scripts/shared-chunks.mjs');
const root = mkdtempSync(path.join(os.tmpdir(), 'shared-chunks-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A chunk file as Turbopack writes one: its modules, then the line naming its source map. */
function chunk(relative: string, modules: string): string {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `module.exports=[${modules}];\n\n//# sourceMappingURL=${path.basename(file)}.map\n`);
  return file;
}

/** Which of `files` Node loaded as the same module, in a process where the hook covers `chunks/`. */
function loadedTogether(files: string[]): boolean[] {
  const script = `
    import { createRequire } from 'node:module';
    const { shareIdenticalChunks } = await import(${JSON.stringify(HOOK)});
    shareIdenticalChunks(${JSON.stringify(path.join(root, 'chunks'))});
    const require = createRequire(import.meta.url);
    const files = ${JSON.stringify(files)};
    const first = require(files[0]);
    console.log(JSON.stringify(files.map((file) => require(file) === first)));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as boolean[];
}

describe('chunk files that are the same (scripts/shared-chunks.mjs)', () => {
  const modules = '1,e=>{e.s(["x",0,1])}';

  it('are loaded once, whatever their source map line says', () => {
    const first = chunk('chunks/_0aaa._.js', modules);
    const same = chunk('chunks/_0bbb._.js', modules);
    const sameAgain = chunk('chunks/_0ccc._.js', modules);
    expect(loadedTogether([first, same, sameAgain])).toEqual([true, true, true]);
  });

  it('are each loaded as themselves when their modules differ, are in another folder, or are outside the chunks', () => {
    const first = chunk('chunks/_1aaa._.js', modules);
    const other = chunk('chunks/_1bbb._.js', '2,e=>{e.s(["y",0,2])}');
    const otherFolder = chunk('chunks/ssr/_1ccc._.js', modules);
    const outside = chunk('elsewhere/_1ddd._.js', modules);
    expect(loadedTogether([first, other, otherFolder, outside])).toEqual([true, false, false, false]);
  });
});
