// The monthly and ten-day rollups of the dimension tables (analytics, search console, store), and the
// web-analytics and store rows summed over a whole organisation (daily, monthly, ten-day), stay equal to their
// daily rows through inserts, upserts, updates (values, and rows moving to another month, key or
// resource), deletes, and properties deleted or moved to another organisation, as do the running peaks of
// the web-analytics people counts (per day in its ten-day block, per month in its year); and the dimension tables of the endpoints, which read whole months and
// whole ten-day blocks from the rollups and the other days from the daily tables, equal figures
// computed here from the daily rows over ranges that start and end inside months and blocks. Every expectation is plain JS over rows read back.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { websiteOverviewOperation, websiteSearchOperation } from '@/lib/metrics/website/operations';
import { storeOverviewOperation } from '@/lib/metrics/store/operations';
import { addDays, eachDay } from '@/lib/time/days';
import { api, mintKey } from '../support/api';
import { expectContract } from '../support/contract';
import { approx, createOrg, inRange, insertRows, peak, random, rankedKeys, total, type Row } from './website-fixtures';

interface RollupSpec {
  daily: string;
  monthly: string;
  tenDay: string;
  resource: string;
  /** The resource table (with `org_id`). */
  resources: string;
  /** Its organisation rollups (daily, monthly, ten-day), when it has them, and the people counts they leave out. */
  org?: { daily: string; monthly: string; tenDay: string; people: string[] };
  /** Rollup column → how it follows from the daily rows of its group. */
  columns: Record<string, (rows: Row[]) => number | null>;
  /** Floating-point columns: compared within 1e-6, as sums added in another order may differ in the last bits. */
  floats: string[];
}

const summed = (column: string, money = false) => (rows: Row[]) => total(rows, column, money);
const peakOf = (column: string) => (rows: Row[]) => {
  const values = rows.map((row) => row[column]).filter((value) => value !== null) as number[];
  return values.length ? Math.max(...values) : null;
};

const ANALYTICS: RollupSpec = {
  daily: 'analytics_dimensions_daily',
  monthly: 'analytics_dimensions_monthly',
  tenDay: 'analytics_dimensions_tenday',
  resource: 'analytics_property_id',
  resources: 'analytics_properties',
  org: { daily: 'analytics_dimensions_org_daily', monthly: 'analytics_dimensions_org_monthly', tenDay: 'analytics_dimensions_org_tenday', people: ['total_users', 'active_users'] },
  columns: {
    sessions: summed('sessions'),
    total_users: peakOf('total_users'),
    total_users_days: summed('total_users'),
    active_users: peakOf('active_users'),
    active_users_days: summed('active_users'),
    new_users: summed('new_users'),
    engaged_sessions: summed('engaged_sessions'),
    screen_page_views: summed('screen_page_views'),
    event_count: summed('event_count'),
    key_events: summed('key_events'),
    total_revenue: summed('total_revenue', true),
    purchase_revenue: summed('purchase_revenue', true),
    transactions: summed('transactions'),
    ecommerce_purchases: summed('ecommerce_purchases'),
    user_engagement_duration: summed('user_engagement_duration'),
    session_duration_weighted: summed('session_duration_weighted'),
  },
  floats: ['session_duration_weighted'],
};

const SEARCH: RollupSpec = {
  daily: 'search_console_dimensions_daily',
  monthly: 'search_console_dimensions_monthly',
  tenDay: 'search_console_dimensions_tenday',
  resource: 'search_console_site_id',
  resources: 'search_console_sites',
  columns: {
    clicks: summed('clicks'),
    impressions: summed('impressions'),
    position_weight: (rows) => total(rows.filter((row) => row.position !== null).map((row) => ({ w: (row.position as number) * (row.impressions as number) })), 'w'),
    position_impressions: (rows) => total(rows.filter((row) => row.position !== null), 'impressions'),
  },
  floats: ['position_weight'],
};

const STORE_MONEY = ['gross_sales', 'discounts', 'returns', 'net_sales', 'shipping', 'taxes', 'duties', 'tips', 'total_sales'];
const STORE: RollupSpec = {
  daily: 'store_dimensions_daily',
  monthly: 'store_dimensions_monthly',
  tenDay: 'store_dimensions_tenday',
  resource: 'commerce_store_id',
  resources: 'commerce_stores',
  org: { daily: 'store_dimensions_org_daily', monthly: 'store_dimensions_org_monthly', tenDay: 'store_dimensions_org_tenday', people: ['customers', 'returning_customers'] },
  columns: {
    ...Object.fromEntries(STORE_MONEY.map((column) => [column, summed(column, true)])),
    ...Object.fromEntries(['orders', 'cancelled_orders', 'refunded_orders', 'units_sold', 'new_customers'].map((column) => [column, summed(column)])),
    customers: peakOf('customers'),
    customers_days: summed('customers'),
    returning_customers: peakOf('returning_customers'),
    returning_customers_days: summed('returning_customers'),
  },
  floats: [],
};

/** Rows of a table for some resources, dates as YYYY-MM-DD and every figure as a number. */
async function readRows(table: string, resource: string, ids: string[], dateColumns: string[]): Promise<Row[]> {
  const rows = await sql<Record<string, unknown>>(
    `SELECT *, ${dateColumns.map((column) => `to_char(${column}, 'YYYY-MM-DD') AS ${column}`).join(', ')} FROM ${table} WHERE ${resource} = ANY($1::uuid[])`,
    [ids],
  );
  const text = new Set([resource, 'dimension', 'key', 'label', 'detail', ...dateColumns]);
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([column, value]) => [column, text.has(column) || value === null ? (value as string | null) : Number(value)])));
}

/** A rollup's period column and the first day of the period of a day: days, calendar months, or ten-day blocks (1-10, 11-20, 21 to the end). */
const PERIODS = {
  date: (day: string) => day,
  month: (day: string) => `${day.slice(0, 8)}01`,
  block: (day: string) => `${day.slice(0, 8)}${Number(day.slice(8)) <= 10 ? '01' : Number(day.slice(8)) <= 20 ? '11' : '21'}`,
};
type Period = keyof typeof PERIODS;

/** The rollup rows (monthly or ten-day) the daily rows of `ids` call for, computed here. */
async function expectedRollup(spec: RollupSpec, ids: string[], period: Period): Promise<Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of await readRows(spec.daily, spec.resource, ids, ['date'])) {
    const group = [row[spec.resource], row.dimension, PERIODS[period](row.date as string), row.key].join('|');
    const rows = groups.get(group) ?? [];
    rows.push(row);
    groups.set(group, rows);
  }
  return [...groups.entries()].map(([group, rows]) => {
    const [resource, dimension, start, key] = group.split('|');
    return {
      [spec.resource]: resource!,
      dimension: dimension!,
      [period]: start!,
      key: key!,
      last_day: rows.map((row) => row.date as string).sort().at(-1)!,
      ...Object.fromEntries(
        Object.entries(spec.columns).map(([column, value]) => {
          const figure = value(rows);
          return [column, figure !== null && spec.floats.includes(column) ? expect.closeTo(figure, 6) : figure];
        }),
      ),
    };
  });
}

const groupOrder = (spec: RollupSpec, period: Period) => (a: Row, b: Row) => {
  const keyOf = (row: Row) => [row[spec.resource], row.dimension, row[period], row.key].join('|');
  return keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0;
};

/** Both rollups of `spec` hold exactly the rows computed here from the daily rows of `ids`. */
async function expectRollupMatches(spec: RollupSpec, ids: string[]): Promise<void> {
  for (const [table, period] of [[spec.monthly, 'month'], [spec.tenDay, 'block']] as const) {
    const actual = await readRows(table, spec.resource, ids, [period, 'last_day']);
    const expected = await expectedRollup(spec, ids, period);
    expect(expected.length).toBeGreaterThan(0);
    expect(actual.sort(groupOrder(spec, period)), table).toEqual(approx(expected.sort(groupOrder(spec, period))));
  }
}

/** The days of the ten-day block that starts on `first` (the 21st's block runs to the month's end). */
function blockDays(first: string): string[] {
  return first.endsWith('21') ? eachDay(first, addDays(first, 10)).filter((day) => day.slice(0, 7) === first.slice(0, 7)) : eachDay(first, addDays(first, 9));
}

/**
 * The running peaks of the web-analytics people counts, computed here from the daily rows of `ids`: for
 * every key with a row in a unit (a ten-day block; a year), one row per day (month) of the unit with the
 * greatest reported value from the unit's start through it and from it through the unit's end.
 */
function expectedRunningPeaks(daily: Row[], unitOf: (day: string) => string, periodsOf: (unit: string) => string[], periodOf: (day: string) => string, period: string): Row[] {
  const units = new Map<string, Row[]>();
  for (const row of daily) {
    const unit = [row.analytics_property_id, row.dimension, unitOf(row.date as string), row.key].join('|');
    units.set(unit, [...(units.get(unit) ?? []), row]);
  }
  const greatest = (rows: Row[], column: string) => {
    const values = rows.map((row) => row[column]).filter((value) => value !== null) as number[];
    return values.length ? Math.max(...values) : null;
  };
  return [...units.entries()].flatMap(([unit, rows]) => {
    const [property, dimension, start, key] = unit.split('|');
    return periodsOf(start!).map((at) => {
      const upTo = rows.filter((row) => periodOf(row.date as string) <= at);
      const from = rows.filter((row) => periodOf(row.date as string) >= at);
      return {
        analytics_property_id: property!,
        dimension: dimension!,
        [period]: at,
        key: key!,
        total_users_since_start: greatest(upTo, 'total_users'),
        total_users_until_end: greatest(from, 'total_users'),
        active_users_since_start: greatest(upTo, 'active_users'),
        active_users_until_end: greatest(from, 'active_users'),
      };
    });
  });
}

/** The block peaks and year peaks of `ids` hold exactly the rows computed here from their daily rows. */
async function expectRunningPeaksMatch(ids: string[]): Promise<void> {
  const daily = await readRows(ANALYTICS.daily, ANALYTICS.resource, ids, ['date']);
  const months = (year: string) => Array.from({ length: 12 }, (_, i) => `${year.slice(0, 4)}-${String(i + 1).padStart(2, '0')}-01`);
  for (const [table, period, expected] of [
    ['analytics_dimensions_block_peaks', 'date', expectedRunningPeaks(daily, PERIODS.block, blockDays, PERIODS.date, 'date')],
    ['analytics_dimensions_year_peaks', 'month', expectedRunningPeaks(daily, (day) => `${day.slice(0, 4)}-01-01`, months, PERIODS.month, 'month')],
  ] as const) {
    const actual = await readRows(table, ANALYTICS.resource, ids, [period]);
    const order = groupOrder(ANALYTICS, period as Period);
    expect(actual.sort(order), table).toEqual(expected.sort(order));
  }
}

/** A day's label and detail of a key over an organisation: its row with the greatest label, then the greatest detail (a null last). */
function dayLabel(rows: Row[]): { label: string; detail: string | null } {
  const greater = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? 1 : -1);
  const [top] = [...rows].sort((a, b) => greater(a.label as string, b.label as string) || greater(a.detail as string | null, b.detail as string | null));
  return { label: top!.label as string, detail: top!.detail as string | null };
}

/**
 * The organisation rollups of `spec` for `orgIds` hold exactly the rows computed here from the daily rows
 * of the resources those organisations have now: per organisation, dimension, day|month|block and key,
 * the sums of the additive columns, and the latest day (monthly and ten-day) or the day's label and
 * detail (daily). Returns the number of rows.
 */
async function expectOrgRollupMatches(spec: RollupSpec, orgIds: string[]): Promise<number> {
  const org = spec.org!;
  const owners = await sql<{ id: string; org_id: string }>(`SELECT id, org_id FROM ${spec.resources} WHERE org_id = ANY($1::uuid[])`, [orgIds]);
  const orgOf = new Map(owners.map((row) => [row.id, row.org_id]));
  const daily = await readRows(spec.daily, spec.resource, [...orgOf.keys()], ['date']);
  const columns = Object.entries(spec.columns).filter(([column]) => !org.people.includes(column));
  let count = 0;
  for (const [table, period] of [[org.daily, 'date'], [org.monthly, 'month'], [org.tenDay, 'block']] as const) {
    const groups = new Map<string, Row[]>();
    for (const row of daily) {
      const group = [orgOf.get(row[spec.resource] as string), row.dimension, PERIODS[period](row.date as string), row.key].join('|');
      groups.set(group, [...(groups.get(group) ?? []), row]);
    }
    const expected = [...groups.entries()].map(([group, rows]) => {
      const [orgId, dimension, start, key] = group.split('|');
      return {
        org_id: orgId!,
        dimension: dimension!,
        [period]: start!,
        key: key!,
        ...(period === 'date' ? dayLabel(rows) : { last_day: rows.map((row) => row.date as string).sort().at(-1)! }),
        ...Object.fromEntries(
          columns.map(([column, value]) => {
            const figure = value(rows);
            return [column, figure !== null && spec.floats.includes(column) ? expect.closeTo(figure, 6) : figure];
          }),
        ),
      };
    });
    const order = (a: Row, b: Row) => {
      const keyOf = (row: Row) => [row.org_id, row.dimension, row[period], row.key].join('|');
      return keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0;
    };
    const actual = await readRows(table, 'org_id', orgIds, period === 'date' ? ['date'] : [period, 'last_day']);
    expect(actual.sort(order), table).toEqual(approx(expected.sort(order)));
    count += actual.length;
  }
  return count;
}

/**
 * Two resources of `first` with the same number of rows: `moving` moves to `second` (both organisations'
 * rows follow), then is deleted (its row goes first, its daily rows by cascade after it), then `staying` too.
 */
async function expectResourcesFollowed(spec: RollupSpec, first: string, second: string, moving: string, staying: string): Promise<void> {
  const both = await expectOrgRollupMatches(spec, [first]);
  expect(await expectOrgRollupMatches(spec, [second])).toBe(0);

  await sql(`UPDATE ${spec.resources} SET org_id = $2, client_id = NULL WHERE id = $1`, [moving, second]);
  const [kept, moved] = [await expectOrgRollupMatches(spec, [first]), await expectOrgRollupMatches(spec, [second])];
  expect(kept).toBeGreaterThan(0);
  expect(moved).toBe(kept);
  expect(both).toBe(kept);

  await sql(`DELETE FROM ${spec.resources} WHERE id = $1`, [moving]);
  expect(await expectOrgRollupMatches(spec, [second])).toBe(0);
  await sql(`DELETE FROM ${spec.resources} WHERE id = $1`, [staying]);
  expect(await expectOrgRollupMatches(spec, [first])).toBe(0);
}

// ───────────────────────── fixtures ─────────────────────────

const rng = random(20261122);
const int = (max: number) => Math.floor(rng() * max);
const maybe = <T>(value: T) => (rng() < 0.05 ? null : value);
const DAYS = eachDay('2025-01-01', '2025-04-30');

let org: { orgId: string; clientA: string; clientB: string };
const properties = [randomUUID(), randomUUID()];
const sites = [randomUUID()];
const stores = [randomUUID(), randomUUID()];

function analyticsRows(property: string, index: number): Row[] {
  return DAYS.flatMap((date) =>
    (['channel', 'device', 'page'] as const).flatMap((dimension) =>
      ['a', 'b', 'c'].map((name, k) => {
        const sessions = 20 + int(200);
        return {
          analytics_property_id: property,
          dimension,
          date,
          key: `${dimension}-${name}`,
          // Labels change over time and differ between properties, so the latest day matters.
          label: `${dimension} ${name} v${date.slice(5, 7)}${index}`,
          detail: k === 0 ? `detail ${date}` : null,
          sessions: maybe(sessions),
          total_users: maybe(10 + int(sessions)),
          active_users: maybe(5 + int(sessions / 2)),
          new_users: maybe(int(20)),
          engaged_sessions: maybe(int(sessions)),
          screen_page_views: maybe(sessions * 2 + int(50)),
          event_count: maybe(sessions * 5),
          key_events: maybe(int(8)),
          total_revenue: maybe(int(100_000) / 100),
          purchase_revenue: maybe(int(90_000) / 100),
          transactions: maybe(int(6)),
          ecommerce_purchases: maybe(int(6)),
          user_engagement_duration: maybe(int(9000)),
          session_duration_weighted: maybe(int(1_000_000) / 8),
        };
      }),
    ),
  );
}

function searchRows(site: string): Row[] {
  return DAYS.flatMap((date) =>
    (['query', 'country'] as const).flatMap((dimension) =>
      ['a', 'b', 'c', 'd'].map((name) => {
        const impressions = 100 + int(5000);
        return { search_console_site_id: site, dimension, date, key: `${dimension}-${name}`, clicks: int(impressions / 10), impressions, position: rng() < 0.1 ? null : 1 + int(400) / 10 };
      }),
    ),
  );
}

function storeRows(store: string, index: number): Row[] {
  return DAYS.flatMap((date) =>
    (['product', 'country'] as const).flatMap((dimension) =>
      ['a', 'b', 'c'].map((name) => {
        const orders = 1 + int(30);
        const gross = 100 + int(500_000) / 100;
        return {
          commerce_store_id: store,
          dimension,
          date,
          key: `${dimension}-${name}`,
          label: `${dimension} ${name} ${date.slice(0, 7)}/${index}`,
          detail: null,
          gross_sales: maybe(gross),
          discounts: maybe(-int(5000) / 100),
          returns: maybe(-int(3000) / 100),
          net_sales: maybe(gross - 50),
          shipping: maybe(int(2000) / 100),
          taxes: maybe(int(4000) / 100),
          duties: maybe(0),
          tips: maybe(int(300) / 100),
          total_sales: maybe(gross + 20),
          orders: maybe(orders),
          cancelled_orders: maybe(int(2)),
          refunded_orders: maybe(int(2)),
          units_sold: maybe(orders * 2),
          customers: maybe(Math.max(1, orders - int(4))),
          new_customers: maybe(int(orders)),
          returning_customers: maybe(int(orders)),
        };
      }),
    ),
  );
}

beforeAll(async () => {
  org = await createOrg('rollups');
  for (const [i, id] of properties.entries()) {
    await sql('INSERT INTO analytics_properties (id, org_id, client_id, property_id, name) VALUES ($1, $2, $3, $4, $5)', [id, org.orgId, org.clientA, `properties/r${i}-${id.slice(0, 8)}`, `Rollup ${i}`]);
    await insertRows('analytics_dimensions_daily', analyticsRows(id, i));
  }
  for (const id of sites) {
    await sql('INSERT INTO search_console_sites (id, org_id, client_id, site_url) VALUES ($1, $2, $3, $4)', [id, org.orgId, org.clientA, `https://rollup-${id.slice(0, 8)}.example/`]);
    await insertRows('search_console_dimensions_daily', searchRows(id));
  }
  for (const [i, id] of stores.entries()) {
    await sql('INSERT INTO commerce_stores (id, org_id, client_id, shop_domain, has_all_orders_scope) VALUES ($1, $2, $3, $4, true)', [id, org.orgId, org.clientA, `rollup-${i}-${id.slice(0, 8)}.myshop.example`]);
    await insertRows('store_dimensions_daily', storeRows(id, i));
  }
});

// ───────────────────────── rollup consistency ─────────────────────────

describe('monthly and ten-day rollups follow the daily rows', () => {
  it('after the seed (loaded with COPY) and after multi-row inserts', async () => {
    const seeded = inject('seed').orgs[0]!.id;
    const idsOf = async (table: string) => (await sql<{ id: string }>(`SELECT id FROM ${table} WHERE org_id = $1`, [seeded])).map((row) => row.id);
    await expectRollupMatches(ANALYTICS, await idsOf('analytics_properties'));
    await expectRollupMatches(SEARCH, await idsOf('search_console_sites'));
    await expectRollupMatches(STORE, await idsOf('commerce_stores'));
    await expectRollupMatches(ANALYTICS, properties);
    await expectRollupMatches(SEARCH, sites);
    await expectRollupMatches(STORE, stores);
    await expectRunningPeaksMatch(await idsOf('analytics_properties'));
    await expectRunningPeaksMatch(properties);
    for (const spec of [ANALYTICS, STORE]) {
      expect(await expectOrgRollupMatches(spec, [seeded])).toBeGreaterThan(0);
      expect(await expectOrgRollupMatches(spec, [org.orgId])).toBeGreaterThan(0);
    }
  });

  it('after updates of figures and labels, and an upsert (INSERT … ON CONFLICT DO UPDATE)', async () => {
    await sql(
      `UPDATE analytics_dimensions_daily SET sessions = sessions + 7, total_users = total_users * 3, label = 'renamed'
        WHERE analytics_property_id = $1 AND date BETWEEN '2025-02-10' AND '2025-02-12'`,
      [properties[0]],
    );
    await sql(`UPDATE search_console_dimensions_daily SET position = NULL, clicks = clicks + 1 WHERE search_console_site_id = $1 AND date = '2025-03-31'`, [sites[0]]);
    await sql(
      `INSERT INTO store_dimensions_daily (commerce_store_id, dimension, date, key, label, net_sales, customers)
       VALUES ($1, 'product', '2025-03-15', 'product-a', 'upserted', 12345.67, 999), ($1, 'product', '2025-05-02', 'product-new', 'new', 1.00, 1)
       ON CONFLICT (commerce_store_id, dimension, date, key) DO UPDATE SET net_sales = EXCLUDED.net_sales, customers = EXCLUDED.customers, label = EXCLUDED.label`,
      [stores[0]],
    );
    await expectRollupMatches(ANALYTICS, properties);
    await expectRollupMatches(SEARCH, sites);
    await expectRollupMatches(STORE, stores);
    await expectRunningPeaksMatch(properties);
    await expectOrgRollupMatches(ANALYTICS, [org.orgId]);
    await expectOrgRollupMatches(STORE, [org.orgId]);
    const [upserted] = await sql<{ customers: string }>(
      `SELECT customers FROM store_dimensions_monthly WHERE commerce_store_id = $1 AND dimension = 'product' AND month = '2025-03-01' AND key = 'product-a'`,
      [stores[0]],
    );
    expect(Number(upserted!.customers)).toBe(999);
  });

  it('after rows move to another month, key or resource (both the old and the new group are recomputed)', async () => {
    // Another month: January's channel-a days of property 0 move 120 days on, into May (no row there yet).
    await sql(`UPDATE analytics_dimensions_daily SET date = date + 120 WHERE analytics_property_id = $1 AND dimension = 'channel' AND key = 'channel-a' AND date < '2025-01-10'`, [properties[0]]);
    // Another key, then another resource.
    await sql(`UPDATE analytics_dimensions_daily SET key = 'device-z' WHERE analytics_property_id = $1 AND dimension = 'device' AND key = 'device-c' AND date BETWEEN '2025-03-05' AND '2025-03-09'`, [properties[1]]);
    // Both stores report every key every day: a key of their own first, then to the other store.
    await sql(`UPDATE store_dimensions_daily SET key = 'country-moved' WHERE commerce_store_id = $1 AND dimension = 'country' AND key = 'country-b' AND date >= '2025-04-20'`, [stores[0]]);
    await sql(`UPDATE store_dimensions_daily SET commerce_store_id = $2 WHERE commerce_store_id = $1 AND key = 'country-moved'`, [stores[0], stores[1]]);
    await expectRollupMatches(ANALYTICS, properties);
    await expectRollupMatches(STORE, stores);
    await expectRunningPeaksMatch(properties);
    await expectOrgRollupMatches(ANALYTICS, [org.orgId]);
    await expectOrgRollupMatches(STORE, [org.orgId]);
    const moved = await sql<{ month: string }>(
      `SELECT to_char(month, 'YYYY-MM-DD') AS month FROM analytics_dimensions_monthly WHERE analytics_property_id = $1 AND dimension = 'channel' AND key = 'channel-a' ORDER BY month`,
      [properties[0]],
    );
    expect(moved.map((row) => row.month)).toEqual(['2025-01-01', '2025-02-01', '2025-03-01', '2025-04-01', '2025-05-01']);
  });

  it('after deletes, down to a group with no daily rows left (its monthly row goes too)', async () => {
    await sql(`DELETE FROM analytics_dimensions_daily WHERE analytics_property_id = $1 AND dimension = 'page' AND key = 'page-b' AND date BETWEEN '2025-02-01' AND '2025-02-28'`, [properties[1]]);
    await sql(`DELETE FROM search_console_dimensions_daily WHERE search_console_site_id = $1 AND date BETWEEN '2025-04-10' AND '2025-04-12'`, [sites[0]]);
    await sql(`DELETE FROM store_dimensions_daily WHERE commerce_store_id = $1 AND key = 'product-new'`, [stores[0]]);
    await expectRollupMatches(ANALYTICS, properties);
    await expectRollupMatches(SEARCH, sites);
    await expectRollupMatches(STORE, stores);
    await expectRunningPeaksMatch(properties);
    await expectOrgRollupMatches(ANALYTICS, [org.orgId]);
    await expectOrgRollupMatches(STORE, [org.orgId]);
    const gone = await sql(`SELECT 1 FROM analytics_dimensions_monthly WHERE analytics_property_id = $1 AND dimension = 'page' AND key = 'page-b' AND month = '2025-02-01'`, [properties[1]]);
    expect(gone).toEqual([]);
  });

  it('after a property moves to another organisation and after one is deleted (the organisation rows follow)', async () => {
    // Two organisations of their own, so that the fixtures of the other tests stay as they are.
    const first = await createOrg('org-rollups-1');
    const second = await createOrg('org-rollups-2');
    const [moving, staying] = [randomUUID(), randomUUID()];
    for (const [i, id] of [moving, staying].entries()) {
      await sql('INSERT INTO analytics_properties (id, org_id, client_id, property_id, name) VALUES ($1, $2, $3, $4, $5)', [id, first.orgId, first.clientA, `properties/o${i}-${id.slice(0, 8)}`, `Org rollup ${i}`]);
      await insertRows('analytics_dimensions_daily', analyticsRows(id, i));
    }
    await expectResourcesFollowed(ANALYTICS, first.orgId, second.orgId, moving, staying);
    const left = await sql('SELECT 1 FROM analytics_dimensions_block_peaks WHERE analytics_property_id = $1 UNION ALL SELECT 1 FROM analytics_dimensions_year_peaks WHERE analytics_property_id = $1', [moving]);
    expect(left).toEqual([]);
  });

  it('after a store moves to another organisation and after one is deleted (the organisation rows follow)', async () => {
    const first = await createOrg('store-org-rollups-1');
    const second = await createOrg('store-org-rollups-2');
    const [moving, staying] = [randomUUID(), randomUUID()];
    for (const [i, id] of [moving, staying].entries()) {
      await sql('INSERT INTO commerce_stores (id, org_id, client_id, shop_domain, has_all_orders_scope) VALUES ($1, $2, $3, $4, true)', [id, first.orgId, first.clientA, `org-rollup-${i}-${id.slice(0, 8)}.myshop.example`]);
      await insertRows('store_dimensions_daily', storeRows(id, i));
    }
    await expectResourcesFollowed(STORE, first.orgId, second.orgId, moving, staying);
  });
});

// ───────────────────────── endpoints over partial months ─────────────────────────

interface TableRow {
  key: string;
  label: string;
  detail?: string;
  totals: Record<string, number | null>;
  previous: Record<string, number | null> | null;
}

/** The expected top rows of one dimension over a range, from the daily rows: key order, label, detail and the chosen figures. */
function expectedTable(rows: Row[], dimension: string, from: string, to: string, sortBy: string, figures: Record<string, (rows: Row[]) => number | null>, labelled: boolean) {
  const current = rows.filter((row) => row.dimension === dimension).filter(inRange(from, to));
  return rankedKeys(current, sortBy).map((key) => {
    const keyRows = current.filter((row) => row.key === key);
    const lastDay = keyRows.map((row) => row.date as string).sort().at(-1)!;
    const lastRows = keyRows.filter((row) => row.date === lastDay).sort((a, b) => ((a.label as string) < (b.label as string) ? 1 : -1));
    const detail = labelled ? ((lastRows[0]!.detail as string | null) ?? null) : null;
    return {
      key,
      label: labelled ? (lastRows[0]!.label as string) : key,
      ...(detail === null ? {} : { detail }),
      totals: Object.fromEntries(Object.entries(figures).map(([name, figure]) => [name, figure(keyRows)])),
    };
  });
}

function picked(rows: TableRow[], names: string[]) {
  return rows.map((row) => ({
    key: row.key,
    label: row.label,
    ...(row.detail === undefined ? {} : { detail: row.detail }),
    totals: Object.fromEntries(names.map((name) => [name, row.totals[name]])),
  }));
}

// Head day, head block, whole months and a tail block; inside one month (head days, a block, tail
// days); across two partial months (four whole blocks between head and tail days); whole months only.
// For the running peaks of a whole organisation's people counts: months from January (and a head day
// ending its block, a year before), months through December, days across two blocks without a whole one,
// days inside one block.
const RANGES = [
  ['2025-01-20', '2025-04-10'],
  ['2025-03-03', '2025-03-29'],
  ['2025-01-05', '2025-02-24'],
  ['2025-02-01', '2025-04-30'],
  ['2024-12-20', '2025-03-31'],
  ['2025-02-01', '2025-12-31'],
  ['2025-02-15', '2025-02-24'],
  ['2025-03-12', '2025-03-18'],
] as const;

describe('dimension tables over ranges with partial months equal the daily rows', () => {
  it('/website/overview: sums, people counts (each property’s peak day, summed), labels', async () => {
    const key = await mintKey({ orgId: org.orgId, scopes: ['web:read'] });
    const rows = await readRows('analytics_dimensions_daily', 'analytics_property_id', properties, ['date']);
    for (const [from, to] of RANGES) {
      const body = await expectContract<{ data: { analytics: Record<string, TableRow[]> } }>(
        websiteOverviewOperation,
        await api(`/api/v1/website/overview?from=${from}&to=${to}&compare=none&limit=100`, { key }),
      );
      const figures = {
        sessions: summed('sessions'),
        totalUsers: (keyRows: Row[]) => peak(keyRows, 'total_users', 'analytics_property_id'),
        activeUsers: (keyRows: Row[]) => peak(keyRows, 'active_users', 'analytics_property_id'),
        totalRevenue: summed('total_revenue', true),
      };
      for (const [table, dimension] of [['channels', 'channel'], ['devices', 'device'], ['pages', 'page']] as const) {
        expect(picked(body.data.analytics[table]!, Object.keys(figures)), `${table} ${from}…${to}`).toEqual(
          approx(expectedTable(rows, dimension, from, to, 'sessions', figures, true)),
        );
      }
    }
  });

  it('/website/search: clicks, impressions and position re-averaged from the parts', async () => {
    const key = await mintKey({ orgId: org.orgId, scopes: ['web:read'] });
    const rows = await readRows('search_console_dimensions_daily', 'search_console_site_id', sites, ['date']);
    const positioned = (keyRows: Row[]) => keyRows.filter((row) => row.position !== null);
    const figures = {
      clicks: summed('clicks'),
      impressions: summed('impressions'),
      position: (keyRows: Row[]) => {
        const weighted = positioned(keyRows);
        const impressions = total(weighted, 'impressions');
        return impressions ? weighted.reduce((sum, row) => sum + (row.position as number) * (row.impressions as number), 0) / impressions : null;
      },
    };
    for (const [from, to] of RANGES) {
      const body = await expectContract<{ data: { search: Record<string, TableRow[]> } }>(
        websiteSearchOperation,
        await api(`/api/v1/website/search?from=${from}&to=${to}&compare=none&limit=100`, { key }),
      );
      const actual = body.data.search.queries!.map((row) => ({ key: row.key, label: row.key, totals: Object.fromEntries(Object.keys(figures).map((name) => [name, row.totals[name]])) }));
      expect(actual, `queries ${from}…${to}`).toEqual(approx(expectedTable(rows, 'query', from, to, 'clicks', figures, false)));
    }
  });

  it('/store/overview: money in cents, customers as each store’s peak day summed, labels, compare over partial months', async () => {
    const key = await mintKey({ orgId: org.orgId, scopes: ['store:read'] });
    const rows = await readRows('store_dimensions_daily', 'commerce_store_id', stores, ['date']);
    const figures = {
      netSales: summed('net_sales', true),
      grossSales: summed('gross_sales', true),
      customers: (keyRows: Row[]) => peak(keyRows, 'customers', 'commerce_store_id'),
      returningCustomers: (keyRows: Row[]) => peak(keyRows, 'returning_customers', 'commerce_store_id'),
    };
    for (const [from, to] of RANGES) {
      const body = await expectContract<{ data: { compare: { from: string; to: string }; store: Record<string, TableRow[]> } }>(
        storeOverviewOperation,
        await api(`/api/v1/store/overview?from=${from}&to=${to}&compare=prevMonth&limit=100`, { key }),
      );
      const { compare } = body.data;
      for (const [table, dimension] of [['products', 'product'], ['countries', 'country']] as const) {
        const actual = body.data.store[table]!;
        expect(picked(actual, Object.keys(figures)), `${table} ${from}…${to}`).toEqual(approx(expectedTable(rows, dimension, from, to, 'net_sales', figures, true)));
        const previousRows = rows.filter((row) => row.dimension === dimension).filter(inRange(compare.from, compare.to));
        for (const row of actual) {
          const keyRows = previousRows.filter((daily) => daily.key === row.key);
          expect(
            Object.fromEntries(Object.keys(figures).map((name) => [name, row.previous![name]])),
            `${table} ${row.key} previous ${compare.from}…${compare.to}`,
          ).toEqual(approx(Object.fromEntries(Object.entries(figures).map(([name, figure]) => [name, figure(keyRows)]))));
        }
      }
    }
  });
});
