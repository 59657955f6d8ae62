// API keys: a fixed prefix and 43 base64url characters (32 random bytes). Only the SHA-256 of a
// key is stored, with a short display prefix; the key itself is shown once and never logged.
import { createHash, randomBytes } from 'node:crypto';
import { prisma } from '../db';
import { positiveIntegerFromEnv } from '../env';
import type { ApiKeyOrigin, Prisma } from '../generated/prisma/client';
import { AUDIT_ACTIONS, recordAuditEvent } from '../audit/events';
import type { Scope } from '../contract/scopes';
import { KEY_PREFIX } from '../key-format';

/** How many leading characters of a key are stored and shown to tell keys apart. */
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 4;

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateKey(): { key: string; hash: string; prefix: string } {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashKey(key), prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

export interface NewApiKey {
  orgId: string;
  name: string;
  scopes: Scope[];
  /** null: every client of the organisation. */
  clientIds: string[] | null;
  expiresAt: Date | null;
  /**
   * The person who minted it on the settings page, or null for a command-line program
   * (`npm run key:create`, `npm run demo`), which has no person behind it. This decides `createdVia`.
   */
  createdById: string | null;
}

export class InvalidKeyRequest extends Error {}

/**
 * Active keys (neither revoked nor expired) an organisation may hold, read when a key is minted. Each
 * key has its own rate and concurrency limits, so without a cap an organisation could mint its way
 * past them (see API_CONCURRENCY_PER_ORG for the bound that holds however many keys it has).
 */
export function keysPerOrgMax(): number {
  return positiveIntegerFromEnv('API_KEYS_PER_ORG_MAX', 100);
}

/** The last mint of each organisation under way in this process (see inTurn). */
const mintsUnderWay = new Map<string, Promise<unknown>>();

/**
 * Runs `mint` once the organisation's earlier mints in this process have ended. Mints wait their turn
 * here, holding no database connection, rather than in a transaction waiting for the organisation's
 * row lock: many at once would otherwise take every pooled connection while they wait.
 */
function inTurn<T>(orgId: string, mint: () => Promise<T>): Promise<T> {
  const result = (mintsUnderWay.get(orgId) ?? Promise.resolve()).then(mint);
  const ended = result.then(
    () => undefined,
    () => undefined,
  );
  mintsUnderWay.set(orgId, ended);
  void ended.then(() => {
    if (mintsUnderWay.get(orgId) === ended) mintsUnderWay.delete(orgId);
  });
  return result;
}

/** Keys that still let requests in: neither revoked, expired nor retired after a rotation. */
export function liveKeyWhere(now: Date): Prisma.ApiKeyWhereInput {
  return {
    revokedAt: null,
    AND: [{ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }, { OR: [{ retiresAt: null }, { retiresAt: { gt: now } }] }],
  };
}

/**
 * Runs `mint` in a transaction that holds the organisation's mint lock and has checked its cap on
 * live keys, so that every way of minting (a new key, a rotation's successor) obeys one rule.
 */
function mintInOrg<T>(orgId: string, mint: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return inTurn(orgId, () =>
    prisma().$transaction(async (tx) => {
      // One mint at a time per organisation, across processes too (the row lock), so that two at once
      // cannot both pass the cap.
      await tx.$queryRaw`SELECT 1 FROM organizations WHERE id = ${orgId}::uuid FOR NO KEY UPDATE`;
      const max = keysPerOrgMax();
      const active = await tx.apiKey.count({ where: { orgId, ...liveKeyWhere(new Date()) } });
      if (active >= max) {
        const keys = `${active} active ${active === 1 ? 'key' : 'keys'}`;
        throw new InvalidKeyRequest(`The organisation has ${keys} and may have at most ${max}. Revoke a key it no longer uses, then create this one.`);
      }
      return mint(tx);
    }),
  );
}

/** Stores a new key and returns it, the only time the whole key exists outside its holder. */
export async function createApiKey(input: NewApiKey): Promise<{ key: string; id: string; prefix: string }> {
  if (input.scopes.length === 0) throw new InvalidKeyRequest('A key needs at least one scope.');
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) throw new InvalidKeyRequest('The expiry must be in the future.');
  const clientIds = input.clientIds === null ? null : [...new Set(input.clientIds)];
  if (clientIds) {
    if (clientIds.length === 0) throw new InvalidKeyRequest('A client restriction needs at least one client.');
    const found = await prisma().client.count({ where: { orgId: input.orgId, id: { in: clientIds } } });
    if (found !== clientIds.length) throw new InvalidKeyRequest('Every client must belong to the organisation.');
  }
  const { key, hash, prefix } = generateKey();
  const createdVia: ApiKeyOrigin = input.createdById === null ? 'cli' : 'settings';
  // The key and its creation event are one change: every key, whichever program minted it, is in
  // the settings page's Activity.
  const id = await mintInOrg(input.orgId, async (tx) => {
    const record = await tx.apiKey.create({
      data: {
        orgId: input.orgId,
        name: input.name,
        prefix,
        hash,
        scopes: input.scopes,
        restrictedToClients: clientIds !== null,
        expiresAt: input.expiresAt,
        createdById: input.createdById,
        createdVia,
        clients: clientIds ? { create: clientIds.map((clientId) => ({ clientId })) } : undefined,
      },
    });
    await recordAuditEvent(
      {
        orgId: input.orgId,
        actorId: input.createdById,
        action: AUDIT_ACTIONS.apiKeyCreated,
        targetType: 'api_key',
        targetId: record.id,
        details: {
          name: input.name,
          prefix,
          scopes: input.scopes,
          clientIds,
          expiresAt: input.expiresAt?.toISOString() ?? null,
          createdVia,
        },
      },
      tx,
    );
    return record.id;
  });
  return { key, id, prefix };
}

/** How long a rotated key keeps working beside its successor. */
export const ROTATION_OVERLAPS = { now: 0, '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 } as const;
export type RotationOverlap = keyof typeof ROTATION_OVERLAPS;
export const isRotationOverlap = (value: unknown): value is RotationOverlap => typeof value === 'string' && Object.hasOwn(ROTATION_OVERLAPS, value);

export interface Rotation {
  orgId: string;
  keyId: string;
  overlap: RotationOverlap;
  /** The person rotating on the settings page, or null for a command-line program. */
  actorId: string | null;
}

export interface RotatedKey {
  id: string;
  key: string;
  prefix: string;
  name: string;
  retiring: { id: string; prefix: string; retiresAt: Date };
}

/**
 * Mints the successor of a live key, with its name, note, scopes, clients and expiry, and retires the
 * key after `overlap` (both in one transaction, with one audit event). A key already being retired
 * is refused: it has a successor, and a second one would fork the key into two that both look
 * current (rotate the successor instead). Another organisation's key reads as absent.
 */
export async function rotateApiKey(input: Rotation, now = new Date()): Promise<RotatedKey> {
  const { key, hash, prefix } = generateKey();
  const createdVia: ApiKeyOrigin = input.actorId === null ? 'cli' : 'settings';
  const retiresAt = new Date(now.getTime() + ROTATION_OVERLAPS[input.overlap]);
  return mintInOrg(input.orgId, async (tx) => {
    const old = await tx.apiKey.findFirst({
      where: { id: input.keyId, orgId: input.orgId, ...liveKeyWhere(now) },
      include: { clients: { select: { clientId: true } }, replacedBy: { select: { prefix: true } } },
    });
    if (!old) throw new InvalidKeyRequest('There is no active key to rotate: it may have been revoked, have expired or have retired.');
    if (old.retiresAt || old.replacedBy) {
      throw new InvalidKeyRequest(`The key ${old.prefix}… was rotated already (into ${old.replacedBy?.prefix ?? 'another key'}…): rotate that key instead.`);
    }
    // Conditional, so that a rotation racing this one (in another process) changes nothing twice; the
    // unique rotated_from_id stops its successor too.
    const { count } = await tx.apiKey.updateMany({ where: { id: old.id, retiresAt: null }, data: { retiresAt } });
    if (count === 0) throw new InvalidKeyRequest(`The key ${old.prefix}… was rotated already: rotate its successor instead.`);
    const record = await tx.apiKey.create({
      data: {
        orgId: input.orgId,
        name: old.name,
        note: old.note,
        prefix,
        hash,
        scopes: old.scopes,
        restrictedToClients: old.restrictedToClients,
        expiresAt: old.expiresAt,
        createdById: input.actorId,
        createdVia,
        rotatedFromId: old.id,
        clients: old.restrictedToClients ? { create: old.clients.map(({ clientId }) => ({ clientId })) } : undefined,
      },
    });
    await recordAuditEvent(
      {
        orgId: input.orgId,
        actorId: input.actorId,
        action: AUDIT_ACTIONS.apiKeyRotated,
        targetType: 'api_key',
        targetId: record.id,
        details: { name: old.name, prefix, rotatedFromId: old.id, rotatedFromPrefix: old.prefix, retiresAt: retiresAt.toISOString(), createdVia },
      },
      tx,
    );
    return { id: record.id, key, prefix, name: old.name, retiring: { id: old.id, prefix: old.prefix, retiresAt } };
  });
}
