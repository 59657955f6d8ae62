// Connected apps: the live grants users approved on the consent screen. A member sees and revokes
// their own grants; an admin, every grant of the organisation. Revoking deletes the grant with all its
// codes and tokens, so the very next request with any of them is refused.
import { OAUTH_SCOPES } from '../contract/scopes';
import { sql } from '../db';
import { displayName } from '../text/plain-text';
import { AUDIT_ACTIONS, recordAuditEvent } from '../audit/events';
import { revokeGrantRows } from './adapter';

export interface GrantViewer {
  userId: string;
  orgId: string;
  isAdmin: boolean;
}

export interface ConnectedApp {
  grantId: string;
  clientId: string;
  clientName: string;
  /** The host of the client's metadata document, when the client is identified by one. */
  metadataHost: string | null;
  scopes: string[];
  orgName: string;
  approvedBy: { id: string; name: string };
  createdAt: Date;
  lastUsedAt: Date | null;
}

interface GrantRow {
  grantId: string;
  payload: { clientId?: string; resources?: Record<string, string> };
  clientName: string | null;
  orgName: string;
  userId: string;
  userName: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The grants a viewer may see: the organisation's for an admin, their own for a member. */
const VISIBLE = `g.model = 'Grant' AND g.org_id = $1 AND ($3::boolean OR g.account_id = $2)
  AND (g.expires_at IS NULL OR g.expires_at > now())`;

function grantedScopes(resources: Record<string, string> | undefined): string[] {
  const granted = new Set(Object.values(resources ?? {}).flatMap((scope) => scope.split(' ')));
  return OAUTH_SCOPES.filter((scope) => granted.has(scope));
}

function metadataHost(clientId: string | undefined): string | null {
  const url = clientId ? URL.parse(clientId) : null;
  return url?.protocol === 'https:' ? url.host : null;
}

export async function listConnectedApps(viewer: GrantViewer): Promise<ConnectedApp[]> {
  const rows = await sql<GrantRow>(
    `SELECT g.id AS "grantId", g.payload, g.client_name AS "clientName", o.name AS "orgName", u.id AS "userId",
            u.name AS "userName", g.created_at AS "createdAt", g.last_used_at AS "lastUsedAt"
       FROM oauth_payloads g
       JOIN organizations o ON o.id = g.org_id
       JOIN users u ON u.id::text = g.account_id
      WHERE ${VISIBLE}
      ORDER BY g.created_at DESC, g.id`,
    [viewer.orgId, viewer.userId, viewer.isAdmin],
  );
  return rows.map((row) => ({
    grantId: row.grantId,
    clientId: row.payload.clientId ?? '',
    clientName: displayName(row.clientName ?? row.payload.clientId ?? ''),
    metadataHost: metadataHost(row.payload.clientId),
    scopes: grantedScopes(row.payload.resources),
    orgName: row.orgName,
    approvedBy: { id: row.userId, name: row.userName },
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  }));
}

/**
 * Revokes a grant the viewer may see, recording who did it. False when there is no such grant for
 * this viewer (another organisation's, another member's, already revoked: the same answer).
 */
export async function revokeConnectedApp(viewer: GrantViewer, grantId: string): Promise<boolean> {
  const [grant] = await sql<{ clientName: string | null; clientId: string | null }>(
    `SELECT g.client_name AS "clientName", g.payload->>'clientId' AS "clientId" FROM oauth_payloads g WHERE g.id = $4 AND ${VISIBLE}`,
    [viewer.orgId, viewer.userId, viewer.isAdmin, grantId],
  );
  if (!grant) return false;
  await revokeGrantRows(grantId);
  await recordAuditEvent({
    orgId: viewer.orgId,
    actorId: viewer.userId,
    action: AUDIT_ACTIONS.oauthGrantRevoked,
    targetType: 'oauth_grant',
    targetId: grantId,
    details: { name: grant.clientName ?? grant.clientId ?? grantId, clientId: grant.clientId ?? '' },
  });
  return true;
}
