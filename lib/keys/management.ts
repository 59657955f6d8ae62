// The settings page's API-key services: list, create and rotate (through issuing.ts's createApiKey and
// rotateApiKey, which own minting, the client check and their events), rename and revoke, each change
// recorded in the audit trail.
import { createApiKey, rotateApiKey, type RotatedKey, type RotationOverlap } from './issuing';
import type { Scope } from '../contract/scopes';
import { isScope } from '../contract/scopes';
import { prisma } from '../db';
import { displayName } from '../text/plain-text';
import type { ApiKeyOrigin } from '../generated/prisma/client';
import { AUDIT_ACTIONS, recordAuditEvent } from '../audit/events';

/** `retiring`: rotated, working until its overlap ends; `retired`: rotated, and past it. */
export type KeyStatus = 'active' | 'retiring' | 'retired' | 'expired' | 'revoked';

export interface KeyListItem {
  id: string;
  name: string;
  /** The admin's note, or null. */
  note: string | null;
  prefix: string;
  scopes: Scope[];
  /** null: every client of the organisation. */
  clients: { id: string; name: string }[] | null;
  /** The key this one replaced by rotation. */
  rotatedFrom: { id: string; prefix: string } | null;
  /** The key that replaced this one, and when this one stops (stopped) working. */
  replacedBy: { id: string; prefix: string; retiresAt: Date } | null;
  /** 'cli': minted by a command-line program, with no person behind it. */
  createdVia: ApiKeyOrigin;
  /** null for a settings key: its creator has left. */
  createdByName: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  revokedByName: string | null;
  status: KeyStatus;
}

export function keyStatus(key: { revokedAt: Date | null; expiresAt: Date | null; retiresAt: Date | null }, now = new Date()): KeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (key.retiresAt) return key.retiresAt.getTime() <= now.getTime() ? 'retired' : 'retiring';
  return 'active';
}

/** Every key of the organisation, newest first; revoked and expired ones stay listed with their status. */
export async function listApiKeys(orgId: string, now = new Date()): Promise<KeyListItem[]> {
  const keys = await prisma().apiKey.findMany({
    where: { orgId },
    include: {
      createdBy: { select: { name: true } },
      revokedBy: { select: { name: true } },
      clients: { include: { client: { select: { id: true, name: true } } } },
      rotatedFrom: { select: { id: true, prefix: true } },
      replacedBy: { select: { id: true, prefix: true } },
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return keys.map((key) => ({
    id: key.id,
    name: displayName(key.name),
    note: key.note === null ? null : displayName(key.note),
    prefix: key.prefix,
    scopes: key.scopes.filter(isScope),
    clients: key.restrictedToClients
      ? key.clients.map(({ client }) => client).sort((a, b) => a.name.localeCompare(b.name))
      : null,
    rotatedFrom: key.rotatedFrom,
    replacedBy: key.replacedBy && key.retiresAt ? { ...key.replacedBy, retiresAt: key.retiresAt } : null,
    createdVia: key.createdVia,
    createdByName: key.createdBy?.name ?? null,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    expiresAt: key.expiresAt,
    revokedAt: key.revokedAt,
    revokedByName: key.revokedBy?.name ?? null,
    status: keyStatus(key, now),
  }));
}

/**
 * The keys whose name, prefix, scope, client or status contains every word of `query` (any case):
 * "ads revoked" finds the revoked keys with the ads scope. An empty query keeps every key.
 */
export function filterKeys(keys: KeyListItem[], query: string): KeyListItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return keys;
  return keys.filter((key) => {
    const text = [key.name, key.note ?? '', key.prefix, key.status, ...key.scopes, ...(key.clients ?? []).map((client) => client.name)].join('\n').toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** The organisation's clients, for the key form's client restriction. */
export async function listOrgClients(orgId: string): Promise<{ id: string; name: string }[]> {
  return prisma().client.findMany({ where: { orgId }, select: { id: true, name: true }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
}

export interface KeyRequest {
  name: string;
  scopes: Scope[];
  clientIds: string[] | null;
  expiresAt: Date | null;
}

/** Mints a key for the organisation as the signed-in admin. Returns the key: the only time it is seen. */
export async function createOrgApiKey(
  actor: { userId: string; orgId: string },
  request: KeyRequest,
): Promise<{ id: string; key: string; prefix: string; name: string }> {
  const created = await createApiKey({ ...request, orgId: actor.orgId, createdById: actor.userId });
  return { id: created.id, key: created.key, prefix: created.prefix, name: request.name };
}

/**
 * Revokes a live key of the organisation and records it, in one transaction. Returns false when
 * there is no such live key in this organisation (another org's key id is treated as absent).
 */
export async function revokeOrgApiKey(actor: { userId: string; orgId: string }, keyId: string, now = new Date()): Promise<boolean> {
  return prisma().$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({ where: { id: keyId, orgId: actor.orgId, revokedAt: null }, select: { name: true, prefix: true } });
    if (!key) return false;
    const { count } = await tx.apiKey.updateMany({
      where: { id: keyId, orgId: actor.orgId, revokedAt: null },
      data: { revokedAt: now, revokedById: actor.userId },
    });
    if (count === 0) return false;
    await recordAuditEvent(
      { orgId: actor.orgId, actorId: actor.userId, action: AUDIT_ACTIONS.apiKeyRevoked, targetType: 'api_key', targetId: keyId, details: { name: key.name, prefix: key.prefix } },
      tx,
    );
    return true;
  });
}

/**
 * Rotates a key of the organisation as the signed-in admin (see rotateApiKey): returns the successor,
 * shown once like a new key. Another organisation's key id reads as absent (InvalidKeyRequest).
 */
export async function rotateOrgApiKey(actor: { userId: string; orgId: string }, keyId: string, overlap: RotationOverlap): Promise<RotatedKey> {
  return rotateApiKey({ orgId: actor.orgId, keyId, overlap, actorId: actor.userId });
}

/**
 * Renames a key of the organisation and sets its note (null: none), recorded with the name before and
 * after. Returns false when there is no such key in this organisation; a change that changes nothing
 * records nothing. Revoked and retired keys may be renamed too: their name is how the list and the
 * activity tell them apart.
 */
export async function updateOrgApiKey(
  actor: { userId: string; orgId: string },
  keyId: string,
  change: { name: string; note: string | null },
): Promise<boolean> {
  return prisma().$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({ where: { id: keyId, orgId: actor.orgId }, select: { name: true, note: true, prefix: true } });
    if (!key) return false;
    if (key.name === change.name && key.note === change.note) return true;
    await tx.apiKey.update({ where: { id: keyId }, data: { name: change.name, note: change.note } });
    await recordAuditEvent(
      {
        orgId: actor.orgId,
        actorId: actor.userId,
        action: AUDIT_ACTIONS.apiKeyUpdated,
        targetType: 'api_key',
        targetId: keyId,
        // The note itself stays out of the trail: it is the key's, and changes with it.
        details: { name: change.name, prefix: key.prefix, previousName: key.name, noteChanged: key.note !== change.note },
      },
      tx,
    );
    return true;
  });
}
