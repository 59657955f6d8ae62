// `npm run db:settings`: stores the app's session settings (lib/db.ts sessionSettings: work_mem, jit,
// statement_timeout, …, with the same DATABASE_* variables) on the database server, for the role of
// DATABASE_URL in its database, so that every session of that role there starts with them:
//   ALTER ROLE CURRENT_USER IN DATABASE <db> SET <name> = <value>
// For a deployment behind a connection pooler that does not pass the startup options on (PgBouncer),
// run with DATABASE_SESSION_SETTINGS=server: run it once against the server itself (not through the
// pooler), and again after changing one of those variables; the pooler's server connections opened
// after it have them.
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sessionSettings } from '../lib/db';

/** Stores the settings for the URL's role in its database; returns the statements it ran. */
export async function storeSessionSettings(connectionString: string): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ database: string }>('SELECT current_database() AS database');
    const database = client.escapeIdentifier(rows[0]!.database);
    const statements = sessionSettings().map(([name, value]) => `ALTER ROLE CURRENT_USER IN DATABASE ${database} SET ${name} = ${client.escapeLiteral(value)}`);
    for (const statement of statements) await client.query(statement);
    return statements;
  } finally {
    await client.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is not set: point it at the database server itself (not at a pooler).');
    process.exit(1);
  }
  storeSessionSettings(url)
    .then((statements) => console.log(statements.join(';\n') + ';'))
    .catch((error: Error) => {
      console.error(`could not store the session settings: ${error.message}`);
      process.exit(1);
    });
}
