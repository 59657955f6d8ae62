// What a verified credential may read. Built by `authenticate` (API keys) or by the OAuth token check
// (grants approved on the consent screen) and carried to the operation. Scope and reach checks read
// only the shared part, so they stay in one place for both kinds of credential.
import type { Scope } from './scopes';

interface Reachable {
  orgId: string;
  orgName: string;
  scopes: Scope[];
  /** The clients whose rows this credential reads; null means every client of the organisation. */
  clientIds: string[] | null;
}

export interface ApiKeyContext extends Reachable {
  kind: 'api_key';
  keyId: string;
  keyName: string;
  keyPrefix: string;
  expiresAt: string | null;
}

/** An OAuth access token of a live grant: its reach is the approving user's, read afresh on every call. */
export interface OAuthGrantContext extends Reachable {
  kind: 'oauth_grant';
  grantId: string;
  /** The OAuth client (its id is a metadata URL or a registered id). */
  clientId: string;
  clientName: string;
  /** The dashboard user who approved the grant. */
  userId: string;
  /** When the access token expires. */
  expiresAt: string;
}

export type AuthContext = ApiKeyContext | OAuthGrantContext;

/** The credential's stable identity for limits, audit and usage: never the secret itself. */
export function credentialId(auth: AuthContext): string {
  return auth.kind === 'api_key' ? `key:${auth.keyId}` : `grant:${auth.grantId}`;
}
