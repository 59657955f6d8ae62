// /store/overview: the stores in reach, their totals, series and dimension tables over the range and
// the compare range.
import { wholeOrganisation, type Reach } from '../../reach/reach';
import { envelope, type Envelope } from '../../contract/envelope';
import { compareRange, type ComparedRangeQuery } from '../compare';
import { singleCurrency } from '../currency';
import { dailyPoints, dimensionRows, namedTables } from '../dimension-tables/shape';
import { dimensionTables } from '../dimension-tables/queries/dimension-tables';
import { aggregatePeriods } from '../dimension-tables/queries/period-aggregates';
import { lastSuccessfulSyncs, oldestSync } from '../freshness';
import { STORE_DAY_FIELDS, STORE_TABLES, storeMetricSet } from './definitions';
import { STORE_DAILY, STORE_DIMENSIONS, storesInReach } from './repository';
import type { StoreOverview } from './schemas';

export async function getStoreOverview(reach: Reach, query: ComparedRangeQuery): Promise<Envelope<StoreOverview>> {
  const range = { from: query.from, to: query.to };
  const compare = compareRange(range, query.compare);
  const stores = await storesInReach(reach);
  const base = { from: range.from, to: range.to, compare };
  if (stores.length === 0) {
    return envelope({ ...base, store: null }, { syncedAt: null, from: range.from, to: range.to, currency: null });
  }

  const ids = stores.map((store) => store.id);
  const wholeOrgId = wholeOrganisation(reach);
  const [syncs, periods, tables] = await Promise.all([
    lastSuccessfulSyncs(ids),
    aggregatePeriods(STORE_DAILY, ids, range, compare, wholeOrgId, query.granularity),
    dimensionTables(STORE_DIMENSIONS, ids, range, compare, query.limit, wholeOrgId),
  ]);
  const currency = singleCurrency(stores.map((store) => store.currency));
  const store: NonNullable<StoreOverview['store']> = {
    stores: stores.map((row) => ({
      id: row.id,
      shopDomain: row.shop_domain,
      shopName: row.name,
      timezone: row.timezone,
      lastSyncedAt: syncs.get(row.id)?.toISOString() ?? null,
      hasAllOrdersScope: row.has_all_orders_scope,
    })),
    currency,
    totals: storeMetricSet(periods.current.totals),
    previous: periods.previous && storeMetricSet(periods.previous.totals),
    series: dailyPoints(periods.current, STORE_DAY_FIELDS),
    previousSeries: periods.previous ? dailyPoints(periods.previous, STORE_DAY_FIELDS) : [],
    ...namedTables(STORE_TABLES, tables, (rows) => dimensionRows(rows, storeMetricSet)),
  };
  return envelope({ ...base, store }, { syncedAt: oldestSync(syncs, ids), from: range.from, to: range.to, currency });
}
