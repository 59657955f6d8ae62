// GET /ads/entities: one row per campaign, ad set or ad that has data in the range, with its figures
// and lineage, highest spend first, at most LIST_CAP rows.
import type { Reach } from '../../reach/reach';
import { envelope, type Envelope } from '../../contract/envelope';
import { singleCurrency } from '../currency';
import { lastSuccessfulSyncs, oldestSync } from '../freshness';
import { LIST_CAP } from '../definitions';
import { capRows, entityRow } from './mapping';
import { entityAggregates } from './queries/entity-lists';
import { accountIdsInReach } from './repository';
import type { AdsEntitiesData, AdsEntitiesQuery } from './schemas';

/** `limit`: at most this many rows (the MCP tool's argument); REST always lists up to LIST_CAP. */
export async function listAdEntities(
  reach: Reach,
  query: Omit<AdsEntitiesQuery, 'offset'> & { offset?: number; limit?: number },
): Promise<Envelope<AdsEntitiesData>> {
  const { level, from, to, search, offset, limit = LIST_CAP } = query;
  const accountIds = await accountIdsInReach(reach);
  const rows = await entityAggregates({ orgId: reach.orgId, level, accountIds }, { from, to }, { limit: limit + 1, offset, search });
  const listed = capRows(rows, limit);
  // The accounts that contributed are those of the rows returned: their freshness and currency.
  const contributing = [...new Set(listed.rows.map((row) => row.account_id))];
  const currency = singleCurrency(listed.rows.map((row) => row.currency));
  // Shaped before the wait for the syncs, so that the database's rows (a string per column) are not
  // kept through it: what a collection finds alive, it copies.
  const data = { rows: listed.rows.map((row) => entityRow(level, row)), truncated: listed.truncated };
  const syncs = await lastSuccessfulSyncs(contributing);
  return envelope(data, { syncedAt: oldestSync(syncs, contributing), from, to, truncated: listed.truncated, currency });
}
