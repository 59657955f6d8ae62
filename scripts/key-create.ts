// `npm run key:create -- --org <id|slug> --scopes ads:read,social:read [--clients id,…]
//   [--expires YYYY-MM-DD] [--name …]`: mints an API key in the database of DATABASE_URL, or when it
// is unset in the embedded database of a running `npm run demo`, and prints it once. Only its
// SHA-256 is stored.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createApiKey, InvalidKeyRequest } from '../lib/auth/api-keys';
import { isScope, SCOPES, type Scope } from '../lib/contract/scopes';
import { closeDb, sql } from '../lib/db';
import { keyNameSchema } from '../lib/settings/key-form';
import { UUID_PATTERN } from '../lib/text/uuid';
import { dayNumber, isRealDay } from '../lib/time/days';
import { runningEmbeddedDatabaseUrl } from './embedded-database';

const USAGE = `Usage: npm run key:create -- --org <id|slug> --scopes ${SCOPES.join(',')} [--clients <id,…>] [--expires YYYY-MM-DD] [--name <text>]`;

export class UsageError extends Error {}

export interface KeyRequest {
  org: string;
  scopes: Scope[];
  clientIds: string[] | null;
  expiresAt: Date | null;
  name: string;
}

const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

export function parseKeyCreateArgs(argv: string[]): KeyRequest {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { org: { type: 'string' }, scopes: { type: 'string' }, clients: { type: 'string' }, expires: { type: 'string' }, name: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  if (!values.org) throw new UsageError(`--org is required.\n${USAGE}`);
  const scopes = list(values.scopes);
  if (scopes.length === 0) throw new UsageError(`--scopes is required (one or more of ${SCOPES.join(', ')}).\n${USAGE}`);
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length > 0) throw new UsageError(`Unknown scope ${unknown.join(', ')}; the scopes are ${SCOPES.join(', ')}.`);
  let clientIds: string[] | null = null;
  if (values.clients !== undefined) {
    clientIds = list(values.clients);
    if (clientIds.length === 0) throw new UsageError('--clients needs at least one client id (omit it for a key that reads every client).');
    const bad = clientIds.filter((id) => !UUID_PATTERN.test(id));
    if (bad.length > 0) throw new UsageError(`Not a client id (UUID): ${bad.join(', ')}.`);
  }
  let expiresAt: Date | null = null;
  if (values.expires !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(values.expires) || !isRealDay(values.expires)) {
      throw new UsageError(`--expires must be a calendar date as YYYY-MM-DD, got ${values.expires}.`);
    }
    // The key works through the whole of that day (UTC) and stops at the next midnight.
    expiresAt = new Date((dayNumber(values.expires) + 1) * 86_400_000);
  }
  // The settings form's rule for names, so that a key made here displays as it does there.
  const name = keyNameSchema.safeParse(values.name ?? 'CLI key');
  if (!name.success) throw new UsageError(`--name: ${name.error.issues[0]!.message}`);
  return { org: values.org, scopes: [...new Set(scopes)] as Scope[], clientIds, expiresAt, name: name.data };
}

/** Creates the key and returns the lines to print; throws UsageError or InvalidKeyRequest for bad input. */
export async function createKeyFromArgs(argv: string[]): Promise<string[]> {
  const request = parseKeyCreateArgs(argv);
  const [org] = await sql<{ id: string; name: string }>(
    `SELECT id, name FROM organizations WHERE ${UUID_PATTERN.test(request.org) ? 'id = $1::uuid' : 'slug = $1'}`,
    [request.org],
  );
  if (!org) throw new UsageError(`No organisation with id or slug "${request.org}".`);
  const { key, id, prefix } = await createApiKey({
    orgId: org.id,
    name: request.name,
    scopes: request.scopes,
    clientIds: request.clientIds,
    expiresAt: request.expiresAt,
    createdById: null,
  });
  return [
    `Created key ${id} (${prefix}…) for ${org.name}: scopes ${request.scopes.join(', ')}; ${
      request.clientIds ? `clients ${request.clientIds.join(', ')}` : 'every client'
    }; ${request.expiresAt ? `expires ${request.expiresAt.toISOString()}` : 'no expiry'}.`,
    'The key is shown only this once; only its hash is stored:',
    key,
  ];
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL || (await runningEmbeddedDatabaseUrl());
  if (!url) {
    console.error('No database: start `npm run demo` (its embedded database is then found in .data/), or set DATABASE_URL to the service database.');
    process.exitCode = 2;
    return;
  }
  // lib/db reads DATABASE_URL when it first connects.
  process.env.DATABASE_URL = url;
  try {
    for (const line of await createKeyFromArgs(process.argv.slice(2))) console.log(line);
  } catch (error) {
    if (error instanceof UsageError || error instanceof InvalidKeyRequest) {
      console.error(error.message);
      process.exitCode = 2;
    } else {
      throw error;
    }
  } finally {
    await closeDb();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
