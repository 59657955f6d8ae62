// GET /ads/overview: KPIs, previous period, funds, daily series, campaigns and widgets for the ad
// accounts in reach, optionally narrowed to one campaign, ad set or ad.
import type { Reach } from '../../auth/reach';
import { envelope, type Envelope } from '../../contract/envelope';
import { notFound } from '../../contract/errors';
import { previousPeriod } from '../../time/day-range';
import { eachDay } from '../../time/days';
import { singleCurrency } from '../currency';
import { lastSuccessfulSyncs, oldestSync } from '../freshness';
import { num, ratio } from '../ratios';
import { LIST_CAP } from '../definitions';
import { TOP_CAMPAIGNS } from './definitions';
import { accountLineage, capRows, clientLineage, ctrPercent, entityFigures, orZero } from './mapping';
import {
  accountBreakdownSums,
  accountFilter,
  accountsInReach,
  entityAggregates,
  entityTotals,
  findEntity,
  periodSums,
  resultSums,
  type BreakdownSumsRow,
  type EntityRef,
  type InsightRows,
  type PeriodSumsRow,
  type ResultSumsRow,
} from './repository';
import type { AdsOverviewData, AdsOverviewQuery } from './schemas';

/**
 * The entity the id filters designate: the most specific one given. Every given filter must exist in
 * reach and the filters must name one lineage (an ad set outside the given campaign, an ad outside the
 * given ad set or campaign): otherwise 404, the same answer as for an unknown id.
 */
async function filteredEntity(reach: Reach, query: AdsOverviewQuery): Promise<EntityRef | null> {
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

function widgetsFrom(rows: BreakdownSumsRow[]) {
  const of = (breakdown: BreakdownSumsRow['breakdown']) => rows.filter((row) => row.breakdown === breakdown);
  const sums = (row: BreakdownSumsRow) => ({ impressions: orZero(row.impressions), spend: orZero(row.spend), clicks: orZero(row.clicks) });
  return {
    ageGender: of('age_gender').map((row) => ({ age: row.key1, gender: row.key2, ...sums(row), reach: orZero(row.reach) })),
    platforms: of('platform').map((row) => ({ platform: row.key1, ...sums(row) })),
    placements: of('placement').map((row) => ({ platform: row.key1, position: row.key2, ...sums(row) })),
  };
}

/** `limit`: at most this many `campaigns` (the MCP tool's argument); REST always lists up to LIST_CAP. */
export async function getAdsOverview(reach: Reach, query: AdsOverviewQuery & { limit?: number }): Promise<Envelope<AdsOverviewData>> {
  const { from, to, limit = LIST_CAP } = query;
  const previous = previousPeriod({ from, to });
  const range = { previousFrom: previous.from, from, to };
  const entity = await filteredEntity(reach, query);
  // With an id filter, funds, currency and freshness are those of the entity's account.
  const accounts = await accountsInReach(reach, entity?.account_id);
  const accountIds = accounts.map((account) => account.id);

  const scope = { orgId: reach.orgId };
  const inAccounts = { ...scope, accountIds: accountFilter(reach, accounts) };
  const figureRows: InsightRows = entity ? { ...scope, level: entity.level, entityIds: [entity.id] } : { ...inAccounts, level: 'account' };
  // Results are set per campaign (its optimisation goal): without a filter they are read from campaign rows.
  const resultRows: InsightRows = entity ? figureRows : { ...inAccounts, level: 'campaign' };
  const campaignRows = entity ? { ...scope, level: 'campaign' as const, entityIds: [entity.campaign_id] } : { ...inAccounts, level: 'campaign' as const };

  const campaignList = entityTotals(campaignRows, { from, to }, { limit: limit + 1 });
  // The list's first campaigns again, with the figures of their results (in the same order: spend, name, id).
  const topCampaignRows = campaignList.then((rows) => {
    const ids = rows.slice(0, Math.min(limit, TOP_CAMPAIGNS)).map((row) => row.id);
    return ids.length === 0 ? [] : entityAggregates({ ...scope, level: 'campaign', entityIds: ids }, { from, to }, { limit: ids.length });
  });

  const [sums, results, campaigns, topCampaigns, breakdowns, syncs] = await Promise.all([
    periodSums(figureRows, range),
    resultSums(resultRows, range),
    campaignList,
    topCampaignRows,
    // Account-level breakdowns cannot be narrowed to an entity honestly: empty with a filter (see the description).
    entity ? Promise.resolve([]) : accountBreakdownSums(reach.orgId, inAccounts.accountIds, from, to),
    lastSuccessfulSyncs(accountIds),
  ]);

  const current = periodFigures(sums, true);
  const before = periodFigures(sums, false);
  const outcome = resultFigures(results);
  const spend = orZero(current.total?.spend);
  const impressions = orZero(current.total?.impressions);
  const clicks = orZero(current.total?.clicks);
  const daily = new Map(sums.filter((row) => row.day !== null && row.current).map((row) => [row.day, row]));
  const listed = capRows(campaigns, limit);
  const lowBalance = capRows(accounts.filter((account) => account.low_balance), LIST_CAP);

  const data: AdsOverviewData = {
    kpis: {
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
    },
    previous: {
      spend: orZero(before.total?.spend),
      results: outcome.previousResults,
      impressions: orZero(before.total?.impressions),
      clicks: orZero(before.total?.clicks),
      reach: before.reach,
    },
    funds: {
      balance: num(accounts[0]?.total_balance),
      spent: num(accounts[0]?.total_spent),
      cap: num(accounts[0]?.total_cap),
    },
    lowBalance: lowBalance.rows.map((account) => ({
      accountName: account.name,
      balance: orZero(account.balance),
      threshold: orZero(account.low_balance_threshold),
      currency: account.currency,
    })),
    series: eachDay(from, to).map((date) => {
      const day = daily.get(date);
      return {
        date,
        spend: orZero(day?.spend),
        impressions: orZero(day?.impressions),
        clicks: orZero(day?.clicks),
        reach: orZero(day?.reach),
        results: outcome.byDay.get(date) ?? 0,
      };
    }),
    campaigns: listed.rows.map((row) => ({
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
    })),
    widgets: {
      funnel: {
        impressions,
        reach: current.reach,
        clicks,
        linkClicks: orZero(current.total?.link_clicks),
        results: outcome.results ?? 0,
        resultType: outcome.resultType,
      },
      topCampaigns: topCampaigns.map((row) => {
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
      }),
      ...widgetsFrom(breakdowns),
      video: {
        views3s: orZero(current.total?.video_3s_views),
        thruplay: orZero(current.total?.thruplays),
        p25: orZero(current.total?.video_p25),
        p50: orZero(current.total?.video_p50),
        p75: orZero(current.total?.video_p75),
        p100: orZero(current.total?.video_p100),
      },
    },
  };
  return envelope(data, {
    syncedAt: oldestSync(syncs, accountIds),
    from,
    to,
    truncated: listed.truncated || lowBalance.truncated,
    currency: singleCurrency(accounts.map((account) => account.currency)),
  });
}
