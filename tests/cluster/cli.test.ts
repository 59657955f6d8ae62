// `npm run demo:cluster`'s orchestrator as a person drives it, by signals: its process id in
// orchestrator.pid, SIGHUP for a roll-out, and a second stop signal during the stop. A cluster of its
// own (one instance, the tiny data), since these end it; cluster.test.ts covers the rest on the one
// cluster it shares between its tests, and this file runs beside it.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildsFolder } from '../../scripts/cluster/builds';
import { isAlive, waitFor } from '../../scripts/cluster/processes';
import { ensureTestBuild, TEST_DIST_DIR } from '../support/http-server';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string | undefined;

afterAll(() => {
  if (!dir) return;
  // Killed, the cluster left its copy of the build behind.
  rmSync(buildsFolder(dir), { recursive: true, force: true });
  if (!process.env.KEEP_CLUSTER_DIR) rmSync(dir, { recursive: true, force: true });
});

it('writes its process id, replaces its instance on SIGHUP, and a second stop signal during the stop kills what is left at once', async () => {
  await ensureTestBuild();
  dir = mkdtempSync(path.join(os.tmpdir(), 'metrics-cluster-cli-'));
  // As root PostgreSQL runs as `postgres`, which must traverse the folder to its data.
  chmodSync(dir, 0o755);
  // One process (no tsx wrapper in between), so that signals reach the orchestrator itself.
  const orchestrator = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster/cli.ts', '--instances', '1', '--scale', 'tiny', '--dir', dir], {
    cwd: ROOT,
    env: { ...process.env, NEXT_DIST_DIR: TEST_DIST_DIR },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  orchestrator.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  orchestrator.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => orchestrator.once('exit', (code) => resolve(code)));
  const printed = (text: string, timeoutMs: number) => waitFor(`the orchestrator to print "${text}"`, async () => (output.includes(text) ? true : undefined), { timeoutMs });
  try {
    await printed('Ctrl-C stops everything', 240_000);
    expect(readFileSync(path.join(dir, 'orchestrator.pid'), 'utf8')).toBe(`${orchestrator.pid}\n`);
    expect(output).toContain(`Orchestrator:        pid ${orchestrator.pid}`);
    expect(output).toMatch(/^ {2}Prometheus: {10}http:\/\/127\.0\.0\.1:\d+ {3}\(every instance's metrics/m);

    // The same build again: a rolling restart, i1 replaced by i2.
    process.kill(orchestrator.pid!, 'SIGHUP');
    await printed('[cluster] roll-out done: i2', 120_000);
    expect(output).toMatch(/^\[cluster\] instance i1 \(build [\w-]+\) replaced by i2 \(build [\w-]+\)$/m);

    const running = (JSON.parse(readFileSync(path.join(dir, 'processes.json'), 'utf8')) as { name: string; pid: number }[]).filter((process) => isAlive(process.pid));
    expect(running.map((process) => process.name)).toEqual(['postgres primary', 'postgres replica', 'redis', 'haproxy', 'prometheus', 'instance i2']);
    // Prometheus scrapes the instance that replaced i1 (the file of targets it watches).
    const targets = JSON.parse(readFileSync(path.join(dir, 'prometheus-targets.json'), 'utf8')) as { targets: string[]; labels: { instance: string } }[];
    expect(targets).toEqual([{ targets: [expect.stringMatching(/^127\.0\.0\.1:\d+$/)], labels: { instance: 'i2' } }]);
    // Two signals at once (two SIGINTs could merge into one): the stop begins, the second cuts it
    // short. Which of the two the process handles first is not certain.
    process.kill(orchestrator.pid!, 'SIGINT');
    process.kill(orchestrator.pid!, 'SIGTERM');
    const startedAt = Date.now();
    expect(await exited).toBe(1);
    expect(output).toMatch(/^\[cluster\] (SIGINT|SIGTERM): stopping everything \(another Ctrl-C or SIGTERM kills what is left at once\)$/m);
    expect(output).toMatch(/^\[cluster\] (SIGINT|SIGTERM) during the stop: killing what is left at once$/m);
    expect(output).not.toMatch(/^\[cluster\] stopped$/m);
    await waitFor('every process to be gone', async () => (running.every((process) => !isAlive(process.pid)) ? true : undefined), { timeoutMs: 5_000 });
    expect(Date.now() - startedAt).toBeLessThan(5_000);
  } finally {
    // A failure above leaves it running: its own ordered stop, which leaves nothing behind.
    if (orchestrator.exitCode === null) {
      orchestrator.kill('SIGINT');
      await exited;
    }
  }
}, 400_000);
