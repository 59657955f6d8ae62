// Connected apps: the live grants users approved on the consent screen. A member sees and revokes
// their own grants; an admin, every grant of the organisation. The detail of one shows exactly what
// the list shows: a grant outside the viewer's list is not found, like one that never existed.
// Revoking deletes the grant with all its codes and tokens, so the very next request with any of them
// is refused.
import { membershipClientIds } from '../reach/reach';
import { OAUTH_SCOPES } from '../contract/scopes';
import { sql } from '../db';
import { displayName, isPlainText } from '../text/plain-text';
import { AUDIT_ACTIONS, recordAuditEvent } from '../audit/events';
import { revokeGrantRows } from './adapter';
import { redirectHost, type RedirectKind } from './request-rules';

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

/** What the detail page adds to the list's row. */
export interface ConnectedAppDetail extends ConnectedApp {
  /** How the app identified itself: the https URL of its metadata document, or the client_id it registered. */
  identity: { kind: 'metadata_document'; url: string } | { kind: 'registered'; clientId: string };
  /** Where its codes may go (the redirect URIs of the approval), by host, each once. */
  redirectHosts: { host: string; kind: RedirectKind }[];
  /**
   * The clients it can read now (the approving user's reach): every client of the organisation for an
   * admin, the member's listed ones for a member, none once the approving user has left.
   */
  reach: { kind: 'every' | 'listed'; clients: { id: string; name: string }[] } | { kind: 'approver_left' };
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

/** Longer than any grant id the provider mints. */
const GRANT_ID_MAX = 128;

/**
 * The grants a viewer may see: the organisation's for an admin, their own for a member. $1 is the
 * organisation, $2 the viewer, $3 whether the viewer is an admin.
 */
const VISIBLE = `g.model = 'Grant' AND g.org_id = $1 AND ($3::boolean OR g.account_id = $2)
  AND (g.expires_at IS NULL OR g.expires_at > now())`;

const APP_COLUMNS = `g.id AS "grantId", g.payload, g.client_name AS "clientName", o.name AS "orgName", u.id AS "userId",
  u.name AS "userName", g.created_at AS "createdAt", g.last_used_at AS "lastUsedAt"`;

const APP_JOINS = `JOIN organizations o ON o.id = g.org_id
  JOIN users u ON u.id::text = g.account_id`;

/** Whether a value can be a grant id at all: anything else (too long, control characters) is not looked up. */
export function isGrantId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= GRANT_ID_MAX && isPlainText(value);
}

function grantedScopes(resources: Record<string, string> | undefined): string[] {
  const granted = new Set(Object.values(resources ?? {}).flatMap((scope) => scope.split(' ')));
  return OAUTH_SCOPES.filter((scope) => granted.has(scope));
}

function metadataUrl(clientId: string | undefined): URL | null {
  const url = clientId ? URL.parse(clientId) : null;
  return url?.protocol === 'https:' ? url : null;
}

function toConnectedApp(row: GrantRow): ConnectedApp {
  return {
    grantId: row.grantId,
    clientId: row.payload.clientId ?? '',
    clientName: displayName(row.clientName ?? row.payload.clientId ?? ''),
    metadataHost: metadataUrl(row.payload.clientId)?.host ?? null,
    scopes: grantedScopes(row.payload.resources),
    orgName: row.orgName,
    approvedBy: { id: row.userId, name: row.userName },
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  };
}

export async function listConnectedApps(viewer: GrantViewer): Promise<ConnectedApp[]> {
  const rows = await sql<GrantRow>(
    `SELECT ${APP_COLUMNS} FROM oauth_payloads g ${APP_JOINS}
      WHERE ${VISIBLE}
      ORDER BY g.created_at DESC, g.id`,
    [viewer.orgId, viewer.userId, viewer.isAdmin],
  );
  return rows.map(toConnectedApp);
}

/** The redirect hosts of an approval, each once, in the order of the URIs. */
function redirectHosts(uris: string[]): ConnectedAppDetail['redirectHosts'] {
  const hosts = new Map<string, RedirectKind>();
  for (const uri of uris) {
    const found = redirectHost(uri);
    if (found && !hosts.has(found.host)) hosts.set(found.host, found.kind);
  }
  return [...hosts].map(([host, kind]) => ({ host, kind }));
}

/** One connected app the viewer may see, with its detail; null for any other id (foreign, revoked, unknown: alike). */
export async function connectedAppDetail(viewer: GrantViewer, grantId: string): Promise<ConnectedAppDetail | null> {
  if (!isGrantId(grantId)) return null;
  const [row] = await sql<GrantRow & { redirectUris: string[] | null; membershipId: string | null; role: string | null }>(
    `SELECT ${APP_COLUMNS}, g.redirect_uris AS "redirectUris", m.id AS "membershipId", m.role::text AS role
       FROM oauth_payloads g ${APP_JOINS}
       LEFT JOIN memberships m ON m.org_id = g.org_id AND m.user_id = u.id
      WHERE g.id = $4 AND ${VISIBLE}`,
    [viewer.orgId, viewer.userId, viewer.isAdmin, grantId],
  );
  if (!row) return null;
  const app = toConnectedApp(row);
  const document = metadataUrl(row.payload.clientId);
  return {
    ...app,
    identity: document ? { kind: 'metadata_document', url: document.href } : { kind: 'registered', clientId: app.clientId },
    redirectHosts: redirectHosts(row.redirectUris ?? []),
    reach: await approverReach(viewer.orgId, row.membershipId && row.role ? { id: row.membershipId, role: row.role } : null),
  };
}

async function approverReach(orgId: string, membership: { id: string; role: string } | null): Promise<ConnectedAppDetail['reach']> {
  if (!membership) return { kind: 'approver_left' };
  const clientIds = await membershipClientIds(membership);
  const clients = await sql<{ id: string; name: string }>(
    `SELECT id, name FROM clients WHERE org_id = $1 AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[])) ORDER BY name, id`,
    [orgId, clientIds],
  );
  return { kind: clientIds === null ? 'every' : 'listed', clients: clients.map((client) => ({ id: client.id, name: displayName(client.name) })) };
}

/** Deletes grants and records each revocation; `all` marks those revoked together by "Revoke all". */
async function revokeGrants(viewer: GrantViewer, grants: { id: string; clientName: string | null; clientId: string | null }[], all: boolean): Promise<void> {
  for (const grant of grants) {
    await revokeGrantRows(grant.id);
    await recordAuditEvent({
      orgId: viewer.orgId,
      actorId: viewer.userId,
      action: AUDIT_ACTIONS.oauthGrantRevoked,
      targetType: 'oauth_grant',
      targetId: grant.id,
      details: { name: grant.clientName ?? grant.clientId ?? grant.id, clientId: grant.clientId ?? '', ...(all ? { revokedWith: 'revoke_all' } : {}) },
    });
  }
}

const REVOCABLE = `SELECT g.id, g.client_name AS "clientName", g.payload->>'clientId' AS "clientId" FROM oauth_payloads g`;

/**
 * Revokes a grant the viewer may see, recording who did it. False when there is no such grant for
 * this viewer (another organisation's, another member's, already revoked: the same answer).
 */
export async function revokeConnectedApp(viewer: GrantViewer, grantId: string): Promise<boolean> {
  if (!isGrantId(grantId)) return false;
  const grants = await sql<{ id: string; clientName: string | null; clientId: string | null }>(`${REVOCABLE} WHERE g.id = $4 AND ${VISIBLE}`, [
    viewer.orgId,
    viewer.userId,
    viewer.isAdmin,
    grantId,
  ]);
  await revokeGrants(viewer, grants, false);
  return grants.length > 0;
}

/** Revokes every grant the viewer sees (an admin: the organisation's; a member: their own); how many. */
export async function revokeAllConnectedApps(viewer: GrantViewer): Promise<number> {
  const grants = await sql<{ id: string; clientName: string | null; clientId: string | null }>(`${REVOCABLE} WHERE ${VISIBLE} ORDER BY g.created_at, g.id`, [
    viewer.orgId,
    viewer.userId,
    viewer.isAdmin,
  ]);
  await revokeGrants(viewer, grants, true);
  return grants.length;
}
