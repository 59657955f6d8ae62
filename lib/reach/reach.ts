// Client reach: which clients' rows a request may read. Scopes gate endpoints; this gates rows.
import { readSql as sql } from '../db';
import { notFound } from '../contract/errors';
import type { AuthContext } from '../contract/credential';

export interface Reach {
  orgId: string;
  /**
   * The clients whose rows are read. null: every client of the organisation and the resources
   * assigned to no client (only an unrestricted credential without a `client` filter has null).
   */
  clientIds: string[] | null;
}

/**
 * The clients a member reaches, as it is now: null for an admin (every client of the organisation,
 * those added later too), else the clients listed for the membership (possibly none). An OAuth grant
 * reaches what its approving user reaches; `query` is the caller's connection (the gate's primary).
 */
export async function membershipClientIds(
  membership: { id: string; role: string },
  query: (text: string, values: unknown[]) => Promise<{ clientId: string }[]> = sql,
): Promise<string[] | null> {
  if (membership.role === 'admin') return null;
  const rows = await query('SELECT client_id AS "clientId" FROM member_client_access WHERE membership_id = $1 ORDER BY client_id', [membership.id]);
  return rows.map((row) => row.clientId);
}

/**
 * The reach of a request: the credential's clients, narrowed to `client` when given. A client that
 * does not exist, belongs to another organisation or is outside the credential's list is 404, the
 * same answer in every case.
 */
export async function resolveReach(auth: AuthContext, client?: string): Promise<Reach> {
  if (client === undefined) return { orgId: auth.orgId, clientIds: auth.clientIds };
  // The lookup runs in every case so that "outside the list" and "absent" take the same path.
  const rows = await sql('SELECT 1 FROM clients WHERE id = $1 AND org_id = $2', [client, auth.orgId]);
  if (rows.length === 0 || (auth.clientIds && !auth.clientIds.includes(client))) throw notFound('client');
  return { orgId: auth.orgId, clientIds: [client] };
}

/**
 * The organisation when the reach is all of it (every client and the unassigned resources), whose
 * rollups per organisation can then answer for it; null otherwise.
 */
export function wholeOrganisation(reach: Reach): string | null {
  return reach.clientIds === null ? reach.orgId : null;
}

/**
 * SQL condition limiting a resource table to a reach. `orgParam` and `clientsParam` are the
 * positional parameters holding `reach.orgId` and `reach.clientIds` (uuid[] or null).
 */
export function reachCondition(alias: string, orgParam: number, clientsParam: number): string {
  return `${alias}.org_id = $${orgParam} AND ($${clientsParam}::uuid[] IS NULL OR ${alias}.client_id = ANY($${clientsParam}::uuid[]))`;
}
