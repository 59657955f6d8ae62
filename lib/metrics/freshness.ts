// Freshness from real sync runs: a resource's `lastSyncedAt` is the end of its latest succeeded run,
// and a response's `meta.syncedAt` is the oldest of those among the resources that contributed.
import { readSql as sql } from '../db';

/** Latest succeeded sync per resource id; resources never synced successfully are absent. */
export async function lastSuccessfulSyncs(resourceIds: string[]): Promise<Map<string, Date>> {
  if (resourceIds.length === 0) return new Map();
  const rows = await sql<{ resource_id: string; finished_at: Date }>(
    `SELECT r.id AS resource_id, s.finished_at
       FROM unnest($1::uuid[]) AS r(id)
       CROSS JOIN LATERAL (
         SELECT finished_at FROM sync_runs
          WHERE resource_id = r.id AND status = 'succeeded' AND finished_at IS NOT NULL
          ORDER BY finished_at DESC LIMIT 1
       ) s`,
    [resourceIds],
  );
  return new Map(rows.map((row) => [row.resource_id, row.finished_at]));
}

/** The oldest last-successful sync among the resources (never-synced ones contributed no data). */
export function oldestSync(syncs: Map<string, Date>, resourceIds: Iterable<string> = syncs.keys()): Date | null {
  let oldest: Date | null = null;
  for (const id of resourceIds) {
    const at = syncs.get(id);
    if (at && (!oldest || at < oldest)) oldest = at;
  }
  return oldest;
}

/**
 * The organisation's data version: the sum of its rows in `data_versions`, which triggers on every
 * table the API reads bump in the writing transaction (migration 20261125022757_data_versions). Each
 * bump adds one, so the sum changes with every write a sync (or anything else) commits. One index
 * range read of at most one row per table. Read it before the data: under READ COMMITTED the data's
 * statements then see at least the writes this version counts, so an answer cached under it is never
 * older than its key says.
 */
export async function dataVersion(orgId: string): Promise<string> {
  const [row] = await sql<{ version: string }>(
    'SELECT coalesce(sum(version), 0)::text AS version FROM data_versions WHERE org_id = $1',
    [orgId],
  );
  return row!.version;
}
