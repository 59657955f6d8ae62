// Sizes of the code, for the architecture test's limits on function and file length: read with
// TypeScript's own parser, so that a function is what the language says it is (declarations, methods,
// arrow functions and function expressions alike), however it is formatted.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The TypeScript and JavaScript source files under `dir` (generated code and dependencies left out). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['generated', 'node_modules'].includes(entry.name) ? [] : sourceFiles(full);
    return /\.(tsx?|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** A function of a file: its name (see nameOf), first line (from 1) and length in lines, signature included. */
export interface FunctionSize {
  name: string;
  line: number;
  lines: number;
}

/** The name a function goes by: its own, its variable's or property's, else `(anonymous)`. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name && !ts.isComputedPropertyName(node.name)) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && !ts.isComputedPropertyName(parent.name)) {
    return parent.name.getText();
  }
  return '(anonymous)';
}

/** Every function with a body in `text` (the source of `fileName`), nested ones on their own too, in order. */
export function functionSizes(fileName: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: FunctionSize[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: nameOf(node as ts.FunctionLikeDeclaration), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The functions of `file` longer than `maxLines`, as `file:line name (N lines)` relative to `root`. */
export function longFunctions(file: string, maxLines: number, root: string): string[] {
  return functionSizes(file, readFileSync(file, 'utf8'))
    .filter(({ lines }) => lines > maxLines)
    .map(({ name, line, lines }) => `${path.relative(root, file)}:${line} ${name} (${lines} lines)`);
}

/** The files longer than `maxLines` lines, as `file (N lines)` relative to `root`. */
export function longFiles(files: string[], maxLines: number, root: string): string[] {
  return files.flatMap((file) => {
    const lines = readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length;
    return lines > maxLines ? [`${path.relative(root, file)} (${lines} lines)`] : [];
  });
}
