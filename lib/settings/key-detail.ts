// One key of an organisation, for its own page (its request log and usage): an id outside the
// organisation, or one that is no id at all, is not found, exactly like a key that does not exist.
import { sql } from '../db';

export interface OrgKey {
  id: string;
  name: string;
  prefix: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findOrgKey(orgId: string, keyId: string): Promise<OrgKey | null> {
  if (!UUID.test(keyId)) return null;
  const [key] = await sql<OrgKey>(
    `SELECT id, name, prefix, revoked_at AS "revokedAt", expires_at AS "expiresAt" FROM api_keys WHERE id = $1 AND org_id = $2`,
    [keyId, orgId],
  );
  return key ?? null;
}
