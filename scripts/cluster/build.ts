// `npm run build:cluster` (and the first step of `npm run demo:cluster`): `next build` into .next/
// with what lets two builds serve side by side during a roll-out: the cluster's server actions key
// (the salt of every action's id, ./builds.ts) and a deployment id of the build's own (Next.js adds
// `?dpl=<id>` to its asset addresses, and a page whose server runs another build reloads in full
// rather than mixing the two). Then `kill -HUP <orchestrator pid>` rolls it out.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { serverActionsKey } from './builds';
import { CLUSTER_DIR } from './index';

const NEXT_BIN = path.resolve(import.meta.dirname, '../../node_modules/next/dist/bin/next');

const deploymentId = `${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`;
const result = spawnSync(process.execPath, [NEXT_BIN, 'build'], {
  stdio: 'inherit',
  env: { ...process.env, NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: await serverActionsKey(CLUSTER_DIR), NEXT_DEPLOYMENT_ID: deploymentId },
});
if (result.status === 0) console.log(`[cluster] built .next/ as deployment ${deploymentId}`);
process.exit(result.status ?? 1);
