// The check of an OAuth access token presented to the MCP endpoint. Tokens are opaque and looked up
// on every call, together with their grant and the approving user's membership: revoking a grant,
// removing the user from the organisation or changing a member's clients takes effect on the very
// next call. The reach is the approving user's as it is now, never a copy taken at consent.
import { mcpUrl } from '../app-url';
import type { OAuthGrantContext } from '../contract/credential';
import { recordGrantUse } from '../auth/last-used';
import { membershipClientIds } from '../reach/reach';
import { OAUTH_SCOPES, type Scope } from '../contract/scopes';
import { lookupLane, rememberOrg } from '../auth/org-hints';
import { gateSql } from '../db';
import { storedId } from './adapter';

/** Longer than any token we issue; anything longer is not looked up. */
const MAX_TOKEN_LENGTH = 256;

interface TokenRow {
  token: { aud?: string | string[]; exp?: number; scope?: string; clientId?: string; accountId?: string };
  grantId: string;
  clientName: string | null;
  userId: string;
  orgId: string;
  orgName: string;
  membershipId: string;
  role: 'admin' | 'member';
}

function audienceIsMcp(aud: string | string[] | undefined): boolean {
  const audiences = Array.isArray(aud) ? aud : aud === undefined ? [] : [aud];
  return audiences.length === 1 && audiences[0] === mcpUrl();
}

/**
 * The grant context of a live access token, or null: unknown, expired or revoked token, another
 * audience than the MCP endpoint, a grant that is gone, or an approving user no longer in the
 * organisation. Records the grant's "last used" in the background (at most once a minute).
 */
export async function verifyAccessToken(token: string, now = Date.now()): Promise<OAuthGrantContext | null> {
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
  const id = storedId('AccessToken', token);
  const lane = lookupLane(id);
  const [row] = await gateSql<TokenRow>(
    `SELECT t.payload AS token, g.id AS "grantId", g.client_name AS "clientName", g.account_id AS "userId",
            g.org_id AS "orgId", o.name AS "orgName", m.id AS "membershipId", m.role::text AS role
       FROM oauth_payloads t
       JOIN oauth_payloads g ON g.model = 'Grant' AND g.id = t.grant_id AND (g.expires_at IS NULL OR g.expires_at > now())
       JOIN organizations o ON o.id = g.org_id
       JOIN memberships m ON m.org_id = g.org_id AND m.user_id::text = g.account_id
      WHERE t.model = 'AccessToken' AND t.id = $1 AND t.expires_at > now()`,
    [id],
    lane,
  );
  if (row) rememberOrg(id, row.orgId);
  if (!row || !audienceIsMcp(row.token.aud) || row.token.accountId !== row.userId) return null;
  if (typeof row.token.exp !== 'number' || row.token.exp * 1000 <= now) return null;

  const granted = new Set((row.token.scope ?? '').split(' '));
  const scopes: Scope[] = OAUTH_SCOPES.filter((scope) => granted.has(scope));
  const clientIds = await membershipClientIds({ id: row.membershipId, role: row.role }, (text, values) => gateSql(text, values, lane));
  void recordGrantUse(row.grantId);
  return {
    kind: 'oauth_grant',
    grantId: row.grantId,
    clientId: row.token.clientId ?? '',
    clientName: row.clientName ?? row.token.clientId ?? '',
    userId: row.userId,
    orgId: row.orgId,
    orgName: row.orgName,
    scopes,
    clientIds,
    expiresAt: new Date(row.token.exp * 1000).toISOString(),
  };
}
