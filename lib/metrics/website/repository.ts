// The SQL of the website endpoints: the web-analytics properties and search-console sites in reach,
// and the tables and metric columns of both sources, which the shared range aggregates
// (dimension-tables/queries/) read.
import { reachCondition, type Reach } from '../../reach/reach';
import { readSql as sql } from '../../db';
import type { DailySource, DimensionSource, MetricColumns } from '../dimension-tables/repository';
import { SEARCH_TABLES, WEB_TABLES, type SearchDimension, type WebDimension } from './definitions';

// ───────────────────────── web analytics ─────────────────────────

export interface PropertyRow {
  id: string;
  name: string;
  timezone: string | null;
  currency: string | null;
}

/** Index: analytics_properties (org_id, client_id). */
export function propertiesInReach(reach: Reach): Promise<PropertyRow[]> {
  return sql<PropertyRow>(
    `SELECT p.id, p.name, p.timezone, p.currency FROM analytics_properties p
      WHERE ${reachCondition('p', 1, 2)}
      ORDER BY p.name, p.id`,
    [reach.orgId, reach.clientIds],
  );
}

const WEB_COLUMNS: MetricColumns = {
  summed: {
    sessions: 't.sessions',
    newUsers: 't.new_users',
    engagedSessions: 't.engaged_sessions',
    screenPageViews: 't.screen_page_views',
    eventCount: 't.event_count',
    keyEvents: 't.key_events',
    totalRevenue: 't.total_revenue',
    purchaseRevenue: 't.purchase_revenue',
    transactions: 't.transactions',
    ecommercePurchases: 't.ecommerce_purchases',
    userEngagementDuration: 't.user_engagement_duration',
    sessionDurationWeighted: 't.session_duration_weighted',
  },
  peak: { totalUsers: 't.total_users', activeUsers: 't.active_users' },
};

export const ANALYTICS_DAILY: DailySource = { table: 'analytics_daily', resourceColumn: 'analytics_property_id', metrics: WEB_COLUMNS, orgDailyTable: 'analytics_org_daily' };

export const ANALYTICS_DIMENSIONS: DimensionSource<WebDimension> = {
  table: 'analytics_dimensions_daily',
  monthlyTable: 'analytics_dimensions_monthly',
  tenDayTable: 'analytics_dimensions_tenday',
  orgRollups: {
    dailyTable: 'analytics_dimensions_org_daily',
    monthlyTable: 'analytics_dimensions_org_monthly',
    tenDayTable: 'analytics_dimensions_org_tenday',
    runningPeaks: { blockTable: 'analytics_dimensions_block_peaks', yearTable: 'analytics_dimensions_year_peaks' },
  },
  resourceColumn: 'analytics_property_id',
  dimensionType: 'AnalyticsDimension',
  dimensions: Object.values(WEB_TABLES),
  labelled: true,
  metrics: WEB_COLUMNS,
  sortBy: 'sessions',
};

// ───────────────────────── search console ─────────────────────────

export interface SiteRow {
  id: string;
  site_url: string;
  timezone: string | null;
}

/** Index: search_console_sites (org_id, client_id). */
export function sitesInReach(reach: Reach): Promise<SiteRow[]> {
  return sql<SiteRow>(
    `SELECT s.id, s.site_url, s.timezone FROM search_console_sites s
      WHERE ${reachCondition('s', 1, 2)}
      ORDER BY s.site_url, s.id`,
    [reach.orgId, reach.clientIds],
  );
}

/**
 * Position is a per-row average, so it is carried as Σ(position × impressions) and Σ impressions
 * of the rows that report a position, and re-averaged from those.
 */
const SEARCH_COLUMNS: MetricColumns = {
  summed: {
    clicks: 't.clicks',
    impressions: 't.impressions',
    positionWeight: 't.position * t.impressions',
    positionImpressions: 'CASE WHEN t.position IS NOT NULL THEN t.impressions END',
  },
  peak: {},
};

export const SEARCH_DAILY: DailySource = { table: 'search_console_daily', resourceColumn: 'search_console_site_id', metrics: SEARCH_COLUMNS };

export const SEARCH_DIMENSIONS: DimensionSource<SearchDimension> = {
  table: 'search_console_dimensions_daily',
  monthlyTable: 'search_console_dimensions_monthly',
  tenDayTable: 'search_console_dimensions_tenday',
  resourceColumn: 'search_console_site_id',
  dimensionType: 'SearchDimension',
  dimensions: Object.values(SEARCH_TABLES),
  labelled: false,
  metrics: SEARCH_COLUMNS,
  sortBy: 'clicks',
};
