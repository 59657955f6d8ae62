// GET /ads/breakdowns: the breakdowns the dashboard fetched on demand for one entity and exactly this
// range, as cached. The service never fetches them itself; `stale` says when the dashboard would.
import type { Reach } from '../../reach/reach';
import { envelope, type Envelope } from '../../contract/envelope';
import { notFound } from '../../contract/errors';
import { singleCurrency } from '../currency';
import { LIST_CAP } from '../definitions';
import { capRows, isBreakdownStale, orZero } from './mapping';
import { accountsInReach, cachedBreakdowns, findEntity, type BreakdownCacheRow } from './repository';
import type { AdsBreakdownsData, AdsBreakdownsQuery } from './schemas';

function breakdownList(cached: BreakdownCacheRow[], breakdown: NonNullable<BreakdownCacheRow['breakdown']>) {
  const rows = cached
    .filter((row) => row.breakdown === breakdown)
    .map((row) => ({
      key1: row.key1 ?? '',
      key2: row.key2 ?? '',
      spend: orZero(row.spend),
      impressions: orZero(row.impressions),
      clicks: orZero(row.clicks),
      reach: orZero(row.reach),
    }));
  return capRows(rows, LIST_CAP);
}

export async function getAdBreakdowns(reach: Reach, query: AdsBreakdownsQuery, now = new Date()): Promise<Envelope<AdsBreakdownsData>> {
  const { level, from, to } = query;
  const entity = await findEntity(reach, level, query.entityId);
  if (!entity) throw notFound('entity');
  const [cached, accounts] = await Promise.all([
    cachedBreakdowns(reach.orgId, level, entity.id, from, to),
    accountsInReach(reach, entity.account_id),
  ]);
  // No cache entry for this exact range: empty lists, `syncedAt` null and `stale` true (the dashboard would fetch it).
  const fetchedAt = cached[0]?.fetched_at ?? null;
  const list = (breakdown: NonNullable<BreakdownCacheRow['breakdown']>) => breakdownList(cached, breakdown);
  const lists = { ageGender: list('age_gender'), device: list('device'), platform: list('platform'), placement: list('placement'), region: list('region') };
  return envelope(
    {
      ageGender: lists.ageGender.rows,
      device: lists.device.rows,
      platform: lists.platform.rows,
      placement: lists.placement.rows,
      region: lists.region.rows,
      syncedAt: fetchedAt?.toISOString() ?? null,
      stale: isBreakdownStale(fetchedAt, to, now),
    },
    // The figures come from the dashboard's fetch, not from a sync run: its time is their freshness.
    {
      syncedAt: fetchedAt,
      from,
      to,
      truncated: Object.values(lists).some((listed) => listed.truncated),
      currency: singleCurrency(accounts.map((account) => account.currency)),
    },
  );
}
