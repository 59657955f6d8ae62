// The demo's databases kept in the shared folder (a checkout closed to the `postgres` user, as a clone
// in a `mktemp -d` folder is): a checkout that is gone, or links elsewhere now, leaves one behind for
// good unless the next demo start removes it. Here on a shared folder of the test's own.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeAbandonedDemoFolders } from '../../scripts/embedded-database';

const root = mkdtempSync(path.join(os.tmpdir(), 'demo-folders-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A demo folder in `shared` (with a file in it), its note naming `dataDir`, and optionally the checkout's link to `linkTo`. */
function demoFolder(shared: string, hash: string, dataDir: string | null, linkTo?: string): string {
  const folder = path.join(shared, `demo-${hash}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'PG_VERSION'), '17\n');
  if (dataDir) writeFileSync(`${folder}.checkout`, `${dataDir}\n`);
  if (dataDir && linkTo) {
    mkdirSync(dataDir, { recursive: true });
    symlinkSync(linkTo, path.join(dataDir, 'postgres'));
  }
  return folder;
}

describe('removeAbandonedDemoFolders', () => {
  it('removes the folders whose checkout is gone or links elsewhere, and keeps a linked one and one without a note', async () => {
    const shared = path.join(root, 'shared');
    const gone = demoFolder(shared, 'a'.repeat(12), path.join(root, 'deleted-checkout/.data'));
    const live = demoFolder(shared, 'b'.repeat(12), path.join(root, 'live-checkout/.data'), path.join(shared, `demo-${'b'.repeat(12)}`));
    const moved = demoFolder(shared, 'c'.repeat(12), path.join(root, 'moved-checkout/.data'), path.join(root, 'elsewhere'));
    const unknown = demoFolder(shared, 'd'.repeat(12), null);

    expect((await removeAbandonedDemoFolders(shared)).sort()).toEqual([gone, moved]);
    expect([gone, moved].flatMap((folder) => [folder, `${folder}.checkout`]).filter((file) => existsSync(file))).toEqual([]);
    expect([live, `${live}.checkout`, unknown].every((file) => existsSync(file))).toBe(true);
  });

  it('keeps a folder its checkout links to before the folder exists (a first start creating it)', async () => {
    const shared = path.join(root, 'shared-first-start');
    const folder = path.join(shared, `demo-${'e'.repeat(12)}`);
    const dataDir = path.join(root, 'starting-checkout/.data');
    mkdirSync(shared, { recursive: true });
    mkdirSync(dataDir, { recursive: true });
    symlinkSync(folder, path.join(dataDir, 'postgres'));
    writeFileSync(`${folder}.checkout`, `${dataDir}\n`);

    expect(await removeAbandonedDemoFolders(shared)).toEqual([]);
    expect(existsSync(`${folder}.checkout`)).toBe(true);
  });
});
