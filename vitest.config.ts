import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(import.meta.dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default is one worker fewer than the cores: on this two-core machine one, every file in
    // turn and a core idle while a file waits on its server, its database or a cluster. Most files wait
    // much of their time, so four keep both cores busy (docs/testing.md has the profile). One number
    // for every project: projects with different counts would have to run one after the other.
    maxWorkers: 4,
    projects: [
      {
        resolve: { alias },
        // Some unit tests check every case of a year exhaustively: CPU-bound, so a longer limit than
        // vitest's 5 s keeps them from failing on a machine busy with the integration project.
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          setupFiles: ['tests/support/worker-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // One database for the run; files run in parallel workers against it.
          fileParallelism: true,
        },
      },
      {
        resolve: { alias },
        // The whole service as `npm run demo:cluster` runs it (PostgreSQL primary and replica, Redis,
        // HAProxy, app instances): its own databases and ports, so no global setup; starting it takes
        // a while on a busy machine. One cluster shared by the tests of cluster.test.ts; cli.test.ts
        // drives the orchestrator's process by signals, with a small cluster of its own.
        test: {
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
