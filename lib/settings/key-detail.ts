// One key of an organisation, for its own page (its status, request log and usage): an id outside the
// organisation, or one that is no id at all, is not found, exactly like a key that does not exist.
import { sql } from '../db';
import { displayName } from '../text/plain-text';
import { keyStatus, type KeyListItem } from '../keys/management';

export type OrgKey = Pick<KeyListItem, 'id' | 'name' | 'prefix' | 'expiresAt' | 'revokedAt' | 'revokedByName' | 'rotatedFrom' | 'replacedBy' | 'status'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  retiresAt: Date | null;
  revokedByName: string | null;
  rotatedFromId: string | null;
  rotatedFromPrefix: string | null;
  replacedById: string | null;
  replacedByPrefix: string | null;
}

export async function findOrgKey(orgId: string, keyId: string, now = new Date()): Promise<OrgKey | null> {
  if (!UUID.test(keyId)) return null;
  const [key] = await sql<KeyRow>(
    `SELECT k.id, k.name, k.prefix, k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt", k.retires_at AS "retiresAt",
            u.name AS "revokedByName", p.id AS "rotatedFromId", p.prefix AS "rotatedFromPrefix", s.id AS "replacedById", s.prefix AS "replacedByPrefix"
       FROM api_keys k
       LEFT JOIN users u ON u.id = k.revoked_by_id
       LEFT JOIN api_keys p ON p.id = k.rotated_from_id
       LEFT JOIN api_keys s ON s.rotated_from_id = k.id
      WHERE k.id = $1 AND k.org_id = $2`,
    [keyId, orgId],
  );
  if (!key) return null;
  return {
    id: key.id,
    name: displayName(key.name),
    prefix: key.prefix,
    expiresAt: key.expiresAt,
    revokedAt: key.revokedAt,
    revokedByName: key.revokedByName,
    rotatedFrom: key.rotatedFromId ? { id: key.rotatedFromId, prefix: key.rotatedFromPrefix! } : null,
    replacedBy: key.replacedById && key.retiresAt ? { id: key.replacedById, prefix: key.replacedByPrefix!, retiresAt: key.retiresAt } : null,
    status: keyStatus(key, now),
  };
}
