// Every relative link of README.md and docs/ must reach a file, and every #anchor a heading of the
// page it names, slugged by GitHub's rule (github-slugger, the library GitHub's own renderers follow).
// A moved section or a renamed heading fails here, naming each broken link.
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** README.md and every Markdown file under docs/, relative to `root`. */
function markdownFiles(root: string): string[] {
  const inDocs = existsSync(path.join(root, 'docs'))
    ? readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' }).map((file) => path.join('docs', file))
    : [];
  return ['README.md', ...inDocs.filter((file) => file.endsWith('.md')).sort()];
}

function parse(text: string): Nodes {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

function* walk(node: Nodes): Generator<Nodes> {
  yield node;
  if ('children' in node) for (const child of node.children) yield* walk(child);
}

/** The anchors GitHub gives a page's headings, in order (a repeated heading gets -1, -2, …). */
function anchorsOf(tree: Nodes): Set<string> {
  const slugger = new GithubSlugger();
  return new Set([...walk(tree)].filter((node) => node.type === 'heading').map((heading) => slugger.slug(toString(heading))));
}

/** Each broken relative link of the Markdown files under `root`, as `file:line: target: why`. */
function brokenLinks(root: string): string[] {
  const trees = new Map(markdownFiles(root).map((file) => [file, parse(readFileSync(path.join(root, file), 'utf8'))]));
  const anchors = new Map([...trees].map(([file, tree]) => [file, anchorsOf(tree)]));
  // A page outside README.md and docs/ (say, a folder's own README) is read when a link names it.
  const anchorsIn = (file: string) => anchors.get(file) ?? anchorsOf(parse(readFileSync(path.join(root, file), 'utf8')));
  const broken: string[] = [];
  for (const [file, tree] of trees) {
    for (const node of walk(tree)) {
      if (node.type !== 'link' && node.type !== 'definition' && node.type !== 'image') continue;
      // Links with a scheme (https:, mailto:) or to another host are not ours to check.
      if (/^[a-z][a-z\d+.-]*:|^\/\//i.test(node.url)) continue;
      const where = `${file}:${node.position?.start.line}: ${node.url}`;
      const [target, fragment] = node.url.split('#', 2) as [string, string | undefined];
      // GitHub reads a path from the repository's root when it starts with a slash.
      const from = target.startsWith('/') ? '' : path.dirname(file);
      const linked = target === '' ? file : path.normalize(path.join(from, decodeURIComponent(target)));
      if (linked.startsWith('..') || !existsSync(path.join(root, linked))) {
        broken.push(`${where}: no file ${linked}`);
      } else if (fragment !== undefined) {
        const anchor = decodeURIComponent(fragment);
        if (!linked.endsWith('.md')) broken.push(`${where}: an anchor into ${linked}, which is not a Markdown page`);
        else if (!anchorsIn(linked).has(anchor)) broken.push(`${where}: no heading with the anchor #${anchor} in ${linked}`);
      }
    }
  }
  return broken;
}

describe('links in README.md and docs/', () => {
  it('reach a file, and a heading of it', () => {
    expect(markdownFiles(ROOT).length).toBeGreaterThan(1);
    expect(brokenLinks(ROOT)).toEqual([]);
  });

  it('are reported when broken, each by file, line and reason', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'docs-links-'));
    try {
      mkdirSync(path.join(root, 'docs'));
      writeFileSync(
        path.join(root, 'README.md'),
        [
          '# Title',
          '',
          'See [api](docs/api.md#what-npm-test-runs), [the second](docs/api.md#etag-and-304-1),',
          '[gone](docs/gone.md), [wrong anchor](docs/api.md#etag-and-304-2), [here](#title),',
          '[not here](#nothing), [rooted](/docs/api.md#api) and [site](https://example.com/x#y).',
          '',
          '`[in code](docs/none.md)`',
          '',
          '```',
          '[in a block](docs/none.md)',
          '```',
          '',
        ].join('\n'),
      );
      writeFileSync(path.join(root, 'docs/api.md'), '# API\n\n## What `npm test` runs\n\n## ETag and 304\n\n## ETag and 304\n\n[up](../README.md#title) [out](../../x.md)\n');
      expect(brokenLinks(root)).toEqual([
        'README.md:4: docs/gone.md: no file docs/gone.md',
        'README.md:4: docs/api.md#etag-and-304-2: no heading with the anchor #etag-and-304-2 in docs/api.md',
        'README.md:5: #nothing: no heading with the anchor #nothing in README.md',
        'docs/api.md:9: ../../x.md: no file ../x.md',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
