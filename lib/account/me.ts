// /me: what the calling key is, straight from its verified context.
import type { AuthContext } from '../contract/credential';
import { ApiError } from '../contract/errors';
import { envelope } from '../contract/envelope';
import type { Me } from './schemas';

export function describeKey(auth: AuthContext) {
  // /me describes a key. OAuth access tokens are refused on the REST interface before this is reached.
  if (auth.kind !== 'api_key') throw new ApiError('unauthorized', 'The REST interface takes API keys only.');
  const me: Me = {
    key: { id: auth.keyId, name: auth.keyName, prefix: auth.keyPrefix, expiresAt: auth.expiresAt },
    org: { id: auth.orgId, name: auth.orgName },
    scopes: auth.scopes,
    clientIds: auth.clientIds,
  };
  // Nothing synced is read, so there is no freshness to state.
  return envelope(me, { syncedAt: null });
}
