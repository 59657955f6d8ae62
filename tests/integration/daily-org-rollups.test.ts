// The daily totals summed over a whole organisation (analytics_org_daily, store_org_daily) stay equal to
// the daily rows of the organisation's resources through the seed, inserts, upserts, updates (values, and
// rows moving to another day or resource, of the same or another organisation), deletes, and resources
// moved to another organisation or deleted. Every expectation is plain JS over rows read back.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { eachDay } from '@/lib/time/days';
import { approx, createOrg, insertRows, random, total, type Row } from './website-fixtures';

interface Source {
  daily: string;
  rollup: string;
  resources: string;
  resource: string;
  /** The figures of the daily table, each summed over the organisation's resources of a day. */
  columns: string[];
  money: string[];
  /** A new resource of the organisation (its required columns). */
  create: (id: string, orgId: string, index: number) => Promise<unknown>;
  rows: (id: string) => Row[];
}

const rng = random(20261125);
const int = (max: number) => Math.floor(rng() * max);
const maybe = <T>(value: T) => (rng() < 0.05 ? null : value);
const DAYS = eachDay('2025-01-25', '2025-03-05');

const ANALYTICS: Source = {
  daily: 'analytics_daily',
  rollup: 'analytics_org_daily',
  resources: 'analytics_properties',
  resource: 'analytics_property_id',
  columns: [
    'sessions', 'total_users', 'active_users', 'new_users', 'engaged_sessions', 'screen_page_views', 'event_count', 'key_events',
    'total_revenue', 'purchase_revenue', 'transactions', 'ecommerce_purchases', 'user_engagement_duration', 'session_duration_weighted',
  ],
  money: ['total_revenue', 'purchase_revenue'],
  create: (id, orgId, index) =>
    sql('INSERT INTO analytics_properties (id, org_id, property_id, name) VALUES ($1, $2, $3, $4)', [id, orgId, `properties/d${index}-${id.slice(0, 8)}`, `Daily ${index}`]),
  rows: (id) =>
    DAYS.map((date) => {
      const sessions = 20 + int(500);
      return {
        analytics_property_id: id, date, sessions: maybe(sessions), total_users: maybe(10 + int(sessions)), active_users: maybe(int(sessions)),
        new_users: maybe(int(50)), engaged_sessions: maybe(int(sessions)), screen_page_views: maybe(sessions * 3), event_count: maybe(sessions * 7),
        key_events: maybe(int(9)), total_revenue: maybe(int(100_000) / 100), purchase_revenue: maybe(int(90_000) / 100), transactions: maybe(int(6)),
        ecommerce_purchases: maybe(int(6)), user_engagement_duration: maybe(int(9000)), session_duration_weighted: maybe(int(1_000_000) / 8),
      };
    }),
};

const STORE_MONEY = ['gross_sales', 'discounts', 'returns', 'net_sales', 'shipping', 'taxes', 'duties', 'tips', 'total_sales'];
const STORE: Source = {
  daily: 'store_daily',
  rollup: 'store_org_daily',
  resources: 'commerce_stores',
  resource: 'commerce_store_id',
  columns: [...STORE_MONEY, 'orders', 'cancelled_orders', 'refunded_orders', 'units_sold', 'customers', 'new_customers', 'returning_customers'],
  money: STORE_MONEY,
  create: (id, orgId, index) =>
    sql('INSERT INTO commerce_stores (id, org_id, shop_domain, has_all_orders_scope) VALUES ($1, $2, $3, true)', [id, orgId, `daily-${index}-${id.slice(0, 8)}.myshop.example`]),
  rows: (id) =>
    DAYS.map((date) => {
      const orders = 1 + int(40);
      const gross = 100 + int(500_000) / 100;
      return {
        commerce_store_id: id, date, gross_sales: maybe(gross), discounts: maybe(-int(5000) / 100), returns: maybe(-int(3000) / 100),
        net_sales: maybe(gross - 50), shipping: maybe(int(2000) / 100), taxes: maybe(int(4000) / 100), duties: maybe(0), tips: maybe(int(300) / 100),
        total_sales: maybe(gross + 20), orders: maybe(orders), cancelled_orders: maybe(int(2)), refunded_orders: maybe(int(2)),
        units_sold: maybe(orders * 2), customers: maybe(Math.max(1, orders - int(4))), new_customers: maybe(int(orders)), returning_customers: maybe(int(orders)),
      };
    }),
};

const asFigures = (row: Record<string, unknown>, text: string[]) =>
  Object.fromEntries(Object.entries(row).map(([column, value]) => [column, text.includes(column) || value === null ? value : Number(value)]));

/**
 * The rollup rows of `orgIds` are exactly those computed here from the daily rows of the resources those
 * organisations have now: per organisation and day, the number of resource rows and each figure's sum
 * (null when no row of the day reported it). Returns the number of rows.
 */
async function expectRollupMatches(source: Source, orgIds: string[]): Promise<number> {
  const daily = (
    await sql<Record<string, unknown>>(
      `SELECT r.org_id, t.*, to_char(t.date, 'YYYY-MM-DD') AS date FROM ${source.daily} t JOIN ${source.resources} r ON r.id = t.${source.resource} WHERE r.org_id = ANY($1::uuid[])`,
      [orgIds],
    )
  ).map((row) => asFigures(row, ['org_id', 'date', source.resource]) as Row);
  const groups = new Map<string, Row[]>();
  for (const row of daily) groups.set(`${row.org_id}|${row.date}`, [...(groups.get(`${row.org_id}|${row.date}`) ?? []), row]);
  const expected = [...groups.entries()].map(([group, rows]) => {
    const [orgId, date] = group.split('|');
    return {
      org_id: orgId!,
      date: date!,
      resources: rows.length,
      ...Object.fromEntries(source.columns.map((column) => [column, total(rows, column, source.money.includes(column))])),
    };
  });
  const actual = (
    await sql<Record<string, unknown>>(`SELECT *, to_char(date, 'YYYY-MM-DD') AS date FROM ${source.rollup} WHERE org_id = ANY($1::uuid[])`, [orgIds])
  ).map((row) => asFigures(row, ['org_id', 'date']));
  const order = (a: Record<string, unknown>, b: Record<string, unknown>) => `${a.org_id}|${a.date}`.localeCompare(`${b.org_id}|${b.date}`);
  expect(actual.sort(order), source.rollup).toEqual(approx(expected.sort(order)));
  return actual.length;
}

describe.each([ANALYTICS, STORE])('$rollup follows the daily rows of $daily', (source) => {
  let first: { orgId: string };
  let second: { orgId: string };
  const resources = [randomUUID(), randomUUID(), randomUUID()];

  beforeAll(async () => {
    first = await createOrg(`${source.rollup}-1`);
    second = await createOrg(`${source.rollup}-2`);
    for (const [i, id] of resources.entries()) {
      await source.create(id, i < 2 ? first.orgId : second.orgId, i);
      await insertRows(source.daily, source.rows(id));
    }
  });

  it('after the seed (loaded with COPY) and after multi-row inserts', async () => {
    expect(await expectRollupMatches(source, inject('seed').orgs.map((org) => org.id))).toBeGreaterThan(0);
    expect(await expectRollupMatches(source, [first.orgId])).toBe(DAYS.length);
    expect(await expectRollupMatches(source, [second.orgId])).toBe(DAYS.length);
  });

  it('after updates, an upsert, and rows moved to another day or to a resource of another organisation', async () => {
    const [figure] = source.columns;
    await sql(`UPDATE ${source.daily} SET ${figure} = 7 WHERE ${source.resource} = $1 AND date BETWEEN '2025-02-10' AND '2025-02-12'`, [resources[0]]);
    await sql(
      `INSERT INTO ${source.daily} (${source.resource}, date, ${figure}) VALUES ($1, '2025-02-01', 12345), ($1, '2025-04-01', 1)
       ON CONFLICT (${source.resource}, date) DO UPDATE SET ${figure} = EXCLUDED.${figure}`,
      [resources[1]],
    );
    // A day with no other row (April), then one day of the first organisation's resource to the second's.
    await sql(`UPDATE ${source.daily} SET date = '2025-04-02' WHERE ${source.resource} = $1 AND date = '2025-01-25'`, [resources[0]]);
    await sql(`DELETE FROM ${source.daily} WHERE ${source.resource} = $1 AND date = '2025-02-20'`, [resources[2]]);
    await sql(`UPDATE ${source.daily} SET ${source.resource} = $2 WHERE ${source.resource} = $1 AND date = '2025-02-20'`, [resources[1], resources[2]]);
    await expectRollupMatches(source, [first.orgId, second.orgId]);
    const [upserted] = await sql<{ value: string }>(`SELECT ${figure} AS value FROM ${source.rollup} WHERE org_id = $1 AND date = '2025-04-01'`, [first.orgId]);
    expect(Number(upserted!.value)).toBe(1);
  });

  it('after deletes, down to a day with no rows left (its row goes too)', async () => {
    await sql(`DELETE FROM ${source.daily} WHERE ${source.resource} = ANY($1::uuid[]) AND date = '2025-03-01'`, [resources.slice(0, 2)]);
    await expectRollupMatches(source, [first.orgId]);
    expect(await sql(`SELECT 1 FROM ${source.rollup} WHERE org_id = $1 AND date = '2025-03-01'`, [first.orgId])).toEqual([]);
  });

  it('after a resource moves to another organisation and after one is deleted (its rows go by cascade)', async () => {
    const before = await expectRollupMatches(source, [first.orgId]);
    await sql(`UPDATE ${source.resources} SET org_id = $2 WHERE id = $1`, [resources[0], second.orgId]);
    expect(await expectRollupMatches(source, [first.orgId])).toBeLessThanOrEqual(before);
    await expectRollupMatches(source, [second.orgId]);
    await sql(`DELETE FROM ${source.resources} WHERE id = $1`, [resources[1]]);
    expect(await expectRollupMatches(source, [first.orgId])).toBe(0);
    await sql(`DELETE FROM ${source.resources} WHERE id = ANY($1::uuid[])`, [[resources[0], resources[2]]]);
    expect(await expectRollupMatches(source, [second.orgId])).toBe(0);
  });
});
