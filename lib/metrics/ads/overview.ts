// GET /ads/overview: KPIs, previous period, funds, daily series, campaigns and widgets for the ad
// accounts in reach, optionally narrowed to one campaign, ad set or ad.
import type { Reach } from '../../reach/reach';
import { envelope, type Envelope } from '../../contract/envelope';
import { notFound } from '../../contract/errors';
import { previousPeriod, type DayRange } from '../../time/day-range';
import { bucketSeries, bucketsOf, type Granularity } from '../../time/buckets';
import { eachDay, type IsoDay } from '../../time/days';
import { singleCurrency } from '../currency';
import { lastSuccessfulSyncs, oldestSync } from '../freshness';
import { num, ratio } from '../ratios';
import { LIST_CAP } from '../definitions';
import { TOP_CAMPAIGNS } from './definitions';
import { accountLineage, capRows, clientLineage, ctrPercent, entityFigures, orZero } from './mapping';
import { accountBreakdownSums, type BreakdownSumsRow } from './queries/breakdown-sums';
import { entityAggregates, entityTotals, type EntityAggregateRow, type EntityTotalsRow } from './queries/entity-lists';
import { periodSums, resultSums, type PeriodSumsRow, type ResultSumsRow } from './queries/period-sums';
import { accountFilter, accountsInReach, findEntity, type AccountRow, type EntityRef, type InsightRows } from './repository';
import type { AdsOverviewData, AdsOverviewQuery } from './schemas';

/**
 * The entity the id filters designate: the most specific one given. Every given filter must exist in
 * reach and the filters must name one lineage (an ad set outside the given campaign, an ad outside the
 * given ad set or campaign): otherwise 404, the same answer as for an unknown id.
 */
async function filteredEntity(reach: Reach, query: Pick<AdsOverviewQuery, 'campaignId' | 'adSetId' | 'adId'>): Promise<EntityRef | null> {
  const [campaign, adSet, ad] = await Promise.all([
    query.campaignId === undefined ? undefined : findEntity(reach, 'campaign', query.campaignId),
    query.adSetId === undefined ? undefined : findEntity(reach, 'adset', query.adSetId),
    query.adId === undefined ? undefined : findEntity(reach, 'ad', query.adId),
  ]);
  if (campaign === null || adSet === null || ad === null) throw notFound('entity');
  if (adSet && campaign && adSet.campaign_id !== campaign.id) throw notFound('entity');
  if (ad && campaign && ad.campaign_id !== campaign.id) throw notFound('entity');
  if (ad && adSet && ad.ad_set_id !== adSet.id) throw notFound('entity');
  return ad ?? adSet ?? campaign ?? null;
}

function periodFigures(rows: PeriodSumsRow[], current: boolean) {
  const total = rows.find((row) => row.day === null && row.current === current);
  // Reach is not additive over days: the peak of the days' reach (see ADS_RULES.reach).
  const reach = Math.max(0, ...rows.filter((row) => row.day !== null && row.current === current).map((row) => orZero(row.reach)));
  return { total, reach };
}

type PeriodFigures = ReturnType<typeof periodFigures>;

/** Results of the reported type (see resultSums): totals of both periods and the current one's days. */
function resultFigures(rows: ResultSumsRow[]) {
  const totalOf = (current: boolean) => rows.find((row) => row.day === null && row.current === current);
  const current = totalOf(true);
  return {
    resultType: rows[0]?.result_type ?? null,
    results: num(current?.results),
    costPerResult: ratio(num(current?.reported_spend), num(current?.results)),
    previousResults: orZero(totalOf(false)?.results),
    byDay: new Map(rows.filter((row) => row.day !== null).map((row) => [row.day, orZero(row.results)])),
  };
}

type ResultFigures = ReturnType<typeof resultFigures>;

/**
 * Which insight rows each part reads. With an id filter, the entity's own rows (its campaign's for the
 * campaign list); without, the rows of the accounts in reach.
 */
function insightRowsOf(reach: Reach, entity: EntityRef | null, accounts: AccountRow[]) {
  const scope = { orgId: reach.orgId };
  const inAccounts = { ...scope, accountIds: accountFilter(reach, accounts) };
  const figures: InsightRows = entity ? { ...scope, level: entity.level, entityIds: [entity.id] } : { ...inAccounts, level: 'account' };
  // Results are set per campaign (its optimisation goal): without a filter they are read from campaign rows.
  const results: InsightRows = entity ? figures : { ...inAccounts, level: 'campaign' };
  const campaigns = entity ? { ...scope, level: 'campaign' as const, entityIds: [entity.campaign_id] } : { ...inAccounts, level: 'campaign' as const };
  return { figures, results, campaigns, accountIds: inAccounts.accountIds };
}

/**
 * The campaign list (one more than `limit`, to tell a cut list) and, once it is read, its first
 * campaigns again with the figures of their results (in the same order: spend, name, id).
 */
function campaignQueries(orgId: string, rows: InsightRows & { level: 'campaign' }, range: DayRange, limit: number) {
  const list = entityTotals(rows, range, { limit: limit + 1 });
  const top = list.then((listed) => {
    const ids = listed.slice(0, Math.min(limit, TOP_CAMPAIGNS)).map((row) => row.id);
    return ids.length === 0 ? [] : entityAggregates({ orgId, level: 'campaign', entityIds: ids }, range, { limit: ids.length });
  });
  return { list, top };
}

function kpisOf(current: PeriodFigures, outcome: ResultFigures): AdsOverviewData['kpis'] {
  const spend = orZero(current.total?.spend);
  const impressions = orZero(current.total?.impressions);
  const clicks = orZero(current.total?.clicks);
  return {
    spend,
    impressions,
    reach: current.reach,
    clicks,
    ctr: ctrPercent(clicks, impressions) ?? 0,
    cpc: ratio(spend, clicks) ?? 0,
    videoViews: orZero(current.total?.video_views),
    purchaseValue: orZero(current.total?.purchase_value),
    results: outcome.results ?? 0,
    resultType: outcome.resultType,
    costPerResult: outcome.costPerResult,
  };
}

function previousOf(before: PeriodFigures, outcome: ResultFigures): AdsOverviewData['previous'] {
  return {
    spend: orZero(before.total?.spend),
    results: outcome.previousResults,
    impressions: orZero(before.total?.impressions),
    clicks: orZero(before.total?.clicks),
    reach: before.reach,
  };
}

/** Funds summed over the accounts read (see accountsInReach). */
function fundsOf(accounts: AccountRow[]): AdsOverviewData['funds'] {
  return {
    balance: num(accounts[0]?.total_balance),
    spent: num(accounts[0]?.total_spent),
    cap: num(accounts[0]?.total_cap),
  };
}

function lowBalanceRow(account: AccountRow): AdsOverviewData['lowBalance'][number] {
  return {
    accountName: account.name,
    balance: orZero(account.balance),
    threshold: orZero(account.low_balance_threshold),
    currency: account.currency,
  };
}

type SeriesPoint = AdsOverviewData['series'][number];

/** Amounts have cents: a sum of floats is rounded back to them. */
const cents = (value: number) => Math.round(value * 100) / 100;

/** Every bucket of the range, with zeros for days without rows. */
function seriesOf(sums: PeriodSumsRow[], outcome: ResultFigures, from: IsoDay, to: IsoDay, granularity: Granularity): SeriesPoint[] {
  return coarsenAdsSeries(dailyPoints(sums, outcome, from, to), from, to, granularity);
}

/**
 * The series by day of the range `from`-`to` in buckets of `granularity`. A bucket is a range of its own
 * and follows the range rules (ADS_RULES): sums, and reach the peak day, never a sum over days; so the
 * days alone give every bucket, and the MCP door coarsens an answer by day without computing it again.
 */
export function coarsenAdsSeries(daily: SeriesPoint[], from: IsoDay, to: IsoDay, granularity: Granularity): SeriesPoint[] {
  if (granularity === 'day') return daily;
  const total = (points: SeriesPoint[], pick: (point: SeriesPoint) => number) => points.reduce((sum, point) => sum + pick(point), 0);
  return bucketSeries(daily, bucketsOf(from, to, granularity), (points, bucket) => ({
    date: bucket.from,
    spend: cents(total(points, (point) => point.spend)),
    impressions: total(points, (point) => point.impressions),
    clicks: total(points, (point) => point.clicks),
    reach: Math.max(0, ...points.map((point) => point.reach)),
    results: total(points, (point) => point.results),
  }));
}

/** Every day of the range, with zeros for a day without rows. */
function dailyPoints(sums: PeriodSumsRow[], outcome: ResultFigures, from: IsoDay, to: IsoDay): SeriesPoint[] {
  const daily = new Map(sums.filter((row) => row.day !== null && row.current).map((row) => [row.day, row]));
  return eachDay(from, to).map((date) => {
    const day = daily.get(date);
    return {
      date,
      spend: orZero(day?.spend),
      impressions: orZero(day?.impressions),
      clicks: orZero(day?.clicks),
      reach: orZero(day?.reach),
      results: outcome.byDay.get(date) ?? 0,
    };
  });
}

function campaignRow(row: EntityTotalsRow): AdsOverviewData['campaigns'][number] {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    effectiveStatus: row.effective_status,
    spend: orZero(row.spend),
    impressions: orZero(row.impressions),
    clicks: orZero(row.clicks),
    ctr: ctrPercent(orZero(row.clicks), orZero(row.impressions)) ?? 0,
    account: accountLineage(row),
    client: clientLineage(row),
  };
}

function topCampaignRow(row: EntityAggregateRow): AdsOverviewData['widgets']['topCampaigns'][number] {
  const figures = entityFigures(row);
  return {
    platformId: row.platform_id,
    name: row.name,
    spend: figures.spend,
    results: figures.results,
    resultType: figures.resultType,
    costPerResult: figures.costPerResult,
    ctr: figures.ctr ?? 0,
    status: row.status,
  };
}

function breakdownWidgets(rows: BreakdownSumsRow[]) {
  const of = (breakdown: BreakdownSumsRow['breakdown']) => rows.filter((row) => row.breakdown === breakdown);
  const sums = (row: BreakdownSumsRow) => ({ impressions: orZero(row.impressions), spend: orZero(row.spend), clicks: orZero(row.clicks) });
  return {
    ageGender: of('age_gender').map((row) => ({ age: row.key1, gender: row.key2, ...sums(row), reach: orZero(row.reach) })),
    platforms: of('platform').map((row) => ({ platform: row.key1, ...sums(row) })),
    placements: of('placement').map((row) => ({ platform: row.key1, position: row.key2, ...sums(row) })),
  };
}

/** The funnel and the video widget read the KPIs' period; the others have rows of their own. */
function widgetsOf(
  kpis: AdsOverviewData['kpis'],
  current: PeriodFigures,
  topCampaigns: EntityAggregateRow[],
  breakdowns: BreakdownSumsRow[],
): AdsOverviewData['widgets'] {
  return {
    funnel: {
      impressions: kpis.impressions,
      reach: kpis.reach,
      clicks: kpis.clicks,
      linkClicks: orZero(current.total?.link_clicks),
      results: kpis.results,
      resultType: kpis.resultType,
    },
    topCampaigns: topCampaigns.map(topCampaignRow),
    ...breakdownWidgets(breakdowns),
    video: {
      views3s: orZero(current.total?.video_3s_views),
      thruplay: orZero(current.total?.thruplays),
      p25: orZero(current.total?.video_p25),
      p50: orZero(current.total?.video_p50),
      p75: orZero(current.total?.video_p75),
      p100: orZero(current.total?.video_p100),
    },
  };
}

/** `limit`: at most this many `campaigns` (the MCP tool's argument); REST always lists up to LIST_CAP. */
export async function getAdsOverview(
  reach: Reach,
  query: Omit<AdsOverviewQuery, 'granularity'> & { granularity?: Granularity; limit?: number },
): Promise<Envelope<AdsOverviewData>> {
  const { from, to, limit = LIST_CAP } = query;
  const previous = previousPeriod({ from, to });
  const range = { previousFrom: previous.from, from, to };
  const entity = await filteredEntity(reach, query);
  // With an id filter, funds, currency and freshness are those of the entity's account.
  const accounts = await accountsInReach(reach, entity?.account_id);
  const accountIds = accounts.map((account) => account.id);

  const rows = insightRowsOf(reach, entity, accounts);
  const campaignList = campaignQueries(reach.orgId, rows.campaigns, { from, to }, limit);
  const [sums, results, campaigns, topCampaigns, breakdowns, syncs] = await Promise.all([
    periodSums(rows.figures, range),
    resultSums(rows.results, range),
    campaignList.list,
    campaignList.top,
    // Account-level breakdowns cannot be narrowed to an entity honestly: empty with a filter (see the description).
    entity ? Promise.resolve([]) : accountBreakdownSums(reach.orgId, rows.accountIds, from, to),
    lastSuccessfulSyncs(accountIds),
  ]);

  const current = periodFigures(sums, true);
  const outcome = resultFigures(results);
  const kpis = kpisOf(current, outcome);
  const listed = capRows(campaigns, limit);
  const lowBalance = capRows(accounts.filter((account) => account.low_balance), LIST_CAP);
  const data: AdsOverviewData = {
    kpis,
    previous: previousOf(periodFigures(sums, false), outcome),
    funds: fundsOf(accounts),
    lowBalance: lowBalance.rows.map(lowBalanceRow),
    series: seriesOf(sums, outcome, from, to, query.granularity ?? 'day'),
    campaigns: listed.rows.map(campaignRow),
    widgets: widgetsOf(kpis, current, topCampaigns, breakdowns),
  };
  return envelope(data, {
    syncedAt: oldestSync(syncs, accountIds),
    from,
    to,
    truncated: listed.truncated || lowBalance.truncated,
    currency: singleCurrency(accounts.map((account) => account.currency)),
  });
}
