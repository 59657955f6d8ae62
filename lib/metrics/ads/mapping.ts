// From database rows to response figures: the metric rules of definitions.ts, as pure functions.
import { TIMEZONE } from '../../contract/envelope';
import { addDays, todayIn } from '../../time/days';
import { num, ratio } from '../ratios';
import { BREAKDOWN_REFETCH_AFTER_HOURS, RESTATEMENT_WINDOW_DAYS } from './definitions';
import type { AdEntityRow, AdLevel } from './schemas';
import type { EntityAggregateRow } from './queries/entity-lists';

/** A sum typed as a plain number: not reported (null) becomes 0, as the field's description says. */
export function orZero(value: string | number | null | undefined): number {
  return num(value) ?? 0;
}

/** Click-through rate in percent. */
export function ctrPercent(clicks: number, impressions: number): number | null {
  return ratio(clicks, impressions, 100);
}

/** How a row is attributed to a client: the client, or the account's own name when it has none. */
export function clientLineage(row: { client_id: string | null; client_name: string | null; account_name: string }): {
  id: string | null;
  name: string;
} {
  return row.client_id ? { id: row.client_id, name: row.client_name ?? row.account_name } : { id: null, name: row.account_name };
}

export function accountLineage(row: { account_id: string; platform_account_id: string; account_name: string }) {
  return { id: row.account_id, platformAccountId: row.platform_account_id, name: row.account_name };
}

/** An entity's figures over the range (/ads/entities row without lineage). */
export function entityFigures(row: EntityAggregateRow) {
  const spend = orZero(row.spend);
  const impressions = orZero(row.impressions);
  const clicks = orZero(row.clicks);
  const results = num(row.results);
  return {
    spend,
    impressions,
    reach: orZero(row.reach_peak),
    clicks,
    linkClicks: orZero(row.link_clicks),
    results,
    resultType: row.result_type,
    ctr: ctrPercent(clicks, impressions),
    cpc: ratio(spend, clicks),
    costPerResult: ratio(num(row.reported_spend), results),
    frequency: ratio(impressions, num(row.reach_days)),
  };
}

/**
 * An /ads/entities row as one object literal: every row has the same shape, made without spreading
 * objects into it (a spread copies member by member). A member that is undefined is left out of the
 * JSON: campaign and ad-set rows have no URLs.
 */
export function entityRow(level: AdLevel, row: EntityAggregateRow): AdEntityRow {
  const figures = entityFigures(row);
  const isAd = level === 'ad';
  return {
    id: row.id,
    platformId: row.platform_id,
    name: row.name,
    status: row.status,
    effectiveStatus: row.effective_status,
    currency: row.currency,
    spend: figures.spend,
    impressions: figures.impressions,
    reach: figures.reach,
    clicks: figures.clicks,
    linkClicks: figures.linkClicks,
    results: figures.results,
    resultType: figures.resultType,
    ctr: figures.ctr,
    cpc: figures.cpc,
    costPerResult: figures.costPerResult,
    frequency: figures.frequency,
    thumbnailUrl: isAd ? row.thumbnail_url : undefined,
    imageUrl: isAd ? row.image_url : undefined,
    account: accountLineage(row),
    client: clientLineage(row),
    campaign:
      row.campaign_id && row.campaign_platform_id && row.campaign_name !== null
        ? { id: row.campaign_id, platformId: row.campaign_platform_id, name: row.campaign_name, objective: row.campaign_objective }
        : null,
    adSet:
      row.ad_set_id && row.ad_set_platform_id && row.ad_set_name !== null
        ? { id: row.ad_set_id, platformId: row.ad_set_platform_id, name: row.ad_set_name }
        : null,
  };
}

/** Keeps at most `cap` rows; `truncated` says whether more were there (callers fetch `cap + 1`). */
export function capRows<T>(rows: T[], cap: number): { rows: T[]; truncated: boolean } {
  return rows.length > cap ? { rows: rows.slice(0, cap), truncated: true } : { rows, truncated: false };
}

/**
 * Whether the dashboard would refetch a cached breakdown: nothing cached; or the cache is older than
 * the sync interval and was fetched within the restatement window of the range's last day (IST), so
 * the platform may have restated those days since. A range fetched 28+ days after it ended is final.
 */
export function isBreakdownStale(fetchedAt: Date | null, to: string, now: Date): boolean {
  if (!fetchedAt) return true;
  const ageHours = (now.getTime() - fetchedAt.getTime()) / 3_600_000;
  if (ageHours <= BREAKDOWN_REFETCH_AFTER_HOURS) return false;
  // IST days as YYYY-MM-DD compare correctly as strings.
  return todayIn(TIMEZONE, fetchedAt) < addDays(to, RESTATEMENT_WINDOW_DAYS);
}
