// Dashboard sessions in `dashboard_sessions`. The cookie carries a random token; the table holds only
// its SHA-256, so a leaked table signs nobody in. Sessions end after a fixed lifetime, not on activity,
// and as soon as the user's password hash changes (each session records a fingerprint of it).
import { prisma } from '../db';
import type { Role } from '../generated/prisma/client';
import { passwordFingerprint } from './passwords';
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
  /** When the password was last proved in this session: at sign-in, and on each confirmation (sudo mode). */
  authenticatedAt: Date;
}

/**
 * Opens a session for `user`, whose password was just checked against `passwordHash` (the hash as
 * verified, not read again: a password changed meanwhile must not carry this session over).
 */
export async function createSession(user: { id: string; passwordHash: string }, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  const fingerprint = passwordFingerprint(user.passwordHash);
  await prisma().$transaction([
    // Housekeeping on the way in: the user's ended sessions (expired, or of another password) are of no use to anyone.
    prisma().dashboardSession.deleteMany({
      where: { userId: user.id, OR: [{ expiresAt: { lte: now } }, { passwordFingerprint: { not: fingerprint } }] },
    }),
    prisma().dashboardSession.create({
      data: { userId: user.id, tokenHash: hashSessionToken(token), passwordFingerprint: fingerprint, expiresAt, authenticatedAt: now },
    }),
  ]);
  return { token, expiresAt };
}

/**
 * The live session behind a cookie token, or null when it is unknown, has expired, or was opened
 * with a password that has changed since. The rule lives here, in the one lookup every page, action
 * and the consent screen use, so that no way of changing a password can leave old sessions alive.
 */
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
  if (row.passwordFingerprint !== passwordFingerprint(row.user.passwordHash)) return null;
  const first = row.user.memberships[0];
  return {
    user: { id: row.user.id, email: row.user.email, name: row.user.name },
    membership: first ? { orgId: first.orgId, orgName: first.org.name, role: first.role } : null,
    expiresAt: row.expiresAt,
    authenticatedAt: row.authenticatedAt,
  };
}

/** Records that the session's person has just proved the password again (see confirmPassword). */
export async function markSessionAuthenticated(token: string, now = new Date()): Promise<void> {
  await prisma().dashboardSession.updateMany({ where: { tokenHash: hashSessionToken(token) }, data: { authenticatedAt: now } });
}

export async function deleteSession(token: string): Promise<void> {
  await prisma().dashboardSession.deleteMany({ where: { tokenHash: hashSessionToken(token) } });
}
