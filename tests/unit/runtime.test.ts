// The project runs on a supported Node.js LTS (docs/operations.md, Runtime): the npm package `node`
// provides it, and npm's scripts put it first on the PATH, so `npm test` runs these tests on it even
// where the machine's own Node.js is older. On Node.js 20 (end of life) every test here fails.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

afterEach(() => vi.restoreAllMocks());

describe('the Node.js runtime', () => {
  it(`is an LTS release of Node.js 22 or later (this is ${process.version})`, () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
    expect(process.release.lts).toEqual(expect.any(String));
  });

  it('lets oidc-provider load without its "Unsupported runtime" warning', async () => {
    // oidc-provider checks the runtime once, when its module is first evaluated, and warns on stderr.
    const warn = vi.spyOn(console, 'warn');
    await import('oidc-provider');
    expect(warn.mock.calls.flat().join('\n')).not.toContain('Unsupported runtime');
  });

  it('is named in .nvmrc as the version of the npm package `node` that package.json pins', () => {
    expect(manifest.dependencies.node).toMatch(/^\d+\.\d+\.\d+$/);
    expect(readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim()).toBe(manifest.dependencies.node);
  });
});
