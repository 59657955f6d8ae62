// The `test` of every browser test: each Playwright worker runs a server and a database of its own, so
// that workers run side by side without seeing each other's sign-ins, keys or throttles. The database is
// a clone of the run's seeded template (./global-setup.ts); the server is `npm start`'s
// (scripts/server.mjs) on the tests' production build, on a free port, and `baseURL` points at it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { freePort } from '../../../scripts/cluster/processes';
import { cloneDatabase, dropDatabase } from '../../support/database';
import { TEST_DIST_DIR } from '../../support/http-server';
import { SERVER_SCRIPT } from '../../support/production-server';

export { expect } from '@playwright/test';

interface AppServer {
  url: string;
}

async function waitForServer(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with status ${server.exitCode}`);
    try {
      if ((await fetch(new URL('/api/health', url))).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server did not answer on ${url} within 60 s`);
}

export const test = base.extend<object, { appServer: AppServer }>({
  appServer: [
    async ({}, provide, workerInfo) => {
      const template = process.env.E2E_TEMPLATE_DATABASE!;
      const database = await cloneDatabase(template, `${template}_w${workerInfo.workerIndex}`);
      const port = await freePort();
      const url = `http://localhost:${port}`;
      /*
       * The server's output, for tests that check what a request made it log (./server-log.ts). Written
       * by the server itself (no pipe in between), so what it logged before answering is in the file
       * when the answer arrives.
       */
      const log = path.resolve(`test-results/e2e-server-${workerInfo.parallelIndex}.log`);
      mkdirSync(path.dirname(log), { recursive: true });
      const output = openSync(log, 'w');
      const server = spawn(process.execPath, [SERVER_SCRIPT, '-p', String(port)], {
        // Its own process group, so that it stops with every process it started.
        detached: true,
        stdio: ['ignore', output, output],
        env: {
          ...process.env,
          NEXT_DIST_DIR: TEST_DIST_DIR,
          DATABASE_URL: database.url,
          // The OAuth issuer and MCP resource are this server's public address.
          APP_URL: url,
          // Test-only: client metadata documents may be fetched from the local https test server.
          OAUTH_CIMD_ALLOW_LOOPBACK: '1',
          NODE_EXTRA_CA_CERTS: path.join(process.env.E2E_TLS_DIR!, 'cert.pem'),
        },
      });
      try {
        await waitForServer(url, server);
        // The tests read the database directly for independent expectations, and the server's log.
        process.env.DATABASE_URL = database.url;
        process.env.APP_URL = url;
        process.env.E2E_SERVER_LOG = log;
        await provide({ url });
      } finally {
        if (server.pid && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
        await dropDatabase(database.name);
      }
    },
    // Cloning and a server start take a few seconds; on a busy machine more.
    { scope: 'worker', auto: true, timeout: 120_000 },
  ],
  baseURL: async ({ appServer }, provide) => provide(appServer.url),
});
