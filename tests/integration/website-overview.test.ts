// /website/overview against an organisation of its own (properties in two clients and none, two
// currencies, a gap, label changes, ties) with every expected figure computed here from the fixture
// rows; the seeded organisations check isolation.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { websiteOverviewOperation } from '@/lib/metrics/website/operations';
import { api, mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import { approx, bucketSums, MID_WEEK_BUCKETS, createOrg, floatFigure, inRange, insertRows, latest, peak, random, rankedKeys, rate, recordSync, series, total, type Row } from './website-fixtures';
import { eachDay } from '@/lib/time/days';

interface Property {
  id: string;
  name: string;
  clientId: string | null;
  currency: string;
  timezone: string;
  days: string[];
}

const TABLES = {
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

const CHANNELS = ['Organic Search', 'Paid Social', 'Direct', 'Email', 'Referral'];
const PAGES = [
  ['/', 'Home'],
  ['/shop', 'Shop'],
  ['/sale', 'Sale'],
  ['/about', 'About us'],
] as const;

/** In byte order. */
const EVENT_TIES = ['Alpha_2', 'Zeta', '_first', 'alpha'];

let org: Awaited<ReturnType<typeof createOrg>>;
let properties: Property[];
let daily: Row[];
let dimensions: Row[];
let key: string;

function dailyRow(rng: () => number, property: Property, date: string): Row {
  const sessions = 50 + Math.floor(rng() * 200);
  return {
    analytics_property_id: property.id,
    date,
    sessions,
    total_users: Math.floor(sessions * 0.8),
    active_users: Math.floor(sessions * 0.7),
    new_users: Math.floor(sessions * 0.3),
    engaged_sessions: Math.floor(sessions * (0.4 + rng() * 0.3)),
    screen_page_views: sessions * 3,
    event_count: sessions * 7,
    key_events: rng() < 0.1 ? null : Math.floor(rng() * 12),
    total_revenue: Math.round(rng() * 100_000) / 100,
    purchase_revenue: property.currency === 'USD' ? null : Math.round(rng() * 50_000) / 100,
    transactions: property.name === 'Delta' ? null : Math.floor(rng() * 9),
    ecommerce_purchases: Math.floor(rng() * 9),
    user_engagement_duration: sessions * 40,
    session_duration_weighted: sessions * (60 + rng() * 30),
  };
}

function dimensionRow(rng: () => number, property: Property, date: string, dimension: string, key: string, label: string, detail: string | null, sessions: number | null): Row {
  return {
    analytics_property_id: property.id,
    dimension,
    date,
    key,
    label,
    detail,
    sessions,
    total_users: sessions === null ? null : Math.floor(sessions * 0.8),
    active_users: sessions === null ? null : Math.floor(sessions * 0.7),
    new_users: sessions === null ? null : Math.floor(sessions * 0.2),
    engaged_sessions: sessions === null ? null : Math.floor(sessions * 0.5),
    screen_page_views: sessions === null ? null : sessions * 2,
    event_count: sessions === null ? null : sessions * 5,
    key_events: rng() < 0.2 ? null : Math.floor(rng() * 4),
    total_revenue: Math.round(rng() * 10_000) / 100,
    purchase_revenue: null,
    transactions: Math.floor(rng() * 3),
    ecommerce_purchases: null,
    user_engagement_duration: sessions === null ? null : sessions * 30,
    session_duration_weighted: sessions === null ? null : sessions * (50 + rng() * 20),
  };
}

function dimensionRowsFor(rng: () => number, property: Property, date: string): Row[] {
  const rows: Row[] = [];
  for (const channel of CHANNELS) {
    if (rng() < 0.15) continue; // keys are missing on some days
    const label = channel === 'Paid Social' && date >= '2024-03-20' ? 'Paid social (Meta)' : channel;
    rows.push(dimensionRow(rng, property, date, 'channel', channel, label, null, 5 + Math.floor(rng() * 60)));
  }
  // Only before 2024: listed in no 2024 range, present in their compare ranges.
  if (date < '2024-01-01') rows.push(dimensionRow(rng, property, date, 'channel', 'Legacy', 'Legacy', null, 30));
  // Only from 2024-03-15: no rows in any compare range of March.
  if (date >= '2024-03-15') rows.push(dimensionRow(rng, property, date, 'channel', 'Launch', 'Launch', null, 8));
  for (const [path, title] of PAGES) {
    if (rng() < 0.1) continue;
    const detail = path === '/sale' ? null : date >= '2024-03-25' ? `${title} – new` : title;
    rows.push(dimensionRow(rng, property, date, 'page', path, path, detail, 3 + Math.floor(rng() * 40)));
  }
  // Ties: equal sessions every day, ranked by key; and a key that never reports sessions.
  rows.push(dimensionRow(rng, property, date, 'device', 'tv', 'TV', null, 2));
  rows.push(dimensionRow(rng, property, date, 'device', 'tablet', 'Tablet', null, 2));
  rows.push(dimensionRow(rng, property, date, 'device', 'mobile', 'Mobile', null, 20 + Math.floor(rng() * 10)));
  rows.push(dimensionRow(rng, property, date, 'device', 'unknown', '(not set)', null, null));
  rows.push(dimensionRow(rng, property, date, 'new_returning', 'new', 'New', null, 10 + Math.floor(rng() * 10)));
  rows.push(dimensionRow(rng, property, date, 'new_returning', 'returning', 'Returning', null, 10 + Math.floor(rng() * 10)));
  // Countries rank the other way round from March 2024: the March leader is the last of five in February.
  const countrySessions: Array<[string, number, number]> = [['DE', 50, 5], ['FR', 40, 4], ['ES', 30, 3], ['IT', 20, 2], ['PT', 10, 60]];
  for (const [country, before, from] of countrySessions) {
    rows.push(dimensionRow(rng, property, date, 'country', country, country, null, date < '2024-03-01' ? before : from));
  }
  // Events: four keys tied on sessions every day, whose byte order ('A' < 'Z' < '_' < 'a') is not their
  // dictionary order; and 'retired', far ahead of them before March 2024 and last from then on.
  for (const event of EVENT_TIES) rows.push(dimensionRow(rng, property, date, 'event', event, event, null, 4));
  rows.push(dimensionRow(rng, property, date, 'event', 'retired', 'retired', null, date < '2024-03-01' ? 1000 : 1));
  return rows;
}

async function insertProperty(property: Omit<Property, 'id'>, orgId: string): Promise<Property> {
  const id = randomUUID();
  await sql(
    `INSERT INTO analytics_properties (id, org_id, client_id, property_id, name, timezone, currency)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, orgId, property.clientId, `properties/${id.slice(0, 8)}`, property.name, property.timezone, property.currency],
  );
  return { ...property, id };
}

beforeAll(async () => {
  org = await createOrg('web-fixture');
  const allDays = eachDay('2023-01-01', '2024-04-10');
  properties = [
    await insertProperty({ name: 'Alpha', clientId: org.clientA, currency: 'EUR', timezone: 'Europe/Berlin', days: allDays }, org.orgId),
    // A gap on 2024-01-15: ranges over it are partial.
    await insertProperty({ name: 'Beta', clientId: org.clientA, currency: 'EUR', timezone: 'America/New_York', days: allDays.filter((d) => d !== '2024-01-15') }, org.orgId),
    await insertProperty({ name: 'Gamma', clientId: org.clientB, currency: 'USD', timezone: 'Asia/Tokyo', days: eachDay('2024-02-01', '2024-04-10') }, org.orgId),
    await insertProperty({ name: 'Delta', clientId: null, currency: 'EUR', timezone: 'Europe/London', days: eachDay('2024-03-01', '2024-03-31') }, org.orgId),
  ];
  const rng = random(42);
  daily = properties.flatMap((property) => property.days.map((date) => dailyRow(rng, property, date)));
  dimensions = properties.flatMap((property) => property.days.flatMap((date) => dimensionRowsFor(rng, property, date)));
  await insertRows('analytics_daily', daily);
  await insertRows('analytics_dimensions_daily', dimensions);
  const [alpha, beta, gamma] = properties as [Property, Property, Property, Property];
  await recordSync(org.orgId, 'analytics', alpha.id, '2024-04-11T02:00:00.000Z');
  await recordSync(org.orgId, 'analytics', alpha.id, '2024-04-10T02:00:00.000Z');
  await recordSync(org.orgId, 'analytics', beta.id, '2024-04-11T01:00:00.000Z');
  await recordSync(org.orgId, 'analytics', beta.id, '2024-04-11T05:00:00.000Z', 'failed');
  await recordSync(org.orgId, 'analytics', gamma.id, '2024-04-10T23:00:00.000Z');
  // Delta never synced successfully.
  key = await mintKey({ orgId: org.orgId, scopes: ['web:read'] });
});

// ───────────────────────── the expected response, computed from the fixture rows ─────────────────────────

function webSet(rows: Row[]) {
  const sessions = total(rows, 'sessions');
  const engagementRate = rate(total(rows, 'engaged_sessions'), sessions, 100);
  const activeUserDays = total(rows, 'active_users');
  return {
    sessions,
    totalUsers: peak(rows, 'total_users', 'analytics_property_id'),
    activeUsers: peak(rows, 'active_users', 'analytics_property_id'),
    newUsers: total(rows, 'new_users'),
    engagedSessions: total(rows, 'engaged_sessions'),
    screenPageViews: total(rows, 'screen_page_views'),
    eventCount: total(rows, 'event_count'),
    keyEvents: total(rows, 'key_events'),
    totalRevenue: total(rows, 'total_revenue', true),
    purchaseRevenue: total(rows, 'purchase_revenue', true),
    transactions: total(rows, 'transactions'),
    ecommercePurchases: total(rows, 'ecommerce_purchases'),
    userEngagementDuration: total(rows, 'user_engagement_duration'),
    sessionDurationWeighted: floatFigure(total(rows, 'session_duration_weighted')),
    engagementRate,
    bounceRate: engagementRate === null ? null : 100 - engagementRate,
    averageSessionDuration: floatFigure(rate(total(rows, 'session_duration_weighted'), sessions)),
    sessionsPerUser: rate(sessions, activeUserDays),
    screenPageViewsPerSession: rate(total(rows, 'screen_page_views'), sessions),
    eventCountPerUser: rate(total(rows, 'event_count'), activeUserDays),
    conversionRate: rate(total(rows, 'key_events'), sessions, 100),
    revenuePerSession: rate(total(rows, 'total_revenue', true), sessions),
  };
}

const DAY_POINT = {
  sessions: 'sessions',
  totalUsers: 'total_users',
  newUsers: 'new_users',
  engagedSessions: 'engaged_sessions',
  keyEvents: 'key_events',
  totalRevenue: 'total_revenue',
};

function expectedAnalytics(ids: string[], from: string, to: string, compare: { from: string; to: string } | null, limit: number, rows = { daily, dimensions }) {
  const mine = (row: Row) => ids.includes(row.analytics_property_id as string);
  const current = rows.daily.filter(mine).filter(inRange(from, to));
  const previous = compare ? rows.daily.filter(mine).filter(inRange(compare.from, compare.to)) : null;
  const dimCurrent = rows.dimensions.filter(mine).filter(inRange(from, to));
  const dimPrevious = compare ? rows.dimensions.filter(mine).filter(inRange(compare.from, compare.to)) : null;
  const tables = Object.fromEntries(
    Object.entries(TABLES).map(([name, dimension]) => {
      const tableRows = dimCurrent.filter((row) => row.dimension === dimension);
      return [
        name,
        rankedKeys(tableRows, 'sessions')
          .slice(0, limit)
          .map((rowKey) => {
            const keyRows = tableRows.filter((row) => row.key === rowKey);
            const detail = latest(keyRows, 'detail');
            return {
              key: rowKey,
              label: latest(keyRows, 'label'),
              ...(detail === null ? {} : { detail }),
              totals: webSet(keyRows),
              previous: dimPrevious ? webSet(dimPrevious.filter((row) => row.dimension === dimension && row.key === rowKey)) : null,
            };
          }),
      ];
    }),
  );
  return {
    totals: webSet(current),
    previous: previous && webSet(previous),
    series: series(current, from, to, DAY_POINT, ['totalRevenue']),
    previousSeries: compare ? series(previous!, compare.from, compare.to, DAY_POINT, ['totalRevenue']) : [],
    ...tables,
  };
}

function idsOf(...names: string[]): string[] {
  return properties.filter((p) => names.includes(p.name)).map((p) => p.id);
}

type Overview = { data: { from: string; to: string; compare: unknown; analytics: Record<string, unknown> | null }; meta: Record<string, unknown> };

async function overview(query: string, apiKey = key): Promise<Overview> {
  return expectContract<Overview>(websiteOverviewOperation, await api(`/api/v1/website/overview?${query}`, { key: apiKey }));
}

// ───────────────────────── tests ─────────────────────────

describe('GET /website/overview', () => {
  it('sums one client’s properties over the range and the previous period (default compare and limit)', async () => {
    const body = await overview(`client=${org.clientA}&from=2024-03-01&to=2024-03-31`);
    const compare = { from: '2024-01-30', to: '2024-02-29' };
    expect(body.data.from).toBe('2024-03-01');
    expect(body.data.to).toBe('2024-03-31');
    expect(body.data.compare).toEqual(compare);
    const [alpha, beta] = properties;
    expect(body.data.analytics).toEqual(
      approx({
        properties: [
          { id: alpha!.id, name: 'Alpha', timezone: 'Europe/Berlin', lastSyncedAt: '2024-04-11T02:00:00.000Z' },
          { id: beta!.id, name: 'Beta', timezone: 'America/New_York', lastSyncedAt: '2024-04-11T01:00:00.000Z' },
        ],
        currency: 'EUR',
        ...expectedAnalytics(idsOf('Alpha', 'Beta'), '2024-03-01', '2024-03-31', compare, 25),
        partial: false,
      }),
    );
    // The failed run after Beta's last success does not count; the oldest of the two successes does.
    expect(body.meta).toEqual({ timezone: 'Asia/Kolkata', syncedAt: '2024-04-11T01:00:00.000Z', from: '2024-03-01', to: '2024-03-31', currency: 'EUR' });
  });

  it('adds every property in reach; mixed currencies give a null currency, prevMonth of a leap February', async () => {
    const body = await overview('from=2024-03-01&to=2024-03-31&compare=prevMonth');
    const compare = { from: '2024-02-01', to: '2024-02-29' };
    expect(body.data.compare).toEqual(compare);
    const analytics = body.data.analytics!;
    expect(analytics).toEqual(
      approx({
        properties: expect.any(Array),
        currency: null,
        ...expectedAnalytics(idsOf('Alpha', 'Beta', 'Gamma', 'Delta'), '2024-03-01', '2024-03-31', compare, 25),
        partial: false,
      }),
    );
    expect((analytics.properties as Array<{ name: string; lastSyncedAt: string | null }>).map((p) => [p.name, p.lastSyncedAt])).toEqual([
      ['Alpha', '2024-04-11T02:00:00.000Z'],
      ['Beta', '2024-04-11T01:00:00.000Z'],
      ['Delta', null],
      ['Gamma', '2024-04-10T23:00:00.000Z'],
    ]);
    expect(analytics.previousSeries).toHaveLength(29);
    expect(body.meta.currency).toBeNull();
    // Delta never synced and contributes no freshness; Gamma's is the oldest success.
    expect(body.meta.syncedAt).toBe('2024-04-10T23:00:00.000Z');
  });

  it('lists a key with no rows in the compare range with a previous of nulls, and not a key seen only then', async () => {
    const body = await overview(`client=${org.clientA}&from=2024-03-01&to=2024-03-31&compare=prevMonth`);
    const channels = body.data.analytics!.channels as Array<{ key: string; label: string; previous: Record<string, number | null> }>;
    const launch = channels.find((row) => row.key === 'Launch')!;
    expect(Object.values(launch.previous).every((value) => value === null)).toBe(true);
    expect(channels.some((row) => row.key === 'Legacy')).toBe(false);
    // The label is the latest one of the range.
    expect(channels.find((row) => row.key === 'Paid Social')!.label).toBe('Paid social (Meta)');
    const devices = (body.data.analytics!.devices as Array<{ key: string }>).map((row) => row.key);
    expect(devices).toEqual(['mobile', 'tablet', 'tv', 'unknown']);
  });

  it('gives the compare figures of a listed key that ranked past the first keys of the compare range', async () => {
    // limit=1: the compare statement returns the first 4 countries of February (COMPARED_KEYS_PER_LISTED),
    // not PT, the fifth; its February figures are read by a third statement.
    const compare = { from: '2024-02-01', to: '2024-02-29' };
    const body = await overview('from=2024-03-01&to=2024-03-31&compare=prevMonth&limit=1');
    const expected: Record<string, unknown> = expectedAnalytics(idsOf('Alpha', 'Beta', 'Gamma', 'Delta'), '2024-03-01', '2024-03-31', compare, 1);
    expect(body.data.analytics!.countries).toEqual(approx(expected.countries));
    expect(body.data.analytics!.countries).toMatchObject([{ key: 'PT', previous: { sessions: expect.any(Number) } }]);
  });

  it('ranks keys tied on sessions in byte order, and leaves out a key that led only the compare range', async () => {
    const compare = { from: '2024-02-01', to: '2024-02-29' };
    const ids = idsOf('Alpha', 'Beta', 'Gamma', 'Delta');
    for (const limit of [1, 3]) {
      const body = await overview(`from=2024-03-01&to=2024-03-31&compare=prevMonth&limit=${limit}`);
      const expected: Record<string, unknown> = expectedAnalytics(ids, '2024-03-01', '2024-03-31', compare, limit);
      expect(body.data.analytics!.events).toEqual(approx(expected.events));
      // 'retired' had the most sessions of February by far, but is not listed for March.
      expect((body.data.analytics!.events as Array<{ key: string }>).map((row) => row.key)).toEqual(EVENT_TIES.slice(0, limit));
    }
  });

  it('lists every key of a dimension with fewer keys than the limit, each with its compare figures', async () => {
    const compare = { from: '2024-02-01', to: '2024-02-29' };
    const body = await overview('from=2024-03-01&to=2024-03-31&compare=prevMonth&limit=100');
    const expected: Record<string, unknown> = expectedAnalytics(idsOf('Alpha', 'Beta', 'Gamma', 'Delta'), '2024-03-01', '2024-03-31', compare, 100);
    const events = body.data.analytics!.events as Array<{ key: string; totals: { sessions: number }; previous: { sessions: number } }>;
    expect(events).toEqual(approx(expected.events));
    expect(events.map((row) => row.key)).toEqual([...EVENT_TIES, 'retired']);
    const retired = events.at(-1)!;
    expect(retired.previous.sessions).toBeGreaterThan(retired.totals.sessions * 100);
  });

  it.each([
    ['2024-03-31', '2024-03-31', { from: '2024-02-29', to: '2024-02-29' }],
    ['2024-03-30', '2024-03-31', { from: '2024-02-29', to: '2024-02-29' }],
    ['2024-03-15', '2024-04-10', { from: '2024-02-15', to: '2024-03-10' }],
  ])('prevMonth of %s…%s compares %o', async (from, to, compare) => {
    const body = await overview(`from=${from}&to=${to}&compare=prevMonth&limit=3`);
    expect(body.data.compare).toEqual(compare);
    expect(body.data.analytics).toEqual(
      approx({
        properties: expect.any(Array),
        currency: null,
        ...expectedAnalytics(idsOf('Alpha', 'Beta', 'Gamma', 'Delta'), from, to, compare, 3),
        partial: to > '2024-03-31', // Delta's rows stop at the end of March
      }),
    );
  });

  it.each([
    ['2024-02-29', '2024-02-29', { from: '2023-02-28', to: '2023-02-28' }],
    ['2024-02-01', '2024-02-29', { from: '2023-02-01', to: '2023-02-28' }],
  ])('prevYear of %s…%s compares %o', async (from, to, compare) => {
    const body = await overview(`client=${org.clientA}&from=${from}&to=${to}&compare=prevYear`);
    expect(body.data.compare).toEqual(compare);
    const analytics = body.data.analytics!;
    expect(analytics).toEqual(
      approx({
        properties: expect.any(Array),
        currency: 'EUR',
        ...expectedAnalytics(idsOf('Alpha', 'Beta'), from, to, compare, 25),
        partial: false,
      }),
    );
    // Legacy had rows only in 2023: absent from the 2024 table although it has a previous.
    expect((analytics.channels as Array<{ key: string }>).map((row) => row.key)).not.toContain('Legacy');
  });

  it('compare=none: null compare, previous and row previous, empty previousSeries', async () => {
    const body = await overview(`client=${org.clientA}&from=2024-03-01&to=2024-03-10&compare=none`);
    expect(body.data.compare).toBeNull();
    const analytics = body.data.analytics!;
    expect(analytics.previous).toBeNull();
    expect(analytics.previousSeries).toEqual([]);
    for (const table of Object.keys(TABLES)) {
      for (const row of analytics[table] as Array<{ previous: unknown }>) expect(row.previous).toBeNull();
    }
    expect(analytics).toEqual(
      approx({ properties: expect.any(Array), currency: 'EUR', ...expectedAnalytics(idsOf('Alpha', 'Beta'), '2024-03-01', '2024-03-10', null, 25), partial: false }),
    );
  });

  it.each([1, 2, 100])('cuts every table to limit=%i', async (limit) => {
    const body = await overview(`client=${org.clientA}&from=2024-03-01&to=2024-03-31&limit=${limit}`);
    const expected = expectedAnalytics(idsOf('Alpha', 'Beta'), '2024-03-01', '2024-03-31', { from: '2024-01-30', to: '2024-02-29' }, limit);
    for (const table of Object.keys(TABLES)) {
      const rows = body.data.analytics![table] as unknown[];
      expect(rows.length).toBeLessThanOrEqual(limit);
      expect(rows).toEqual(approx(expected[table as keyof typeof expected]));
    }
  });

  it('partial: a property missing a day of the range, or a range past the synced days', async () => {
    const gap = await overview(`client=${org.clientA}&from=2024-01-10&to=2024-01-20&compare=none`);
    expect(gap.data.analytics!.partial).toBe(true);
    const covered = await overview(`client=${org.clientA}&from=2024-01-16&to=2024-02-20&compare=none`);
    expect(covered.data.analytics!.partial).toBe(false);
    // The compare range (which holds the gap) is not checked.
    const compareOverGap = await overview(`client=${org.clientA}&from=2024-02-10&to=2024-02-20&compare=prevMonth`);
    expect(compareOverGap.data.analytics!.partial).toBe(false);
    const future = await overview(`client=${org.clientA}&from=2024-04-01&to=2024-04-20&compare=none`);
    expect(future.data.analytics!.partial).toBe(true);
    expect((future.data.analytics!.series as Array<{ sessions: number | null }>).slice(10).every((day) => day.sessions === null)).toBe(true);
  });

  it('a property with no rows at all in the range: figures null, partial, still listed', async () => {
    const body = await overview(`client=${org.clientB}&from=2023-06-01&to=2023-06-30`);
    const analytics = body.data.analytics!;
    expect((analytics.properties as Array<{ name: string }>).map((p) => p.name)).toEqual(['Gamma']);
    expect(analytics.partial).toBe(true);
    expect(Object.values(analytics.totals as object).every((value) => value === null)).toBe(true);
    expect(analytics.channels).toEqual([]);
    expect(body.meta.currency).toBe('USD');
  });

  it('analytics is null for an organisation without properties', async () => {
    const empty = await createOrg('web-empty');
    const emptyKey = await mintKey({ orgId: empty.orgId, scopes: ['web:read'] });
    const body = await overview('from=2024-03-01&to=2024-03-31', emptyKey);
    expect(body).toEqual({
      data: { from: '2024-03-01', to: '2024-03-31', compare: { from: '2024-01-30', to: '2024-02-29' }, analytics: null },
      meta: { timezone: 'Asia/Kolkata', syncedAt: null, from: '2024-03-01', to: '2024-03-31', currency: null },
    });
    const client = await overview(`from=2024-03-01&to=2024-03-31&client=${empty.clientA}`, emptyKey);
    expect(client.data.analytics).toBeNull();
  });

  it('a key restricted to a client reads only that client’s properties and 404s any other client', async () => {
    const restricted = await mintKey({ orgId: org.orgId, scopes: ['web:read'], clientIds: [org.clientB] });
    const body = await overview('from=2024-03-01&to=2024-03-31', restricted);
    expect((body.data.analytics!.properties as Array<{ name: string }>).map((p) => p.name)).toEqual(['Gamma']);
    expect(body.data.analytics).toEqual(
      approx({
        properties: expect.any(Array),
        currency: 'USD',
        ...expectedAnalytics(idsOf('Gamma'), '2024-03-01', '2024-03-31', { from: '2024-01-30', to: '2024-02-29' }, 25),
        partial: false,
      }),
    );
    await expectProblem(await api(`/api/v1/website/overview?from=2024-03-01&to=2024-03-31&client=${org.clientA}`, { key: restricted }), 404, 'not_found');
  });

  it('never shows another organisation’s properties, and treats its clients as unknown', async () => {
    const [main, other] = inject('seed').orgs;
    const otherKey = await mintKey({ orgId: other!.id, scopes: ['web:read'] });
    const body = await overview('from=2024-03-01&to=2024-03-31', otherKey);
    const ids = ((body.data.analytics?.properties ?? []) as Array<{ id: string }>).map((p) => p.id);
    const owned = await sql<{ id: string }>('SELECT id FROM analytics_properties WHERE org_id = $1', [other!.id]);
    expect(ids.sort()).toEqual(owned.map((row) => row.id).sort());
    expect(ids.some((id) => properties.some((p) => p.id === id))).toBe(false);
    await expectProblem(await api(`/api/v1/website/overview?from=2024-03-01&to=2024-03-31&client=${org.clientA}`, { key: otherKey }), 404, 'not_found');
    const mainKey = await mintKey({ orgId: main!.id, scopes: ['web:read'] });
    const mainBody = await overview('from=2024-03-01&to=2024-03-31', mainKey);
    expect(((mainBody.data.analytics?.properties ?? []) as Array<{ id: string }>).some((p) => properties.some((mine) => mine.id === p.id))).toBe(false);
  });

  it('matches the seeded organisation, every figure computed from its rows', async () => {
    const main = inject('seed').orgs[0]!;
    const seeded = await sql<{ id: string; currency: string | null }>('SELECT id, currency FROM analytics_properties WHERE org_id = $1', [main.id]);
    const ids = seeded.map((property) => property.id);
    expect(ids.length).toBeGreaterThan(0);
    const rowsOf = async (table: string) =>
      (await sql<{ row: Row }>(`SELECT row_to_json(t) AS row FROM ${table} t WHERE analytics_property_id = ANY($1::uuid[])`, [ids])).map((r) => r.row);
    const rows = { daily: await rowsOf('analytics_daily'), dimensions: await rowsOf('analytics_dimensions_daily') };
    const mainKey = await mintKey({ orgId: main.id, scopes: ['web:read'] });
    for (const [query, compare] of [
      ['from=2026-06-01&to=2026-06-30', { from: '2026-05-02', to: '2026-05-31' }],
      ['from=2026-06-01&to=2026-06-30&compare=prevMonth&limit=5', { from: '2026-05-01', to: '2026-05-31' }],
    ] as const) {
      const body = await overview(query, mainKey);
      const limit = query.includes('limit=5') ? 5 : 25;
      const covered = rows.daily.filter(inRange('2026-06-01', '2026-06-30')).length;
      const currencies = new Set(seeded.map((property) => property.currency));
      expect(body.data.compare).toEqual(compare);
      expect(body.data.analytics).toEqual(
        approx({
          properties: expect.any(Array),
          currency: currencies.size === 1 ? [...currencies][0] : null,
          ...expectedAnalytics(ids, '2026-06-01', '2026-06-30', compare, limit, rows),
          partial: covered < ids.length * 30,
        }),
      );
      expect((body.data.analytics!.totals as { sessions: number | null }).sessions).toBeGreaterThan(0);
    }
  });

  it('granularity week and month: each bucket sums its days, takes each property’s peak day of users, and starts at a mid-week from', async () => {
    const { range, weeks, months } = MID_WEEK_BUCKETS;
    const summed = ['sessions', 'newUsers', 'engagedSessions', 'keyEvents', 'totalRevenue'];
    // The whole organisation (read from its daily sums) by week, one client (from its properties' rows) by month.
    for (const [query, ids, buckets, granularity] of [
      [range, idsOf('Alpha', 'Beta', 'Gamma', 'Delta'), weeks, 'week'],
      [`client=${org.clientA}&${range}`, idsOf('Alpha', 'Beta'), months, 'month'],
    ] as const) {
      const byDay = (await overview(query)).data.analytics!;
      const bucketed = await overview(`${query}&granularity=${granularity}`);
      const rows = (from: string, to: string) => daily.filter((row) => ids.includes(row.analytics_property_id as string)).filter(inRange(from, to));
      const expected = (points: Row[], list: ReadonlyArray<readonly [string, string]>) =>
        list.map(([from, to]) => ({ ...bucketSums(points, from, to, summed, ['totalRevenue']), totalUsers: peak(rows(from, to), 'total_users', 'analytics_property_id') }));
      const analytics = bucketed.data.analytics!;
      expect(analytics.series).toEqual(approx(expected(byDay.series as Row[], buckets)));
      // A bucket's users are never the sum of its days: here every bucket's peak is below that sum.
      for (const point of analytics.series as Row[]) {
        expect(point.totalUsers).toBeLessThan(total((byDay.series as Row[]).filter(inRange(point.date as string, buckets.find(([from]) => from === point.date)![1])), 'totalUsers')!);
      }
      // The compare range (the 47 days before) is bucketed on its own, its first bucket dated by its own first day.
      const compare = bucketed.data.compare as { from: string; to: string };
      expect((analytics.previousSeries as Row[])[0]!.date).toBe(compare.from);
      expect(total(analytics.previousSeries as Row[], 'sessions')).toBe(total(byDay.previousSeries as Row[], 'sessions'));
      // Totals, previous and tables do not change with the granularity.
      expect({ ...analytics, series: [], previousSeries: [] }).toEqual({ ...byDay, series: [], previousSeries: [] });
      expect(bucketed.meta).toEqual((await overview(query)).meta);
    }
  });

  it('401 without a key, 403 without web:read', async () => {
    await expectProblem(await api('/api/v1/website/overview?from=2024-03-01&to=2024-03-31'), 401, 'unauthorized');
    const adsOnly = await mintKey({ orgId: org.orgId, scopes: ['ads:read', 'store:read'] });
    const forbidden = await expectProblem(await api('/api/v1/website/overview?from=2024-03-01&to=2024-03-31', { key: adsOnly }), 403, 'forbidden');
    expect(forbidden.detail).toContain('web:read');
  });

  it('400 lists every problem of the query', async () => {
    const problem = await expectProblem(
      await api('/api/v1/website/overview?from=2024-03-01&to=2024-03-31&limit=0&compare=lastYear&colour=red&granularity=year', { key }),
      400,
      'validation_failed',
    );
    expect(problem.errors!.map((e) => e.path).sort()).toEqual(['colour', 'compare', 'granularity', 'limit']);
    for (const query of ['from=2024-03-01', 'from=2024-03-31&to=2024-03-01', 'from=2023-01-01&to=2024-01-02', 'from=2024-02-30&to=2024-03-01', 'from=2024-03-01&to=2024-03-31&limit=101', 'from=2024-03-01&to=2024-03-31&client=nope', 'from=2024-03-01&to=2024-03-31&limit=1&limit=2']) {
      await expectProblem(await api(`/api/v1/website/overview?${query}`, { key }), 400, 'validation_failed');
    }
  });
});
