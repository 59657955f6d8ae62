// The dependency rules of docs/architecture.md, read from the code. Between the repository's top-level
// parts: app/, scripts/, prisma/, proxy.ts and instrumentation.ts import only what MAY_IMPORT allows
// (nothing imports tests/). Within lib/: no two folders import each other, even through others, and
// neither door (rest, mcp) imports the other, nor openapi/ either door, nor metrics/ auth/. What is
// done in one place is written in one file (the bearer header's reading, what the process shares on
// globalThis). And sizes: no function over 80 lines in lib/, app/ or scripts/, none over 60 in
// lib/metrics, no file of lib/ over 450 lines. And no measured figure in a comment of lib/ or app/.
// Imports are read with TypeScript's own pre-processor, so comments and strings that look like
// imports are not counted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { commentsOf } from '../support/code-comments';
import { functionSizes, longFiles, longFunctions, sourceFiles } from '../support/code-size';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LIB = path.join(ROOT, 'lib');
const DOORS = ['rest', 'mcp'];

/**
 * What each top-level part may import besides packages: the app and the two files Next.js runs before
 * it (proxy.ts, instrumentation.ts) call lib/; the scripts run lib/ and the seed (prisma/); lib/ and
 * prisma/ stand on their own. tests/ may import any of them, and is imported by none.
 */
const MAY_IMPORT: Record<string, string[]> = {
  app: ['lib'],
  'proxy.ts': ['lib'],
  'instrumentation.ts': ['lib'],
  scripts: ['lib', 'prisma'],
  lib: [],
  prisma: [],
};

/** The files of the repository that each import resolves to (relative and `@/` imports; packages left out). */
function importedFiles(file: string): { specifier: string; target: string }[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.flatMap(({ fileName: specifier }) => {
    const target = specifier.startsWith('@/') ? path.join(ROOT, specifier.slice(2)) : specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : null;
    return target ? [{ specifier, target }] : [];
  });
}

/** The top-level part of the repository that holds `file`: its first folder, or the file itself. */
function partOf(file: string): string {
  return path.relative(ROOT, file).split(path.sep)[0]!;
}

/** Whether `file` may import `target` by MAY_IMPORT (within one part, always). */
function mayImport(file: string, target: string): boolean {
  const [from, to] = [partOf(file), partOf(target)];
  return from === to || (MAY_IMPORT[from] ?? []).includes(to);
}

/** Every import of `files` that MAY_IMPORT does not allow, as `file imports specifier`. */
function forbiddenImports(files: string[]): string[] {
  return files.flatMap((file) =>
    importedFiles(file)
      .filter(({ target }) => !mayImport(file, target))
      .map(({ specifier }) => `${path.relative(ROOT, file)} imports ${specifier}`),
  );
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
    for (const { specifier, target } of importedFiles(file)) {
      if (!target.startsWith(LIB + path.sep)) continue;
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

  it('keep the operation layer below both doors, openapi beside them, and the contract below the data surfaces', () => {
    const importsOf = (unit: string) => [...(graph.get(unit) ?? new Map()).keys()];
    expect(importsOf('operations').filter((to) => DOORS.includes(to))).toEqual([]);
    // The OpenAPI document and llms.txt describe both doors; what they need of the MCP door is handed in by app/.
    expect([...(graph.get('openapi') ?? [])].filter(([to]) => DOORS.includes(to)).map(([, why]) => why)).toEqual([]);
    for (const surface of ['metrics', 'account']) {
      expect(importsOf(surface).filter((to) => ['operations', ...DOORS].includes(to))).toEqual([]);
    }
  });

  it('keep the data surfaces out of auth/: the rows a credential reaches are reach/', () => {
    expect([...(graph.get('metrics') ?? [])].filter(([to]) => to === 'auth').map(([, why]) => why)).toEqual([]);
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

/** The files of `files` whose text holds `text`, relative to the root. */
function filesHolding(files: string[], text: string): string[] {
  return files.filter((file) => readFileSync(file, 'utf8').includes(text)).map((file) => path.relative(ROOT, file));
}

describe('what lib/ does in one place', () => {
  it("reads the Authorization header's bearer token in one file (lib/auth/bearer.ts)", () => {
    expect(filesHolding(sourceFiles(LIB), '/^Bearer')).toEqual(['lib/auth/bearer.ts']);
  });

  // What every bundle of the process shares is made by processWide. Exempt: scripts/ and tests/, which
  // read or reset a slot from outside the bundles (scripts/drain.mjs the slot `shutdown`).
  it('touches globalThis in one file of lib/, app/, proxy.ts and instrumentation.ts (lib/process-wide.ts)', () => {
    const files = [...sourceFiles(LIB), ...sourceFiles(path.join(ROOT, 'app')), path.join(ROOT, 'proxy.ts'), path.join(ROOT, 'instrumentation.ts')];
    expect(filesHolding(files, 'globalThis')).toEqual(['lib/process-wide.ts']);
  });
});

describe('the top-level parts of the repository', () => {
  const files = Object.keys(MAY_IMPORT).flatMap((part) => (part.endsWith('.ts') ? [path.join(ROOT, part)] : sourceFiles(path.join(ROOT, part))));

  it('import only what MAY_IMPORT allows (app/ and scripts/ lib/ but not each other, nothing tests/)', () => {
    expect(forbiddenImports(files)).toEqual([]);
  });

  it('tells an allowed import from a forbidden one (the check itself)', () => {
    const at = (file: string) => path.join(ROOT, file);
    expect(files).toContain(at('scripts/server.mjs'));
    expect(files).toContain(at('proxy.ts'));
    expect(mayImport(at('app/page.tsx'), at('lib/db.ts'))).toBe(true);
    expect(mayImport(at('app/page.tsx'), at('tests/support/api.ts'))).toBe(false);
    expect(mayImport(at('scripts/demo.ts'), at('prisma/seed/index.ts'))).toBe(true);
    expect(mayImport(at('scripts/demo.ts'), at('app/page.tsx'))).toBe(false);
    expect(mayImport(at('lib/db.ts'), at('scripts/server.mjs'))).toBe(false);
    expect(mayImport(at('proxy.ts'), at('app/page.tsx'))).toBe(false);
  });
});

describe('the size of the code', () => {
  const files = ['lib', 'app', 'scripts'].flatMap((part) => sourceFiles(path.join(ROOT, part)));

  it('has no function over 80 lines in lib/, app/ or scripts/', () => {
    expect(files.flatMap((file) => longFunctions(file, 80, ROOT))).toEqual([]);
  });

  it('has no file of lib/ over 450 lines', () => {
    expect(longFiles(sourceFiles(LIB), 450, ROOT)).toEqual([]);
  });
});

describe('the size of lib/metrics', () => {
  const files = sourceFiles(path.join(LIB, 'metrics'));

  it('has no function over 60 lines', () => {
    expect(files.flatMap((file) => longFunctions(file, 60, ROOT))).toEqual([]);
  });

  it('has no file over 450 lines', () => {
    expect(longFiles(files, 450, ROOT)).toEqual([]);
  });

  it('measures every kind of function, nested ones on their own (the check itself)', () => {
    const text = [
      'export function outer() {',
      '  const inner = () => {',
      '    return 1;',
      '  };',
      '  return inner;',
      '}',
      'class A { method() {',
      '  return function named() { return 2; };',
      '} }',
      'const object = { property: async () => 3 };',
    ].join('\n');
    expect(functionSizes('made-up.ts', text)).toEqual([
      { name: 'outer', line: 1, lines: 6 },
      { name: 'inner', line: 2, lines: 3 },
      { name: 'method', line: 7, lines: 3 },
      { name: 'named', line: 8, lines: 1 },
      { name: 'property', line: 10, lines: 1 },
    ]);
  });
});

/**
 * A figure as measurements are written: a number with a unit of time (ms, µs, s), of size (kB, MB) or a
 * percentage, or "N times faster" (slower, as much, …). Measurements belong in docs/performance/, where a
 * round says how and on what they were taken; a comment links the round instead of copying its figures,
 * which would go stale unseen. Text in backticks or double quotes is an example (of a log line, of what
 * a page shows), not a figure of the code.
 */
const FIGURE = /\d(?:[\d,.]*\d)?(?:\s*(?:ms|µs|kB|MB|%)|\s+s)(?!\w)|\d(?:[\d,.]*\d)?\s*(?:[x×]|times)\s+(?:faster|slower|as\s+(?:much|many|long|fast))/g;

/**
 * Figures in comments that are not measurements, by file: limits, defaults and settings the code
 * states. Each must still be there (a stale entry fails too), so the list only shrinks by hand.
 */
const NOT_MEASURED: Record<string, string[]> = {
  'lib/http/body.ts': ['1 MB'], // Next.js's server-action body limit
  'lib/oauth/client-metadata.ts': ['30 s', '5 s'], // the bounds of a document's max-age, the fetch's limit
  'lib/ratelimit/fallback.ts': ['10 s'], // how often the primary is retried
  'lib/db.ts': ['10 s'], // DATABASE_STATEMENT_TIMEOUT's default
};

/** The figures in the comments of `text` (the source of `file`, relative to the root), as `file:line figure`. */
function commentFigures(file: string, text: string): string[] {
  return commentsOf(file, text).flatMap((comment) =>
    comment.text.split('\n').flatMap((line, i) => [...line.replace(/`[^`]*`|"[^"]*"/g, '').matchAll(FIGURE)].map(([figure]) => `${file}:${comment.line + i} ${figure}`)),
  );
}

describe('the comments of lib/ and app/', () => {
  const found = ['lib', 'app'].flatMap((part) => sourceFiles(path.join(ROOT, part))).flatMap((file) => commentFigures(path.relative(ROOT, file), readFileSync(file, 'utf8')));
  const allowed = (entry: string) => {
    const [, file, figure] = /^(.+?):\d+ (.+)$/.exec(entry)!;
    return NOT_MEASURED[file!]?.includes(figure!) ?? false;
  };

  it('hold no measured figure: they link the round in docs/performance/ instead', () => {
    expect(found.filter((entry) => !allowed(entry))).toEqual([]);
  });

  it('still hold every figure NOT_MEASURED allows (no stale entry)', () => {
    const stale = Object.entries(NOT_MEASURED).flatMap(([file, figures]) => figures.filter((figure) => !found.some((entry) => entry.startsWith(`${file}:`) && entry.endsWith(` ${figure}`))).map((figure) => `${file} ${figure}`));
    expect(stale).toEqual([]);
  });

  it('tells a measured figure from other numbers (the check itself)', () => {
    const text = [
      '// The overview took 17.7 ms, a third faster, 12 %; 280 kB in 0.3-0.7 ms; 3x faster, 50 times as much.',
      '/** 1.5 µs a call, 2 MB of heap, retried after 10 s. */',
      'const a = 1; // 429s, 366 days, 60 requests, offset 500, level 1, ISO 8601',
      '// A log line reads `GET /api/v1/me 200 3.2 ms`; the page shows "14 min 05 s".',
      "const url = 'http://x/50 ms'; const s = '12 %';",
    ].join('\n');
    expect(commentFigures('made-up.ts', text)).toEqual([
      'made-up.ts:1 17.7 ms',
      'made-up.ts:1 12 %',
      'made-up.ts:1 280 kB',
      'made-up.ts:1 0.7 ms',
      'made-up.ts:1 3x faster',
      'made-up.ts:1 50 times as much',
      'made-up.ts:2 1.5 µs',
      'made-up.ts:2 2 MB',
      'made-up.ts:2 10 s',
    ]);
  });
});
