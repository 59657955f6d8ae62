// The folder dependency order of lib/ (docs/architecture.md): no two folders import each other, even
// through others, and neither door (rest, mcp) imports the other. Imports are read with TypeScript's
// own pre-processor, so comments and strings that look like imports are not counted.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LIB = path.join(ROOT, 'lib');
const DOORS = ['rest', 'mcp'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The folder right under lib/ that holds `file` (a file directly in lib/ is its own unit, e.g. `db.ts`). */
function unitOf(file: string): string {
  return path.relative(LIB, file).split(path.sep)[0]!.replace(/\.tsx?$/, '');
}

/** Which units each unit imports from, by the files' relative and `@/lib/` imports. */
function folderGraph(files: string[]): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of files) {
    const from = unitOf(file);
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = specifier.startsWith('@/') ? path.join(ROOT, specifier.slice(2)) : specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : null;
      if (!target || !target.startsWith(LIB + path.sep)) continue;
      const to = unitOf(target);
      if (to !== from && !edges.has(to)) edges.set(to, `${path.relative(ROOT, file)} imports ${specifier}`);
    }
  }
  return graph;
}

/** A cycle of units as `a → b → … → a` with the import that makes each step, or null. */
function findCycle(graph: Map<string, Map<string, string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (unit: string): string[] | null => {
    state.set(unit, 'open');
    trail.push(unit);
    for (const [next, why] of graph.get(unit) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = trail.slice(trail.indexOf(next));
        return [...cycle, next].map((u, i, all) => (i < all.length - 1 ? `${u} → ${all[i + 1]}` : '')).filter(Boolean).concat(`(${why})`);
      }
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    trail.pop();
    state.set(unit, 'done');
    return null;
  };
  for (const unit of graph.keys()) {
    if (state.has(unit)) continue;
    const found = visit(unit);
    if (found) return found;
  }
  return null;
}

describe('the folders of lib/', () => {
  const graph = folderGraph(sourceFiles(LIB));

  it('import each other one way only (no cycle between folders)', () => {
    expect(findCycle(graph)).toBeNull();
  });

  it('keep each door out of the other', () => {
    for (const door of DOORS) {
      const crossings = [...(graph.get(door) ?? [])].filter(([to]) => DOORS.includes(to) && to !== door).map(([, why]) => why);
      expect(crossings, `${door} imports the other door`).toEqual([]);
    }
  });

  it('keep the operation layer below both doors and the contract below the data surfaces', () => {
    const importsOf = (unit: string) => [...(graph.get(unit) ?? new Map()).keys()];
    expect(importsOf('operations').filter((to) => DOORS.includes(to))).toEqual([]);
    for (const surface of ['metrics', 'account']) {
      expect(importsOf(surface).filter((to) => ['operations', ...DOORS].includes(to))).toEqual([]);
    }
  });

  it('sees a cycle and a crossing when there is one (the check itself)', () => {
    const made = new Map([
      ['a', new Map([['b', 'x']])],
      ['b', new Map([['c', 'y']])],
      ['c', new Map([['a', 'z']])],
    ]);
    expect(findCycle(made)).toEqual(['a → b', 'b → c', 'c → a', '(z)']);
    expect(findCycle(new Map([['a', new Map([['b', 'x']])], ['b', new Map()]]))).toBeNull();
    expect(graph.get('rest')?.has('operations')).toBe(true);
  });
});
