// Web analytics properties with daily totals and daily rows per dimension, on the property's own day.
//
// Dimension rows and totals:
//   channel, source, device, country, new_returning partition the day: every additive metric of their
//     rows (users included) sums exactly to analytics_daily. Each source belongs to one channel
//     (detail = channel) and the sources of a channel sum to that channel's row.
//   landing_page (key = path, label = page title) covers part of the day's sessions; organic_landing_page
//     covers part of the "Organic Search" channel row; page (key = path, label = title) reports views,
//     users, events and engagement time only. These three are top lists: their sums stay below the totals.
//   event (key = label = event name, detail "key event" for key events) partitions event_count exactly;
//     total_users is per event, key_events only on key events, total_revenue only on "purchase".
//   country: key = ISO 3166-1 alpha-2, label = English name. new_returning: key "new" / "returning".
// A metric null in the totals is null in every dimension row. Nulls: properties without e-commerce report
// no revenue, transactions or purchases; one property in four reports key events only from 30% into the
// range; one in five does not report session_duration_weighted. The first organisation's last property
// was connected late: its data starts 70% into the range. Rows with nothing to report are left out.
import type { Calendar } from './calendar';
import { CHANNELS, COUNTRIES, countryWeights, EVENTS, SITE_PAGES, WEB_DEVICES } from './catalog';
import type { Row, SourceTables } from './copy';
import { clientOf, type OrgModel, type SeedContext } from './context';
import { money, splitNullable } from './numbers';
import type { Rng } from './random';

// Metric positions in a totals vector (the column order of both tables).
const M = {
  sessions: 0,
  totalUsers: 1,
  activeUsers: 2,
  newUsers: 3,
  engagedSessions: 4,
  screenPageViews: 5,
  eventCount: 6,
  keyEvents: 7,
  totalRevenue: 8,
  purchaseRevenue: 9,
  transactions: 10,
  ecommercePurchases: 11,
  userEngagementDuration: 12,
  /** Held in hundredths of a second so that it splits exactly. */
  sessionDurationWeighted: 13,
} as const;
const METRIC_COLUMNS = [
  'sessions', 'total_users', 'active_users', 'new_users', 'engaged_sessions', 'screen_page_views', 'event_count',
  'key_events', 'total_revenue', 'purchase_revenue', 'transactions', 'ecommerce_purchases', 'user_engagement_duration',
  'session_duration_weighted',
];
const METRIC_COUNT = METRIC_COLUMNS.length;
/** Metrics that follow conversions rather than traffic when split by channel or device. */
const CONVERSION_METRICS: ReadonlySet<number> = new Set([M.keyEvents, M.totalRevenue, M.purchaseRevenue, M.transactions, M.ecommercePurchases]);
const PAGE_METRICS: ReadonlySet<number> = new Set([M.totalUsers, M.activeUsers, M.screenPageViews, M.eventCount, M.userEngagementDuration]);

type Metrics = (number | null)[];

const ZONES = [
  { timezone: 'America/New_York', currency: 'USD', country: 'US' },
  { timezone: 'Asia/Kolkata', currency: 'INR', country: 'IN' },
  { timezone: 'Europe/London', currency: 'GBP', country: 'GB' },
] as const;

export interface PropertyModel {
  id: string;
  org: OrgModel;
  clientId: string;
  propertyId: string;
  name: string;
  timezone: string;
  currency: string;
  createdAt: string;
  startDay: number;
  ecommerce: boolean;
  keyEventsFrom: number;
  reportsDuration: boolean;
  homeCountry: string;
  baseSessions: number;
}

export function buildProperties(ctx: SeedContext, org: OrgModel): PropertyModel[] {
  const rng = org.rng.fork('analytics');
  const cal = ctx.calendar;
  const count = org.shape.properties;
  return Array.from({ length: count }, (_, i) => {
    const prng = rng.fork(`property/${i}`);
    const client = clientOf(org, i);
    const zone = ZONES[i % ZONES.length] as (typeof ZONES)[number];
    const lateStart = org.index === 0 && i === count - 1;
    return {
      id: org.ids.uuid('analytics_property'),
      org,
      clientId: client.id,
      propertyId: org.ids.platformId('ga_property', 9),
      name: i >= org.clients.length ? `${client.name} – Blog` : `${client.name} – Website`,
      timezone: zone.timezone,
      currency: zone.currency,
      createdAt: cal.istTime(lateStart ? Math.floor(cal.days * 0.7) : -prng.int(5, 30), prng.float(9, 19)),
      startDay: lateStart ? Math.floor(cal.days * 0.7) : 0,
      ecommerce: i % 2 === 0,
      keyEventsFrom: i % 4 === 1 ? Math.floor(cal.days * 0.3) : 0,
      reportsDuration: i % 5 !== 3,
      homeCountry: zone.country,
      baseSessions: prng.int(150, 6000),
    };
  });
}

function dayTotals(p: PropertyModel, cal: Calendar, d: number, rng: Rng): Metrics {
  const weekly = [0.82, 1.06, 1.08, 1.07, 1.04, 0.98, 0.85][cal.weekday(d)] ?? 1;
  const sessions = Math.round(p.baseSessions * weekly * (0.85 + (0.3 * d) / cal.days) * rng.noise(0.12));
  const totalUsers = Math.round(sessions * rng.float(0.72, 0.85));
  const engagedSessions = Math.round(sessions * rng.float(0.5, 0.7));
  const screenPageViews = Math.round(sessions * rng.float(1.8, 3.2));
  const transactions = p.ecommerce ? Math.round(sessions * rng.float(0.008, 0.025)) : null;
  const leads = Math.round(sessions * (p.ecommerce ? rng.float(0.002, 0.006) : rng.float(0.01, 0.03)));
  const orderValue = p.currency === 'INR' ? rng.float(1500, 3500) : rng.float(40, 110);
  const revenue = transactions === null ? null : Math.round(transactions * orderValue * 100);
  const m: Metrics = new Array(METRIC_COUNT).fill(null);
  m[M.sessions] = sessions;
  m[M.totalUsers] = totalUsers;
  m[M.activeUsers] = Math.round(totalUsers * rng.float(0.95, 0.99));
  m[M.newUsers] = Math.round(totalUsers * rng.float(0.55, 0.75));
  m[M.engagedSessions] = engagedSessions;
  m[M.screenPageViews] = screenPageViews;
  m[M.eventCount] = Math.round(screenPageViews * rng.float(2.6, 3.4));
  m[M.keyEvents] = d >= p.keyEventsFrom ? leads + (transactions ?? 0) : null;
  m[M.totalRevenue] = revenue;
  m[M.purchaseRevenue] = revenue;
  m[M.transactions] = transactions;
  m[M.ecommercePurchases] = transactions;
  m[M.userEngagementDuration] = Math.round(engagedSessions * rng.float(45, 140));
  m[M.sessionDurationWeighted] = p.reportsDuration ? Math.round(sessions * rng.float(70, 220) * 100) : null;
  return m;
}

/**
 * Splits every metric of `totals` over keys: traffic metrics by `weights`, conversion metrics by
 * `conversionWeights`. With `keep`, only those metrics are reported (the others are null).
 */
function split(totals: Metrics, weights: readonly number[], conversionWeights = weights, keep?: ReadonlySet<number>): Metrics[] {
  const parts: Metrics[] = weights.map(() => new Array(METRIC_COUNT).fill(null));
  for (let m = 0; m < METRIC_COUNT; m++) {
    if (keep && !keep.has(m)) continue;
    const values = splitNullable(totals[m] ?? null, CONVERSION_METRICS.has(m) ? conversionWeights : weights);
    values.forEach((v, k) => ((parts[k] as Metrics)[m] = v));
  }
  return parts;
}

/** Top-list rows: the keys' share of the whole, the rest (`other`) is not reported. */
function topList(totals: Metrics, weights: readonly number[], other: number, keep?: ReadonlySet<number>): Metrics[] {
  const withOther = [...weights, other];
  return split(totals, withOther, withOther, keep).slice(0, weights.length);
}

function formatMetrics(m: Metrics): (string | number | null)[] {
  return m.map((v, i) => {
    if (v === null) return null;
    if (i === M.totalRevenue || i === M.purchaseRevenue) return money(v);
    if (i === M.sessionDurationWeighted) return v / 100;
    return v;
  });
}

const reportsSomething = (m: Metrics) => m.some((v) => v !== null && v !== 0);

/** The property's daily totals, from their own stream so that both tables can replay them. */
function* propertyDays(p: PropertyModel, cal: Calendar): Generator<{ d: number; totals: Metrics }> {
  const rng = p.org.rng.fork(`analytics-totals/${p.id}`);
  for (let d = p.startDay; d < cal.days; d++) yield { d, totals: dayTotals(p, cal, d, rng) };
}

function* dimensionRows(p: PropertyModel, cal: Calendar): Generator<Row> {
  const rng = p.org.rng.fork(`analytics-dimensions/${p.id}`);
  const channelBias = CHANNELS.map(() => rng.noise(0.3));
  const sourceBias = CHANNELS.map((c) => c.sources.map(() => rng.noise(0.4)));
  const homeWeights = countryWeights(p.homeCountry);
  const events = EVENTS.filter((e) => p.ecommerce || !['view_item', 'add_to_cart', 'begin_checkout', 'purchase'].includes(e.name));
  const organicIndex = CHANNELS.findIndex((c) => c.channel === 'Organic Search');

  for (const { d, totals } of propertyDays(p, cal)) {
    const date = cal.date(d);
    const row = (dimension: string, key: string, label: string, detail: string | null, m: Metrics): Row | null =>
      reportsSomething(m) ? [p.id, dimension, date, key, label, detail, ...formatMetrics(m)] : null;
    const out: (Row | null)[] = [];

    const channelRows = split(
      totals,
      CHANNELS.map((c, i) => c.weight * (channelBias[i] ?? 1) * rng.noise(0.1)),
      CHANNELS.map((c, i) => c.conversion * (channelBias[i] ?? 1) * rng.noise(0.2)),
    );
    CHANNELS.forEach((c, i) => {
      const channelTotals = channelRows[i] as Metrics;
      out.push(row('channel', c.channel, c.channel, null, channelTotals));
      const sources = split(channelTotals, c.sources.map((_, s) => sourceBias[i]?.[s] ?? 1));
      c.sources.forEach((source, s) => out.push(row('source', source, source, c.channel, sources[s] as Metrics)));
    });

    topList(totals, SITE_PAGES.map((pg) => pg.weight * rng.noise(0.15)), 0.25).forEach((m, i) => {
      const page = SITE_PAGES[i];
      if (page) out.push(row('landing_page', page.path, page.title, null, m));
    });
    const organic = channelRows[organicIndex] as Metrics;
    topList(organic, SITE_PAGES.map((pg) => pg.organic * rng.noise(0.15)), 0.15).forEach((m, i) => {
      const page = SITE_PAGES[i];
      if (page && page.organic > 0) out.push(row('organic_landing_page', page.path, page.title, null, m));
    });
    topList(totals, SITE_PAGES.map((pg) => pg.weight * rng.noise(0.15)), 0.15, PAGE_METRICS).forEach((m, i) => {
      const page = SITE_PAGES[i];
      if (page) out.push(row('page', page.path, page.title, null, m));
    });

    const eventCounts = splitNullable(totals[M.eventCount] ?? null, events.map((e) => e.weight * rng.noise(0.1)));
    const keyEvents = totals[M.keyEvents] ?? null;
    const purchases = p.ecommerce && keyEvents !== null ? (totals[M.transactions] ?? 0) : 0;
    events.forEach((e, i) => {
      const m: Metrics = new Array(METRIC_COUNT).fill(null);
      m[M.eventCount] = eventCounts[i] ?? null;
      m[M.totalUsers] = Math.min(totals[M.totalUsers] ?? 0, Math.round((totals[M.totalUsers] ?? 0) * e.userShare * rng.noise(0.05)));
      if (e.key && keyEvents !== null) m[M.keyEvents] = e.name === 'purchase' ? purchases : keyEvents - purchases;
      if (e.name === 'purchase') m[M.totalRevenue] = totals[M.totalRevenue] ?? null;
      out.push(row('event', e.name, e.name, e.key ? 'key event' : null, m));
    });

    split(totals, WEB_DEVICES.map((w) => w.weight * rng.noise(0.08)), [0.45, 0.5, 0.05]).forEach((m, i) => {
      const device = WEB_DEVICES[i];
      if (device) out.push(row('device', device.key, device.label, null, m));
    });
    split(totals, homeWeights.map((w) => w * rng.noise(0.15))).forEach((m, i) => {
      const country = COUNTRIES[i];
      if (country) out.push(row('country', country.iso2, country.name, null, m));
    });

    // New users are all in "new"; other metrics lean towards returning visitors, who come back more often.
    const users = totals[M.totalUsers] ?? 0;
    const newUsers = totals[M.newUsers] ?? 0;
    const byUsers = split(totals, [newUsers, users - newUsers]);
    const byVisits = split(totals, [newUsers * 0.9, (users - newUsers) * 1.2]);
    const newReturning = byVisits.map((m, k) => {
      const part = m.slice();
      part[M.totalUsers] = byUsers[k]?.[M.totalUsers] ?? null;
      part[M.activeUsers] = byUsers[k]?.[M.activeUsers] ?? null;
      part[M.newUsers] = k === 0 ? newUsers : 0;
      return part;
    });
    out.push(row('new_returning', 'new', 'New', null, newReturning[0] as Metrics));
    out.push(row('new_returning', 'returning', 'Returning', null, newReturning[1] as Metrics));

    for (const r of out) if (r) yield r;
  }
}

export function analyticsTables(ctx: SeedContext, properties: readonly PropertyModel[]): SourceTables {
  const cal = ctx.calendar;
  const days = properties.reduce((n, p) => n + cal.days - p.startDay, 0);
  return {
    entities: [
      {
        table: 'analytics_properties',
        columns: ['id', 'org_id', 'client_id', 'property_id', 'name', 'timezone', 'currency', 'created_at'],
        expectedRows: properties.length,
        rows: () => properties.map((p) => [p.id, p.org.id, p.clientId, p.propertyId, p.name, p.timezone, p.currency, p.createdAt]),
      },
    ],
    facts: [
      {
        table: 'analytics_daily',
        columns: ['analytics_property_id', 'date', ...METRIC_COLUMNS],
        expectedRows: days,
        rows: function* () {
          for (const p of properties) for (const { d, totals } of propertyDays(p, cal)) yield [p.id, cal.date(d), ...formatMetrics(totals)];
        },
      },
      {
        table: 'analytics_dimensions_daily',
        columns: ['analytics_property_id', 'dimension', 'date', 'key', 'label', 'detail', ...METRIC_COLUMNS],
        // An upper bound: about 80 keys a day, fewer on quiet days.
        expectedRows: days * 80,
        rows: function* () {
          for (const p of properties) yield* dimensionRows(p, cal);
        },
      },
    ],
  };
}
