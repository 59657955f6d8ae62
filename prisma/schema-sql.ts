// Renders a Prisma schema as the SQL that creates it, offline. Prisma 7's CLI needs a schema-engine
// binary that cannot be downloaded everywhere; Prisma 6.19's CLI carries a WebAssembly schema engine
// that can render a diff between two datamodels without one. It is installed as the `prisma6` dev
// dependency for this alone (the app itself uses Prisma 7).
//
//   npm run db:migration -- --name add_something    writes prisma/migrations/<timestamp>_add_something
//                                                    from the schema at HEAD to the working schema
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCHEMA = path.join(ROOT, 'prisma', 'schema.prisma');
// Inside node_modules so that the config file can resolve `prisma6-adapter-pg`.
const WORK_ROOT = path.join(ROOT, 'node_modules', '.cache');

/** Prisma 6 wants the connection URL in the datasource block; Prisma 7 forbids it there. */
function withDatasourceUrl(schema: string): string {
  return schema.replace(/datasource db \{([^}]*)\}/, (_, body: string) => `datasource db {${body}  url = env("DATABASE_URL")\n}`);
}

const CONFIG = `import { PrismaPg } from 'prisma6-adapter-pg';
export default {
  experimental: { adapter: true },
  engine: 'js',
  // The engine asks for an adapter even to render SQL; it only connects, it changes nothing.
  async adapter() { return new PrismaPg({ connectionString: process.env.DATABASE_URL }); },
};
`;

/**
 * SQL that turns the `from` datamodel (empty when omitted) into the `to` datamodel. `databaseUrl`
 * must reach some PostgreSQL server; nothing is written to it.
 */
export function renderSchemaSql(options: { to?: string; from?: string; databaseUrl: string }): string {
  mkdirSync(WORK_ROOT, { recursive: true });
  const dir = mkdtempSync(path.join(WORK_ROOT, 'schema-sql-'));
  try {
    const toFile = path.join(dir, 'to.prisma');
    writeFileSync(toFile, withDatasourceUrl(options.to ?? readFileSync(SCHEMA, 'utf8')));
    const fromArgs = options.from === undefined ? ['--from-empty'] : ['--from-schema-datamodel', path.join(dir, 'from.prisma')];
    if (options.from !== undefined) writeFileSync(path.join(dir, 'from.prisma'), withDatasourceUrl(options.from));
    const configFile = path.join(dir, 'prisma.config.mjs');
    writeFileSync(configFile, CONFIG);
    // Any existing file satisfies the CLI's engine lookup; the wasm engine does the work.
    const placeholder = path.join(dir, 'no-native-engine');
    writeFileSync(placeholder, '');
    return execFileSync(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'prisma6', 'build', 'index.js'), 'migrate', 'diff', '--config', configFile, ...fromArgs, '--to-schema-datamodel', toFile, '--script'],
      {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          DATABASE_URL: options.databaseUrl,
          PRISMA_SCHEMA_ENGINE_BINARY: placeholder,
          PRISMA_QUERY_ENGINE_LIBRARY: placeholder,
          PRISMA_HIDE_UPDATE_MESSAGE: '1',
        },
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function newMigration(name: string): void {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const from = execFileSync('git', ['show', 'HEAD:prisma/schema.prisma'], { cwd: ROOT, encoding: 'utf8' });
  const migrationSql = renderSchemaSql({ from, databaseUrl });
  if (!migrationSql.trim() || /^-- This is an empty migration/m.test(migrationSql)) {
    console.log('schema.prisma has no changes since HEAD: no migration written');
    return;
  }
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = path.join(ROOT, 'prisma', 'migrations', `${stamp}_${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'migration.sql'), migrationSql);
  console.log(`wrote ${path.relative(ROOT, dir)}/migration.sql`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const index = process.argv.indexOf('--name');
  const name = index > 0 ? process.argv[index + 1] : undefined;
  if (!name || !/^[a-z0-9_]+$/.test(name)) {
    console.error('usage: npm run db:migration -- --name <snake_case_name>');
    process.exit(1);
  }
  newMigration(name);
}
