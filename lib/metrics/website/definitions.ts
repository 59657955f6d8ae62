// The web-analytics and search-console metric sets: the response's tables, every metric's definition
// and how every rate is derived from the range's sums (the columns they are summed from are in
// repository.ts). Definitions are written once here and feed the response schemas, the operation
// descriptions and describe_metrics (the team's MetricDefinition shape, plain data).
import { metric } from '../definitions';
import type { Sums } from '../dimension-tables/repository';
import { ratio } from '../ratios';

// ───────────────────────── web analytics ─────────────────────────

/** Response table name → dimension of `analytics_dimensions_daily`, in the spec's order. */
export const WEB_TABLES = {
  channels: 'channel',
  sources: 'source',
  landingPages: 'landing_page',
  organicLandingPages: 'organic_landing_page',
  pages: 'page',
  events: 'event',
  devices: 'device',
  countries: 'country',
  newReturning: 'new_returning',
} as const;

export type WebDimension = (typeof WEB_TABLES)[keyof typeof WEB_TABLES];

const SUMMED = 'Summed over days and properties.';
const REPORTED = 'when no row of the range reported it.';
const PEOPLE =
  "A count of people, which does not add up over days: each property's peak single-day value in the range, summed over the properties (for one property, its peak day); a lower bound of the unique count, never a sum over days.";
const DERIVED = "Derived from the range's sums (never averaged from daily rates).";
const NO_DENOMINATOR = 'when its denominator is 0 or not reported, or its numerator is not reported.';
const MONEY_UNIT = '`currency` (mixed when `currency` is null, see the currency note)';

/** Every field of the web-analytics metric set, in the spec's order. */
export const WEB_METRICS = [
  metric('sessions', { kind: 'count', unit: 'sessions', definition: 'Sessions.', aggregation: SUMMED, whenNull: REPORTED }),
  metric('totalUsers', { kind: 'count', unit: 'people', definition: 'Total users.', aggregation: PEOPLE, whenNull: REPORTED }),
  metric('activeUsers', { kind: 'count', unit: 'people', definition: 'Active (engaged) users.', aggregation: PEOPLE, whenNull: REPORTED }),
  metric('newUsers', { kind: 'count', unit: 'people', definition: 'First-time users.', aggregation: `${SUMMED} (each person is new once).`, whenNull: REPORTED }),
  metric('engagedSessions', { kind: 'count', unit: 'sessions', definition: 'Engaged sessions.', aggregation: SUMMED, whenNull: REPORTED }),
  metric('screenPageViews', { kind: 'count', unit: 'views', definition: 'Screen and page views.', aggregation: SUMMED, whenNull: REPORTED }),
  metric('eventCount', { kind: 'count', unit: 'events', definition: 'Events.', aggregation: SUMMED, whenNull: REPORTED }),
  metric('keyEvents', { kind: 'count', unit: 'key events', definition: 'Key events (conversions).', aggregation: SUMMED, whenNull: REPORTED }),
  metric('totalRevenue', { kind: 'amount', unit: MONEY_UNIT, definition: 'Total revenue.', aggregation: `${SUMMED} Exact decimal sum.`, whenNull: REPORTED }),
  metric('purchaseRevenue', { kind: 'amount', unit: MONEY_UNIT, definition: 'Purchase revenue.', aggregation: `${SUMMED} Exact decimal sum.`, whenNull: REPORTED }),
  metric('transactions', { kind: 'count', unit: 'transactions', definition: 'Transactions.', aggregation: SUMMED, whenNull: REPORTED }),
  metric('ecommercePurchases', { kind: 'count', unit: 'purchases', definition: 'E-commerce purchases.', aggregation: SUMMED, whenNull: REPORTED }),
  metric('userEngagementDuration', { kind: 'count', unit: 'seconds', definition: 'Time users were engaged.', aggregation: SUMMED, whenNull: REPORTED }),
  metric('sessionDurationWeighted', {
    kind: 'count',
    unit: 'seconds',
    definition: 'Sum of session durations (a day\'s average session duration × its sessions), kept so that averages can be re-derived.',
    aggregation: SUMMED,
    whenNull: REPORTED,
  }),
  metric('engagementRate', { kind: 'ratio', unit: 'percent (0–100)', definition: '100 × engagedSessions / sessions.', aggregation: DERIVED, whenNull: NO_DENOMINATOR }),
  metric('bounceRate', { kind: 'ratio', unit: 'percent (0–100)', definition: '100 − engagementRate.', aggregation: DERIVED, whenNull: 'when engagementRate is null.' }),
  metric('averageSessionDuration', { kind: 'ratio', unit: 'seconds', definition: 'sessionDurationWeighted / sessions.', aggregation: DERIVED, whenNull: NO_DENOMINATOR }),
  metric('sessionsPerUser', {
    kind: 'ratio',
    unit: 'sessions per user per day',
    definition: 'sessions / Σ daily activeUsers (the platform defines it per active user; the daily values are summed, as for every rate over a people count).',
    aggregation: DERIVED,
    whenNull: NO_DENOMINATOR,
  }),
  metric('screenPageViewsPerSession', { kind: 'ratio', unit: 'views per session', definition: 'screenPageViews / sessions.', aggregation: DERIVED, whenNull: NO_DENOMINATOR }),
  metric('eventCountPerUser', { kind: 'ratio', unit: 'events per user per day', definition: 'eventCount / Σ daily activeUsers.', aggregation: DERIVED, whenNull: NO_DENOMINATOR }),
  metric('conversionRate', {
    kind: 'ratio',
    unit: 'percent',
    definition: '100 × keyEvents / sessions: key events per 100 sessions (above 100 when sessions trigger several key events).',
    aggregation: DERIVED,
    whenNull: NO_DENOMINATOR,
  }),
  metric('revenuePerSession', { kind: 'ratio', unit: MONEY_UNIT, definition: 'totalRevenue / sessions.', aggregation: DERIVED, whenNull: NO_DENOMINATOR }),
] as const;

export type WebMetricSet = Record<(typeof WEB_METRICS)[number]['name'], number | null>;

/** The metric set of a range from its sums; each rate follows its definition above (null when its denominator is 0 or not reported). */
export function webMetricSet(sums: Sums): WebMetricSet {
  const sessions = sums.sessions ?? null;
  const activeUserDays = sums.activeUsersDays ?? null;
  const engagementRate = ratio(sums.engagedSessions, sessions, 100);
  return {
    sessions,
    totalUsers: sums.totalUsers ?? null,
    activeUsers: sums.activeUsers ?? null,
    newUsers: sums.newUsers ?? null,
    engagedSessions: sums.engagedSessions ?? null,
    screenPageViews: sums.screenPageViews ?? null,
    eventCount: sums.eventCount ?? null,
    keyEvents: sums.keyEvents ?? null,
    totalRevenue: sums.totalRevenue ?? null,
    purchaseRevenue: sums.purchaseRevenue ?? null,
    transactions: sums.transactions ?? null,
    ecommercePurchases: sums.ecommercePurchases ?? null,
    userEngagementDuration: sums.userEngagementDuration ?? null,
    sessionDurationWeighted: sums.sessionDurationWeighted ?? null,
    engagementRate,
    bounceRate: engagementRate === null ? null : 100 - engagementRate,
    averageSessionDuration: ratio(sums.sessionDurationWeighted, sessions),
    sessionsPerUser: ratio(sessions, activeUserDays),
    screenPageViewsPerSession: ratio(sums.screenPageViews, sessions),
    eventCountPerUser: ratio(sums.eventCount, activeUserDays),
    conversionRate: ratio(sums.keyEvents, sessions, 100),
    revenuePerSession: ratio(sums.totalRevenue, sessions),
  };
}

export const WEB_DAY_FIELDS = ['sessions', 'totalUsers', 'newUsers', 'engagedSessions', 'keyEvents', 'totalRevenue'] as const;

// ───────────────────────── search console ─────────────────────────

/** Response table name → dimension of `search_console_dimensions_daily`. */
export const SEARCH_TABLES = {
  queries: 'query',
  pages: 'page',
  countries: 'country',
  devices: 'device',
  searchAppearances: 'search_appearance',
} as const;

export type SearchDimension = (typeof SEARCH_TABLES)[keyof typeof SEARCH_TABLES];

export const SEARCH_METRICS = [
  metric('clicks', { kind: 'count', unit: 'clicks', definition: 'Clicks from search results.', aggregation: 'Summed over days and sites.', whenNull: REPORTED }),
  metric('impressions', { kind: 'count', unit: 'impressions', definition: 'Impressions in search results.', aggregation: 'Summed over days and sites.', whenNull: REPORTED }),
  metric('ctr', { kind: 'ratio', unit: 'percent (0–100), like the ads `ctr`', definition: '100 × clicks / impressions.', aggregation: DERIVED, whenNull: NO_DENOMINATOR }),
  metric('position', {
    kind: 'ratio',
    unit: 'rank (1 = top)',
    definition: "Average position weighted by impressions: Σ(row's average position × impressions) / Σ impressions, over the rows that report a position.",
    aggregation: DERIVED,
    whenNull: 'when no row with impressions reported a position.',
  }),
] as const;

export type SearchMetricSet = Record<(typeof SEARCH_METRICS)[number]['name'], number | null>;

export function searchMetricSet(sums: Sums): SearchMetricSet {
  const clicks = sums.clicks ?? null;
  const impressions = sums.impressions ?? null;
  return {
    clicks,
    impressions,
    ctr: ratio(clicks, impressions, 100),
    position: ratio(sums.positionWeight, sums.positionImpressions),
  };
}
