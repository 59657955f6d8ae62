// A real server for the browser tests: fresh database (migrated, demo data at scale `tiny`), a
// production build in .next-e2e (its own folder, so a developer's .next is untouched) and `npm start`'s
// server (scripts/server.mjs).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { applyMigrations } from '../../../prisma/migrate';
import { seedDatabase } from '../../../prisma/seed';
import { createDatabase, dropDatabase } from '../../support/database';
import { NEXT_BIN, SERVER_SCRIPT } from '../../support/production-server';

const DIST_DIR = '.next-e2e';
const SEED_END_DATE = '2026-06-30';

/**
 * The server's output, for tests that check what a request made it log. Written by the server itself
 * (no pipe in between), so what it logged before answering is in the file when the answer arrives.
 */
const SERVER_LOG = 'test-results/e2e-server.log';

function build(): void {
  const result = spawnSync(process.execPath, [NEXT_BIN, 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_DIST_DIR: DIST_DIR } });
  if (result.status !== 0) throw new Error(`next build failed with status ${result.status}`);
}

/**
 * A self-signed certificate for localhost, for the https server that serves OAuth client metadata
 * documents in the browser tests. The app trusts it through NODE_EXTRA_CA_CERTS; the workers find it
 * through E2E_TLS_DIR.
 */
function makeTestCertificate(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'metrics-e2e-tls-'));
  const result = spawnSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
  ], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openssl could not make the test certificate: ${result.stderr}`);
  return dir;
}

async function assertPortFree(baseURL: string): Promise<void> {
  const answered = await fetch(baseURL).then(() => true, () => false);
  if (answered) throw new Error(`Something already listens on ${baseURL}: stop it, the browser tests start their own server there.`);
}

async function waitForServer(baseURL: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with status ${server.exitCode}`);
    try {
      const response = await fetch(new URL('/api/health', baseURL));
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer on ${baseURL} within 60 s`);
}

export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0]!.use.baseURL!;
  const port = new URL(baseURL).port;
  await assertPortFree(baseURL);
  const database = await createDatabase('metrics_e2e');
  const tlsDir = makeTestCertificate();
  let server: ChildProcess | undefined;
  const teardown = async () => {
    rmSync(tlsDir, { recursive: true, force: true });
    // The server runs in its own process group so that it stops with every process it started.
    if (server?.pid && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
    await dropDatabase(database.name);
  };
  try {
    await applyMigrations(database.url);
    await seedDatabase(database.url, { scale: 'tiny', seed: 7, endDate: SEED_END_DATE });
    // E2E_REUSE_BUILD=1 skips the build while iterating on tests; a test run always builds.
    if (process.env.E2E_REUSE_BUILD !== '1') build();
    mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
    const log = openSync(SERVER_LOG, 'w');
    console.log(`The app's output goes to ${SERVER_LOG}`);
    server = spawn(process.execPath, [SERVER_SCRIPT, '-p', port], {
      detached: true,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        NEXT_DIST_DIR: DIST_DIR,
        DATABASE_URL: database.url,
        // The OAuth issuer and MCP resource are this server's public address.
        APP_URL: baseURL,
        // Test-only: client metadata documents may be fetched from the local https test server.
        OAUTH_CIMD_ALLOW_LOOPBACK: '1',
        NODE_EXTRA_CA_CERTS: path.join(tlsDir, 'cert.pem'),
      },
    });
    await waitForServer(baseURL, server);
    // The workers inherit it: the tests read the database directly for independent expectations.
    process.env.DATABASE_URL = database.url;
    process.env.APP_URL = baseURL;
    process.env.E2E_TLS_DIR = tlsDir;
    process.env.E2E_SERVER_LOG = path.resolve(SERVER_LOG);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
