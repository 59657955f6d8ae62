// /website/search: the search-console sites in reach, their clicks, impressions, CTR and position
// over the range and the compare range, with a daily series and the dimension tables.
import type { Reach } from '../../reach/reach';
import { envelope, type Envelope } from '../../contract/envelope';
import { daysInclusive } from '../../time/days';
import { compareRange, type ComparedRangeQuery } from '../compare';
import { namedTables } from '../dimension-tables/shape';
import { dimensionTables } from '../dimension-tables/queries/dimension-tables';
import { aggregatePeriods } from '../dimension-tables/queries/period-aggregates';
import type { DimensionRow, PeriodAggregate } from '../dimension-tables/repository';
import { lastSuccessfulSyncs, oldestSync } from '../freshness';
import { SEARCH_TABLES, searchMetricSet } from './definitions';
import { SEARCH_DAILY, SEARCH_DIMENSIONS, sitesInReach } from './repository';
import type { WebsiteSearch } from './schemas';

function searchSeries(aggregate: PeriodAggregate) {
  return aggregate.series.map(({ date, sums }) => ({ date, ...searchMetricSet(sums) }));
}

function searchRows(rows: DimensionRow[]) {
  return rows.map((row) => ({ key: row.key, totals: searchMetricSet(row.totals), previous: row.previous && searchMetricSet(row.previous) }));
}

export async function getWebsiteSearch(reach: Reach, query: ComparedRangeQuery): Promise<Envelope<WebsiteSearch>> {
  const range = { from: query.from, to: query.to };
  const compare = compareRange(range, query.compare);
  const sites = await sitesInReach(reach);
  const base = { from: range.from, to: range.to, compare };
  if (sites.length === 0) return envelope({ ...base, search: null }, { syncedAt: null, from: range.from, to: range.to });

  const ids = sites.map((site) => site.id);
  const [syncs, periods, tables] = await Promise.all([
    lastSuccessfulSyncs(ids),
    aggregatePeriods(SEARCH_DAILY, ids, range, compare, null, query.granularity),
    dimensionTables(SEARCH_DIMENSIONS, ids, range, compare, query.limit),
  ]);
  const search: NonNullable<WebsiteSearch['search']> = {
    sites: sites.map((site) => ({
      id: site.id,
      siteUrl: site.site_url,
      timezone: site.timezone,
      lastSyncedAt: syncs.get(site.id)?.toISOString() ?? null,
    })),
    totals: searchMetricSet(periods.current.totals),
    previous: periods.previous && searchMetricSet(periods.previous.totals),
    series: searchSeries(periods.current),
    previousSeries: periods.previous ? searchSeries(periods.previous) : [],
    ...namedTables(SEARCH_TABLES, tables, searchRows),
    partial: periods.current.coveredDays < sites.length * daysInclusive(range.from, range.to),
  };
  return envelope({ ...base, search }, { syncedAt: oldestSync(syncs, ids), from: range.from, to: range.to });
}
