// `npm run demo`: the service with demo data and nothing to set up. Uses DATABASE_URL when set,
// otherwise an embedded PostgreSQL in .data/. Migrates, seeds the demo data once, mints a fresh
// demo key with every scope, then runs the production server (built by `npm run demo` before this).
// `npm run demo:db` (`--database-only`) does the same without the server (no build either): the
// database runs until Ctrl-C, for `npm run dev` or `npm run key:create` against it.
import { spawn } from 'node:child_process';
import { mintDemoKey, prepareDemoDatabase } from './demo-data';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded-database';

const PORT = Number(process.env.PORT ?? 3000);
const DATABASE_ONLY = process.argv.includes('--database-only');
const log = (line: string) => console.log(`[demo] ${line}`);

async function main(): Promise<void> {
  let embedded: EmbeddedDatabase | undefined;
  let url = process.env.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedDatabase(log);
    url = embedded.url;
  } else {
    log('using the database in DATABASE_URL');
  }
  // lib/db reads DATABASE_URL when it first connects.
  process.env.DATABASE_URL = url;

  await prepareDemoDatabase(url, log);
  const key = await mintDemoKey();

  if (DATABASE_ONLY) {
    console.log(`
  Demo database (no web server; Ctrl-C stops it): DATABASE_URL=${url}
  Demo API key (every scope, shown once):
    ${key}
`);
    let stopping: Promise<void> | undefined;
    const stop = () => (stopping ??= (embedded?.stop() ?? Promise.resolve()).then(() => process.exit(0)));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    return;
  }

  // The URL printed is APP_URL, which the server's links (problem `type`s, OAuth, the MCP URL) are built from.
  const base = (process.env.APP_URL ??= `http://localhost:${PORT}`).replace(/\/+$/, '');
  console.log(`
  Metrics API with demo data: ${base}
  Dashboard sign-in:  ${base}/login   admin@demo.agency / demo-password (member@demo.agency sees some clients)
  Demo API key (every scope, shown once):
    ${key}
  Try:  curl -H "Authorization: Bearer ${key}" ${base}/api/v1/clients
  OpenAPI document: ${base}/api/v1/openapi.json
`);

  const server = spawn(process.execPath, ['scripts/server.mjs', '-p', String(PORT)], { stdio: 'inherit', env: { ...process.env, DATABASE_URL: url } });
  const shutdown = () => server.kill('SIGTERM');
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  server.on('exit', async (code) => {
    await embedded?.stop();
    process.exit(code ?? 0);
  });
}

main().catch(async (error: Error) => {
  console.error(`[demo] failed: ${error.message}`);
  process.exit(1);
});
