// /website/overview: the web-analytics properties in reach, their totals, series and dimension
// tables over the range and the compare range.
import { wholeOrganisation, type Reach } from '../../reach/reach';
import { envelope, type Envelope } from '../../contract/envelope';
import { daysInclusive } from '../../time/days';
import { compareRange, type ComparedRangeQuery } from '../compare';
import { singleCurrency } from '../currency';
import { dailyPoints, dimensionRows, namedTables } from '../dimension-tables/shape';
import { dimensionTables } from '../dimension-tables/queries/dimension-tables';
import { aggregatePeriods } from '../dimension-tables/queries/period-aggregates';
import { lastSuccessfulSyncs, oldestSync } from '../freshness';
import { WEB_DAY_FIELDS, WEB_TABLES, webMetricSet } from './definitions';
import { ANALYTICS_DAILY, ANALYTICS_DIMENSIONS, propertiesInReach } from './repository';
import type { WebsiteOverview } from './schemas';

export async function getWebsiteOverview(reach: Reach, query: ComparedRangeQuery): Promise<Envelope<WebsiteOverview>> {
  const range = { from: query.from, to: query.to };
  const compare = compareRange(range, query.compare);
  const properties = await propertiesInReach(reach);
  const base = { from: range.from, to: range.to, compare };
  if (properties.length === 0) {
    return envelope({ ...base, analytics: null }, { syncedAt: null, from: range.from, to: range.to, currency: null });
  }

  const ids = properties.map((property) => property.id);
  const wholeOrgId = wholeOrganisation(reach);
  const [syncs, periods, tables] = await Promise.all([
    lastSuccessfulSyncs(ids),
    aggregatePeriods(ANALYTICS_DAILY, ids, range, compare, wholeOrgId, query.granularity),
    dimensionTables(ANALYTICS_DIMENSIONS, ids, range, compare, query.limit, wholeOrgId),
  ]);
  const currency = singleCurrency(properties.map((property) => property.currency));
  const analytics: NonNullable<WebsiteOverview['analytics']> = {
    properties: properties.map((property) => ({
      id: property.id,
      name: property.name,
      timezone: property.timezone,
      lastSyncedAt: syncs.get(property.id)?.toISOString() ?? null,
    })),
    currency,
    totals: webMetricSet(periods.current.totals),
    previous: periods.previous && webMetricSet(periods.previous.totals),
    series: dailyPoints(periods.current, WEB_DAY_FIELDS),
    previousSeries: periods.previous ? dailyPoints(periods.previous, WEB_DAY_FIELDS) : [],
    ...namedTables(WEB_TABLES, tables, (rows) => dimensionRows(rows, webMetricSet)),
    partial: periods.current.coveredDays < properties.length * daysInclusive(range.from, range.to),
  };
  return envelope({ ...base, analytics }, { syncedAt: oldestSync(syncs, ids), from: range.from, to: range.to, currency });
}
