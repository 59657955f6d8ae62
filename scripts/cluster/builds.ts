// The builds the instances serve, and what two builds serving at once (a roll-out) must share.
//
// `next build` empties its folder before writing the next build, so the instances never serve `.next/`
// itself: each build is copied into a folder of its own, named by its id (below), under the project
// (Next.js refuses a distDir outside it). The static files (`/_next/static/…`, content-hashed names)
// of every build go into one folder that each copy links to: during a roll-out, a page rendered by an
// instance of one build loads its scripts and styles from whichever instance the balancer picks.
//
// Server actions: Next.js salts each action's id with the server actions encryption key, and encrypts
// the values an action closes over with it. Built and served with one key (NEXT_SERVER_ACTIONS_ENCRYPTION_KEY,
// kept per cluster, see serverActionsKey), a form rendered by one build posts to an instance of the
// next one as long as the action's code has not moved.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Build {
  /**
   * What tells it from other builds: its deployment id when it has one (Next.js then writes the same
   * BUILD_ID for every build, `build-TfctsWXpff2fKS`), else its BUILD_ID.
   */
  id: string;
  /** Next.js's deploymentId it was built with (NEXT_DEPLOYMENT_ID), '' for none: the instances serving it get the same. */
  deploymentId: string;
  /** Where the instances serve it from, relative to the project (NEXT_DIST_DIR). */
  distDir: string;
}

/** This cluster's copies: one folder per cluster folder, so that two clusters never share one. */
export function buildsFolder(clusterDir: string): string {
  return path.join(ROOT, '.next-cluster', createHash('sha256').update(clusterDir).digest('hex').slice(0, 12));
}

/** Copies the build in `distDir` (relative to the project) for the cluster, unless it has it already. */
export async function prepareBuild(clusterDir: string, distDir: string): Promise<Build> {
  const from = path.resolve(ROOT, distDir);
  const manifest = JSON.parse(await readFile(path.join(from, 'required-server-files.json'), 'utf8')) as { config: { deploymentId?: string } };
  const deploymentId = manifest.config.deploymentId ?? '';
  const id = deploymentId || (await readFile(path.join(from, 'BUILD_ID'), 'utf8')).trim();
  const folder = buildsFolder(clusterDir);
  const target = path.join(folder, id);
  if (!existsSync(path.join(target, 'BUILD_ID'))) {
    await rm(target, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    const skipped = new Set(['cache', 'static', 'BUILD_ID'].map((name) => path.join(from, name)));
    await cp(from, target, { recursive: true, filter: (source) => !skipped.has(source) });
    const shared = path.join(folder, 'static');
    await cp(path.join(from, 'static'), shared, { recursive: true });
    await symlink(shared, path.join(target, 'static'));
    // Last: a copy cut short has none, and is made again.
    await copyFile(path.join(from, 'BUILD_ID'), path.join(target, 'BUILD_ID'));
  }
  return { id, deploymentId, distDir: path.relative(ROOT, target) };
}

/** Removes a build's copy once no instance serves it (its static files stay: pages of it may still be open). */
export async function removeBuild(build: Build): Promise<void> {
  await rm(path.resolve(ROOT, build.distDir), { recursive: true, force: true });
}

/**
 * The cluster's server actions key: NEXT_SERVER_ACTIONS_ENCRYPTION_KEY when set, else one made on
 * first use and kept in the cluster's folder (32 random bytes, base64, as Next.js makes its own), so
 * that every build and every instance of the cluster use the same.
 */
export async function serverActionsKey(clusterDir: string): Promise<string> {
  if (process.env.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY) return process.env.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY;
  const file = path.join(clusterDir, 'server-actions.key');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const key = randomBytes(32).toString('base64');
  await mkdir(clusterDir, { recursive: true });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return key;
}
