// Which reads may go to the read replica (docs/operations.md, Database): the synced data — every file
// of lib/metrics (the data version included), the client list and the client lookup of a reach — reads
// through `readSql`, never the primary's `sql`; and no other file of lib/ uses `readSql`, so keys,
// sessions, OAuth, audit and usage stay on the primary. A file that moves or is added under
// lib/metrics is held to it too.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LIB = path.join(ROOT, 'lib');
const DB = path.join(LIB, 'db.ts');
const OTHER_SYNCED_DATA_READERS = ['lib/account/clients.ts', 'lib/reach/reach.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The names a file imports from lib/db.ts (as exported there, before any `as`). */
function namesFromDb(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const specifier = statement.moduleSpecifier.text;
    const target = specifier.startsWith('@/') ? path.join(ROOT, specifier.slice(2)) : path.resolve(path.dirname(file), specifier);
    if (target !== DB && `${target}.ts` !== DB) return [];
    const bindings = statement.importClause?.namedBindings;
    return bindings && ts.isNamedImports(bindings) ? bindings.elements.map((element) => (element.propertyName ?? element.name).text) : [];
  });
}

describe('reads of the synced data', () => {
  const files = sourceFiles(LIB).map((file) => ({ file: path.relative(ROOT, file), names: namesFromDb(file) }));
  const readers = files.filter(({ file }) => file.startsWith('lib/metrics/') || OTHER_SYNCED_DATA_READERS.includes(file));

  it('go through readSql, never the primary-only sql', () => {
    expect(readers.filter(({ names }) => names.includes('sql')).map(({ file }) => file)).toEqual([]);
    for (const file of OTHER_SYNCED_DATA_READERS) expect(readers.find((reader) => reader.file === file)?.names).toContain('readSql');
  });

  it('are the only users of readSql in lib/', () => {
    const others = files.filter(({ file, names }) => names.includes('readSql') && !readers.some((reader) => reader.file === file));
    expect(others.map(({ file }) => file)).toEqual([]);
  });
});
