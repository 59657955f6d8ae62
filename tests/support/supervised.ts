// Pieces of the cluster (scripts/cluster) started for one test file, under a supervisor of their own
// in a temporary folder: stop() stops them in the reverse order and deletes the folder, and a start
// that fails stops what it had started.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Supervisor } from '../../scripts/cluster/processes';

export async function supervised<T extends object>(name: string, start: (supervisor: Supervisor) => Promise<T>): Promise<T & { stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `metrics-${name}-`));
  // As root PostgreSQL and PgBouncer run as `postgres`, which must traverse the folder.
  chmodSync(dir, 0o755);
  const supervisor = new Supervisor(dir, () => {});
  const stop = async () => {
    await supervisor.stopAll();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await supervisor.prepare();
    return { ...(await start(supervisor)), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
