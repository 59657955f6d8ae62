// The settings area's audit trail (`audit_events`): who created or revoked a key, who connected or
// revoked an app (an OAuth grant), and when. A key minted by a command-line program has no actor.
import { prisma } from '../db';
import type { Prisma } from '../generated/prisma/client';
import { displayName } from '../text/plain-text';

export const AUDIT_ACTIONS = {
  apiKeyCreated: 'api_key.created',
  apiKeyRevoked: 'api_key.revoked',
  apiKeyRotated: 'api_key.rotated',
  apiKeyUpdated: 'api_key.updated',
  oauthGrantConnected: 'oauth_grant.connected',
  oauthGrantRevoked: 'oauth_grant.revoked',
} as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS];

export type AuditTargetType = 'api_key' | 'oauth_grant';

export interface AuditEventInput {
  orgId: string;
  /** null: no person, a command-line program. */
  actorId: string | null;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  details: Prisma.InputJsonObject;
}

/** Records one event; pass a transaction client to make it part of the change it records. */
export async function recordAuditEvent(event: AuditEventInput, db: Prisma.TransactionClient = prisma()): Promise<void> {
  await db.auditEvent.create({ data: event });
}

export interface AuditEntry {
  id: string;
  action: string;
  /** null: a former member, or no person at all when `fromCommandLine`. */
  actorName: string | null;
  /** A key minted by a command-line program (`details.createdVia` 'cli'). */
  fromCommandLine: boolean;
  /** The key's name at the time of the event (kept in `details`, so it outlives the key). */
  targetName: string | null;
  targetPrefix: string | null;
  /** A rotation: the key it replaced, and when that key stops working. */
  rotatedFromPrefix: string | null;
  retiresAt: Date | null;
  /** A rename: the name before. */
  previousName: string | null;
  createdAt: Date;
}

function detail(details: Prisma.JsonValue | null, field: string): string | null {
  if (!details || typeof details !== 'object' || Array.isArray(details)) return null;
  const value = details[field];
  return typeof value === 'string' ? value : null;
}

/** The organisation's latest events about one kind of target, newest first. */
export async function listAuditEvents(orgId: string, targetType: AuditTargetType, limit = 20): Promise<AuditEntry[]> {
  const rows = await prisma().auditEvent.findMany({
    where: { orgId, targetType },
    include: { actor: { select: { name: true } } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
  return rows.map((row) => {
    const targetName = detail(row.details, 'name');
    const previousName = detail(row.details, 'previousName');
    const retiresAt = detail(row.details, 'retiresAt');
    return {
      id: row.id,
      action: row.action,
      actorName: row.actor?.name ?? null,
      fromCommandLine: detail(row.details, 'createdVia') === 'cli',
      targetName: targetName === null ? null : displayName(targetName),
      targetPrefix: detail(row.details, 'prefix'),
      rotatedFromPrefix: detail(row.details, 'rotatedFromPrefix'),
      retiresAt: retiresAt === null ? null : new Date(retiresAt),
      previousName: previousName === null || previousName === targetName ? null : displayName(previousName),
      createdAt: row.createdAt,
    };
  });
}
