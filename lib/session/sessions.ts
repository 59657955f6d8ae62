// Dashboard sessions in `dashboard_sessions`. The cookie carries a random token; the table holds only
// its SHA-256, so a leaked table signs nobody in. Sessions end after a fixed lifetime, not on activity.
import { prisma } from '../db';
import type { Role } from '../generated/prisma/client';
import { hashSessionToken, newSessionToken } from './tokens';

export const SESSION_LIFETIME_MS = 12 * 60 * 60_000;

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

/**
 * The organisation a signed-in user acts in. A user in several organisations acts in the one they
 * joined first: the dashboard has no org switcher yet, and a stable choice beats a random one.
 */
export interface SessionMembership {
  orgId: string;
  orgName: string;
  role: Role;
}

export interface Session {
  user: SessionUser;
  membership: SessionMembership | null;
  expiresAt: Date;
}

export async function createSession(userId: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await prisma().$transaction([
    // Housekeeping on the way in: the user's ended sessions are of no use to anyone.
    prisma().dashboardSession.deleteMany({ where: { userId, expiresAt: { lte: now } } }),
    prisma().dashboardSession.create({ data: { userId, tokenHash: hashSessionToken(token), expiresAt } }),
  ]);
  return { token, expiresAt };
}

/** The live session behind a cookie token, or null when it is unknown or has expired. */
export async function findSession(token: string, now = new Date()): Promise<Session | null> {
  const row = await prisma().dashboardSession.findUnique({
    where: { tokenHash: hashSessionToken(token) },
    include: {
      user: {
        include: {
          memberships: { include: { org: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: 1 },
        },
      },
    },
  });
  if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
  const first = row.user.memberships[0];
  return {
    user: { id: row.user.id, email: row.user.email, name: row.user.name },
    membership: first ? { orgId: first.orgId, orgName: first.org.name, role: first.role } : null,
    expiresAt: row.expiresAt,
  };
}

export async function deleteSession(token: string): Promise<void> {
  await prisma().dashboardSession.deleteMany({ where: { tokenHash: hashSessionToken(token) } });
}
