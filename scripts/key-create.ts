// `npm run key:create -- --org <id|slug> --scopes ads:read,social:read [--clients id,…]
//   [--expires YYYY-MM-DD] [--name …]`: mints an API key in the database of DATABASE_URL, or when it
// is unset in the embedded database of a running `npm run demo`, and prints it once. Only its
// SHA-256 is stored.
// `npm run key:create -- --rotate <prefix|id> [--overlap now|1h|24h|7d] [--org <id|slug>]`: mints the
// successor of a live key (same name, note, scopes, clients and expiry) and retires the old key when
// the overlap ends (default 24h), as the settings page's Rotate does.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createApiKey, InvalidKeyRequest, isRotationOverlap, liveKeyWhere, rotateApiKey, ROTATION_OVERLAPS, type RotationOverlap } from '../lib/keys/issuing';
import { isScope, SCOPES, type Scope } from '../lib/contract/scopes';
import { closeDb, prisma, sql } from '../lib/db';
import { keyNameSchema } from '../lib/settings/key-form';
import { UUID_PATTERN } from '../lib/text/uuid';
import { dayNumber, isRealDay } from '../lib/time/days';
import { runningEmbeddedDatabaseUrl } from './embedded-database';

const OVERLAPS = Object.keys(ROTATION_OVERLAPS).join('|');
const USAGE = `Usage: npm run key:create -- --org <id|slug> --scopes ${SCOPES.join(',')} [--clients <id,…>] [--expires YYYY-MM-DD] [--name <text>]
   or: npm run key:create -- --rotate <prefix|key id> [--overlap ${OVERLAPS}] [--org <id|slug>]`;

/** The overlap when none is given: a day leaves time to deploy the new key. */
const DEFAULT_OVERLAP: RotationOverlap = '24h';

/** What `--help` (or `-h`) prints, on standard output with status 0: asked for, it is no usage error. */
export const HELP = `Mints an API key and prints it once (only its SHA-256 is stored), or rotates a live key.
${USAGE}

  --org       the organisation, by id or slug
  --scopes    comma separated, one or more of ${SCOPES.join(', ')}
  --clients   comma separated client ids (UUIDs) the key may read; without it, every client
  --expires   the key's last day (UTC), YYYY-MM-DD; without it, no expiry
  --name      what the key is for (default "CLI key")
  --rotate    a live key's display prefix or id: mints its successor, same name, scopes, clients and expiry
  --overlap   how long the rotated key keeps working: ${OVERLAPS.replaceAll('|', ', ')} (default ${DEFAULT_OVERLAP})

The database is DATABASE_URL's, or when it is unset the embedded one of a running \`npm run demo\`.`;

export class UsageError extends Error {}

export interface KeyRequest {
  org: string;
  scopes: Scope[];
  clientIds: string[] | null;
  expiresAt: Date | null;
  name: string;
}

const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

export interface RotateRequest {
  /** A display prefix (`mk_live_abcd`, a trailing `…` allowed) or a key id. */
  key: string;
  overlap: RotationOverlap;
  org: string | null;
}

const OPTIONS = {
  org: { type: 'string' },
  scopes: { type: 'string' },
  clients: { type: 'string' },
  expires: { type: 'string' },
  name: { type: 'string' },
  rotate: { type: 'string' },
  overlap: { type: 'string' },
} as const;

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
}

/** Reads `--rotate`'s arguments; the key keeps what it has, so the options that describe a new key are refused. */
export function parseKeyRotateArgs(argv: string[]): RotateRequest {
  const values = parse(argv);
  if (!values.rotate) throw new UsageError(`--rotate needs a key's prefix or id.\n${USAGE}`);
  const given = (['scopes', 'clients', 'expires', 'name'] as const).filter((option) => values[option] !== undefined);
  if (given.length > 0) {
    throw new UsageError(`--rotate keeps the key's name, scopes, clients and expiry: leave out ${given.map((option) => `--${option}`).join(', ')}.`);
  }
  const overlap = values.overlap ?? DEFAULT_OVERLAP;
  if (!isRotationOverlap(overlap)) throw new UsageError(`--overlap must be one of ${OVERLAPS}, got ${overlap}.`);
  return { key: values.rotate.trim().replace(/…$/, ''), overlap, org: values.org ?? null };
}

export function parseKeyCreateArgs(argv: string[]): KeyRequest {
  const values = parse(argv);
  if (values.overlap !== undefined) throw new UsageError(`--overlap goes with --rotate.\n${USAGE}`);
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

async function findOrg(idOrSlug: string): Promise<{ id: string; name: string }> {
  const [org] = await sql<{ id: string; name: string }>(
    `SELECT id, name FROM organizations WHERE ${UUID_PATTERN.test(idOrSlug) ? 'id = $1::uuid' : 'slug = $1'}`,
    [idOrSlug],
  );
  if (!org) throw new UsageError(`No organisation with id or slug "${idOrSlug}".`);
  return org;
}

/**
 * Rotates the live key named by `--rotate` and returns the lines to print. A display prefix is short
 * and may be shared by keys of several organisations: one that matches more than one live key asks
 * for `--org` or the key's id rather than guessing.
 */
async function rotateKeyFromArgs(argv: string[]): Promise<string[]> {
  const request = parseKeyRotateArgs(argv);
  const org = request.org === null ? null : await findOrg(request.org);
  const byId = UUID_PATTERN.test(request.key);
  const matches = await prisma().apiKey.findMany({
    where: { ...(byId ? { id: request.key } : { prefix: request.key }), ...(org ? { orgId: org.id } : {}), ...liveKeyWhere(new Date()) },
    select: { id: true, orgId: true, prefix: true },
  });
  if (matches.length === 0) throw new UsageError(`No active key ${byId ? 'with the id' : 'with the prefix'} ${request.key}${org ? ` in ${org.name}` : ''}.`);
  if (matches.length > 1) throw new UsageError(`${matches.length} active keys have the prefix ${request.key}: add --org, or give the key's id.`);
  const old = matches[0]!;
  const rotated = await rotateApiKey({ orgId: old.orgId, keyId: old.id, overlap: request.overlap, actorId: null });
  return [
    `Rotated ${rotated.retiring.prefix}… into ${rotated.id} (${rotated.prefix}…), "${rotated.name}": same scopes, clients and expiry.`,
    `${rotated.retiring.prefix}… keeps working until ${rotated.retiring.retiresAt.toISOString()}, then is refused with 401.`,
    'The new key is shown only this once; only its hash is stored:',
    rotated.key,
  ];
}

/** Creates (or with --rotate, rotates) the key and returns the lines to print; throws UsageError or InvalidKeyRequest for bad input. */
export async function createKeyFromArgs(argv: string[]): Promise<string[]> {
  if (argv.some((arg) => arg === '--rotate' || arg.startsWith('--rotate='))) return rotateKeyFromArgs(argv);
  const request = parseKeyCreateArgs(argv);
  const org = await findOrg(request.org);
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
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    return;
  }
  const url = process.env.DATABASE_URL || (await runningEmbeddedDatabaseUrl());
  if (!url) {
    console.error('No database: start `npm run demo` (its embedded database is then found in .data/), or set DATABASE_URL to the service database.');
    process.exitCode = 2;
    return;
  }
  // lib/db reads DATABASE_URL when it first connects.
  process.env.DATABASE_URL = url;
  try {
    for (const line of await createKeyFromArgs(args)) console.log(line);
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
