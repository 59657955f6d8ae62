// The comments of the code, for the architecture test's rule that measured figures live in
// docs/performance/, not in comments: read with TypeScript's own parser, so that a `//` inside a string
// or a URL is not taken for a comment.
import ts from 'typescript';

/** A comment of a file: its first line (from 1) and its text, markers included. */
export interface Comment {
  line: number;
  text: string;
}

/** Every comment of `text` (the source of `fileName`), JSX ones included, once each, in order. */
export function commentsOf(fileName: string, text: string): Comment[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = new Map<number, Comment>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const { pos, end } of ranges ?? []) found.set(pos, { line: source.getLineAndCharacterOfPosition(pos).line + 1, text: text.slice(pos, end) });
  };
  // Every token, punctuation included (getChildren, not forEachChild), so that a comment before a
  // closing brace or at the end of the file is seen too.
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...found.values()].sort((a, b) => a.line - b.line);
}
