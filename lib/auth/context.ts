// What a verified credential may read. Built by `authenticate` and carried to the route.
import type { Scope } from './scopes';

export interface AuthContext {
  kind: 'api_key';
  keyId: string;
  keyName: string;
  keyPrefix: string;
  expiresAt: string | null;
  orgId: string;
  orgName: string;
  scopes: Scope[];
  /** The clients whose rows this credential reads; null means every client of the organisation. */
  clientIds: string[] | null;
}
