// The production build's command and server, as `npm run build` and `npm start` run them: one place for
// every harness that builds and starts the app (the HTTP tests, the browser tests, the benchmark).
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Next.js's command line, run with this process's Node.js (`next build`). */
export const NEXT_BIN = path.join(ROOT, 'node_modules/next/dist/bin/next');

/** The production server, as `npm start` runs it. */
export const SERVER_SCRIPT = path.join(ROOT, 'scripts/server.mjs');

/** Where the server keeps the code it compiles for the build in `distDir`, unless NODE_COMPILE_CACHE says otherwise. */
export function keptCodeDir(distDir: string): string {
  return path.join(ROOT, distDir, 'node-compile-cache');
}
