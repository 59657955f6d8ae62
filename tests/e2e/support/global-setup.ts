// What every browser-test worker starts from: the tests' production build (.next-test, the same one the
// HTTP-level vitest tests serve, built once for both), a template database (migrated, demo data at scale
// `tiny`) that each worker clones, and a certificate for the local https server of client metadata
// documents. Each worker then runs a server and a database of its own (./fixtures.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { applyMigrations } from '../../../prisma/migrate';
import { seedDatabase } from '../../../prisma/seed';
import { createDatabase, dropDatabase, dropDatabasesLike } from '../../support/database';
import { ensureTestBuild } from '../../support/http-server';

const SEED_END_DATE = '2026-06-30';

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

export default async function globalSetup() {
  const template = await createDatabase('metrics_e2e');
  const tlsDir = makeTestCertificate();
  const teardown = async () => {
    rmSync(tlsDir, { recursive: true, force: true });
    // The workers drop their clones; one left by a worker that was killed goes here.
    await dropDatabasesLike(`${template.name}_w%`);
    await dropDatabase(template.name);
  };
  try {
    await applyMigrations(template.url);
    await seedDatabase(template.url, { scale: 'tiny', seed: 7, endDate: SEED_END_DATE });
    await ensureTestBuild();
    // The workers inherit these (./fixtures.ts).
    process.env.E2E_TEMPLATE_DATABASE = template.name;
    process.env.E2E_TLS_DIR = tlsDir;
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
