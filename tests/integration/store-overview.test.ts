// /store/overview against an organisation of its own, every expected figure computed here from the
// fixture rows (money added in cents; customers as each store's peak day summed over the stores, rates over customer-days).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { storeOverviewOperation } from '@/lib/metrics/store/operations';
import { eachDay } from '@/lib/time/days';
import { api, mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import { approx, bucketSums, MID_WEEK_BUCKETS, createOrg, inRange, insertRows, latest, peak, random, rankedKeys, rate, recordSync, series, total, type Row } from './website-fixtures';

interface Store {
  id: string;
  shopDomain: string;
  name: string | null;
  clientId: string | null;
  currency: string;
  timezone: string;
  hasAllOrdersScope: boolean;
  days: string[];
}

const TABLES = { products: 'product', channels: 'channel', referrers: 'referrer', countries: 'country', discounts: 'discount' } as const;
const MONEY = ['gross_sales', 'discounts', 'returns', 'net_sales', 'shipping', 'taxes', 'duties', 'tips', 'total_sales'];

const KEYS: Record<string, Array<[string, string, string | null]>> = {
  product: [
    ['gid://product/1', 'Trail Runner', 'SKU-TR-1'],
    ['gid://product/2', 'Road Racer', 'SKU-RR-2'],
    ['gid://product/3', 'Socks (3 pack)', null],
    ['gid://product/4', 'Insoles', 'SKU-IN-4'],
  ],
  channel: [
    ['online_store', 'Online Store', null],
    ['pos', 'Point of Sale', null],
  ],
  referrer: [
    ['google', 'Google', 'search'],
    ['instagram', 'Instagram', 'social'],
    ['direct', 'Direct', null],
  ],
  country: [
    ['DE', 'Germany', null],
    ['GB', 'United Kingdom', null],
  ],
  discount: [['SPRING10', 'SPRING10', '10% off']],
};

let org: Awaited<ReturnType<typeof createOrg>>;
let stores: Store[];
let daily: Row[];
let dimensions: Row[];
let key: string;

function cents(rng: () => number, max: number): number {
  return Math.round(rng() * max * 100) / 100;
}

/** A day's sales: discounts and returns are negative, as the store platform reports them. */
function sales(rng: () => number, scale: number): Row {
  const gross = cents(rng, 5000 * scale);
  const discounts = -cents(rng, gross * 0.1);
  const returns = rng() < 0.3 ? -cents(rng, gross * 0.05) : 0;
  const net = Math.round((gross + discounts + returns) * 100) / 100;
  const shipping = cents(rng, 100 * scale);
  const taxes = cents(rng, 300 * scale);
  const tips = rng() < 0.5 ? null : cents(rng, 20);
  const orders = 1 + Math.floor(rng() * 40 * scale);
  const customers = Math.max(1, orders - Math.floor(rng() * 5));
  const newCustomers = Math.floor(customers * rng());
  return {
    gross_sales: gross,
    discounts,
    returns,
    net_sales: net,
    shipping,
    taxes,
    duties: null,
    tips,
    total_sales: Math.round((net + shipping + taxes + (tips ?? 0)) * 100) / 100,
    orders,
    cancelled_orders: Math.floor(rng() * 2),
    refunded_orders: rng() < 0.2 ? null : Math.floor(rng() * 2),
    units_sold: orders + Math.floor(rng() * orders),
    customers,
    new_customers: newCustomers,
    returning_customers: customers - newCustomers,
  };
}

async function insertStore(store: Omit<Store, 'id'>): Promise<Store> {
  const id = randomUUID();
  await sql(
    `INSERT INTO commerce_stores (id, org_id, client_id, shop_domain, name, currency, timezone, has_all_orders_scope)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [id, org.orgId, store.clientId, store.shopDomain, store.name, store.currency, store.timezone, store.hasAllOrdersScope],
  );
  return { ...store, id };
}

beforeAll(async () => {
  org = await createOrg('store-fixture');
  stores = [
    await insertStore({ shopDomain: 'alpha.myshop.example', name: 'Alpha', clientId: org.clientA, currency: 'EUR', timezone: 'Europe/Berlin', hasAllOrdersScope: true, days: eachDay('2023-01-01', '2024-04-10') }),
    await insertStore({ shopDomain: 'beta.myshop.example', name: null, clientId: org.clientA, currency: 'EUR', timezone: 'Europe/Paris', hasAllOrdersScope: false, days: eachDay('2024-01-01', '2024-04-10') }),
    await insertStore({ shopDomain: 'gamma.myshop.example', name: 'Gamma', clientId: org.clientB, currency: 'GBP', timezone: 'Europe/London', hasAllOrdersScope: true, days: eachDay('2024-02-01', '2024-04-10') }),
  ];
  const rng = random(99);
  daily = stores.flatMap((store) => store.days.map((date) => ({ commerce_store_id: store.id, date, ...sales(rng, 1) })));
  dimensions = stores.flatMap((store) =>
    store.days.flatMap((date) =>
      Object.entries(KEYS).flatMap(([dimension, keys]) =>
        keys
          .filter(() => rng() > 0.2)
          .map(([rowKey, label, detail]) => ({
            commerce_store_id: store.id,
            dimension,
            date,
            key: rowKey,
            label: rowKey === 'gid://product/2' && date >= '2024-03-20' ? 'Road Racer 2' : label,
            detail,
            ...sales(rng, 0.3),
          })),
      ),
    ),
  );
  await insertRows('store_daily', daily);
  await insertRows('store_dimensions_daily', dimensions);
  await recordSync(org.orgId, 'store', stores[0]!.id, '2024-04-11T06:00:00.000Z');
  await recordSync(org.orgId, 'store', stores[1]!.id, '2024-04-11T05:00:00.000Z');
  await recordSync(org.orgId, 'store', stores[2]!.id, '2024-04-11T07:00:00.000Z');
  key = await mintKey({ orgId: org.orgId, scopes: ['store:read'] });
});

function storeSet(rows: Row[]) {
  const money = (column: string) => total(rows, column, MONEY.includes(column));
  const gross = money('gross_sales');
  const net = money('net_sales');
  const orders = total(rows, 'orders');
  const customerDays = total(rows, 'customers');
  const magnitude = (value: number | null) => (value === null ? null : Math.abs(value));
  return {
    grossSales: gross,
    discounts: money('discounts'),
    returns: money('returns'),
    netSales: net,
    shipping: money('shipping'),
    taxes: money('taxes'),
    duties: money('duties'),
    tips: money('tips'),
    totalSales: money('total_sales'),
    orders,
    cancelledOrders: total(rows, 'cancelled_orders'),
    refundedOrders: total(rows, 'refunded_orders'),
    unitsSold: total(rows, 'units_sold'),
    customers: peak(rows, 'customers', 'commerce_store_id'),
    newCustomers: total(rows, 'new_customers'),
    returningCustomers: peak(rows, 'returning_customers', 'commerce_store_id'),
    averageOrderValue: rate(net, orders),
    averageUnitsPerOrder: rate(total(rows, 'units_sold'), orders),
    returnRate: rate(magnitude(money('returns')), gross, 100),
    discountRate: rate(magnitude(money('discounts')), gross, 100),
    newCustomerRate: rate(total(rows, 'new_customers'), customerDays, 100),
    revenuePerCustomer: rate(net, customerDays),
  };
}

const DAY_POINT = { netSales: 'net_sales', grossSales: 'gross_sales', orders: 'orders', unitsSold: 'units_sold', returns: 'returns', newCustomers: 'new_customers' };

function expectedStore(ids: string[], from: string, to: string, compare: { from: string; to: string } | null, limit: number, data = { daily, dimensions }) {
  const mine = (row: Row) => ids.includes(row.commerce_store_id as string);
  const current = data.daily.filter(mine).filter(inRange(from, to));
  const previous = compare ? data.daily.filter(mine).filter(inRange(compare.from, compare.to)) : null;
  const dimCurrent = data.dimensions.filter(mine).filter(inRange(from, to));
  const dimPrevious = compare ? data.dimensions.filter(mine).filter(inRange(compare.from, compare.to)) : null;
  return {
    totals: storeSet(current),
    previous: previous && storeSet(previous),
    series: series(current, from, to, DAY_POINT, ['netSales', 'grossSales', 'returns']),
    previousSeries: compare ? series(previous!, compare.from, compare.to, DAY_POINT, ['netSales', 'grossSales', 'returns']) : [],
    ...Object.fromEntries(
      Object.entries(TABLES).map(([name, dimension]) => {
        const rows = dimCurrent.filter((row) => row.dimension === dimension);
        return [
          name,
          rankedKeys(rows, 'net_sales')
            .slice(0, limit)
            .map((rowKey) => {
              const keyRows = rows.filter((row) => row.key === rowKey);
              const detail = latest(keyRows, 'detail');
              return {
                key: rowKey,
                label: latest(keyRows, 'label'),
                ...(detail === null ? {} : { detail }),
                totals: storeSet(keyRows),
                previous: dimPrevious ? storeSet(dimPrevious.filter((row) => row.dimension === dimension && row.key === rowKey)) : null,
              };
            }),
        ];
      }),
    ),
  };
}

function storeItem(store: Store, lastSyncedAt: string) {
  return { id: store.id, shopDomain: store.shopDomain, shopName: store.name, timezone: store.timezone, lastSyncedAt, hasAllOrdersScope: store.hasAllOrdersScope };
}

type Overview = { data: { from: string; to: string; compare: unknown; store: Record<string, unknown> | null }; meta: Record<string, unknown> };

async function overview(query: string, apiKey = key): Promise<Overview> {
  return expectContract<Overview>(storeOverviewOperation, await api(`/api/v1/store/overview?${query}`, { key: apiKey }));
}

describe('GET /store/overview', () => {
  it('sums one client’s stores over the range and the previous period', async () => {
    const body = await overview(`client=${org.clientA}&from=2024-03-01&to=2024-03-31`);
    const compare = { from: '2024-01-30', to: '2024-02-29' };
    expect(body.data.compare).toEqual(compare);
    expect(body.data.store).toEqual(
      approx({
        stores: [storeItem(stores[0]!, '2024-04-11T06:00:00.000Z'), storeItem(stores[1]!, '2024-04-11T05:00:00.000Z')],
        currency: 'EUR',
        ...expectedStore([stores[0]!.id, stores[1]!.id], '2024-03-01', '2024-03-31', compare, 25),
      }),
    );
    expect(body.meta).toEqual({ timezone: 'Asia/Kolkata', syncedAt: '2024-04-11T05:00:00.000Z', from: '2024-03-01', to: '2024-03-31', currency: 'EUR' });
    // The label is the latest of the range; the spec has no `partial` for stores.
    const products = body.data.store!.products as Array<{ key: string; label: string }>;
    expect(products.find((row) => row.key === 'gid://product/2')!.label).toBe('Road Racer 2');
    expect(body.data.store).not.toHaveProperty('partial');
  });

  it.each([
    ['prevMonth', '2024-03-01', '2024-03-31', { from: '2024-02-01', to: '2024-02-29' }],
    ['prevMonth', '2024-03-31', '2024-03-31', { from: '2024-02-29', to: '2024-02-29' }],
    ['prevMonth', '2024-02-01', '2024-02-29', { from: '2024-01-01', to: '2024-01-31' }],
    ['prevYear', '2024-02-29', '2024-02-29', { from: '2023-02-28', to: '2023-02-28' }],
    ['prevYear', '2024-02-01', '2024-02-29', { from: '2023-02-01', to: '2023-02-28' }],
    ['previous', '2024-03-01', '2024-04-10', { from: '2024-01-20', to: '2024-02-29' }],
  ])('compare=%s of %s…%s compares %o (mixed currencies: null currency)', async (mode, from, to, compare) => {
    const body = await overview(`from=${from}&to=${to}&compare=${mode}&limit=2`);
    expect(body.data.compare).toEqual(compare);
    expect(body.data.store).toEqual(
      approx({
        stores: expect.any(Array),
        currency: null,
        ...expectedStore(
          stores.map((store) => store.id),
          from,
          to,
          compare,
          2,
        ),
      }),
    );
    expect(body.meta.currency).toBeNull();
    expect(body.meta.syncedAt).toBe('2024-04-11T05:00:00.000Z');
  });

  it('compare=none; limit=1 and limit=100', async () => {
    const none = await overview(`client=${org.clientB}&from=2024-03-01&to=2024-03-15&compare=none&limit=1`);
    expect(none.data.compare).toBeNull();
    expect(none.data.store).toEqual(
      approx({ stores: [storeItem(stores[2]!, '2024-04-11T07:00:00.000Z')], currency: 'GBP', ...expectedStore([stores[2]!.id], '2024-03-01', '2024-03-15', null, 1) }),
    );
    const all = await overview(`client=${org.clientB}&from=2024-03-01&to=2024-03-15&limit=100`);
    expect((all.data.store!.products as unknown[]).length).toBe(4);
  });

  it('a key with no rows in the compare range gets a previous of nulls', async () => {
    // Gamma starts on 2024-02-01: its previous month of February is January, when it had no rows.
    const body = await overview(`client=${org.clientB}&from=2024-02-01&to=2024-02-29&compare=prevMonth`);
    const store = body.data.store!;
    expect(Object.values(store.previous as object).every((value) => value === null)).toBe(true);
    for (const row of store.channels as Array<{ previous: object }>) expect(Object.values(row.previous).every((value) => value === null)).toBe(true);
    expect((store.previousSeries as Array<{ orders: number | null }>).every((day) => day.orders === null)).toBe(true);
  });

  it('store is null without stores; restricted keys; other organisations never leak', async () => {
    const empty = await createOrg('store-empty');
    const emptyBody = await overview('from=2024-03-01&to=2024-03-31', await mintKey({ orgId: empty.orgId, scopes: ['store:read'] }));
    expect(emptyBody).toEqual({
      data: { from: '2024-03-01', to: '2024-03-31', compare: { from: '2024-01-30', to: '2024-02-29' }, store: null },
      meta: { timezone: 'Asia/Kolkata', syncedAt: null, from: '2024-03-01', to: '2024-03-31', currency: null },
    });

    const restricted = await mintKey({ orgId: org.orgId, scopes: ['store:read'], clientIds: [org.clientA] });
    const body = await overview('from=2024-03-01&to=2024-03-31', restricted);
    expect((body.data.store!.stores as Array<{ id: string }>).map((store) => store.id)).toEqual([stores[0]!.id, stores[1]!.id]);
    await expectProblem(await api(`/api/v1/store/overview?from=2024-03-01&to=2024-03-31&client=${org.clientB}`, { key: restricted }), 404, 'not_found');

    const other = inject('seed').orgs[1]!;
    const otherKey = await mintKey({ orgId: other.id, scopes: ['store:read'] });
    const otherBody = await overview('from=2024-03-01&to=2024-03-31', otherKey);
    const owned = await sql<{ id: string }>('SELECT id FROM commerce_stores WHERE org_id = $1', [other.id]);
    expect(((otherBody.data.store?.stores ?? []) as Array<{ id: string }>).map((store) => store.id).sort()).toEqual(owned.map((row) => row.id).sort());
    await expectProblem(await api(`/api/v1/store/overview?from=2024-03-01&to=2024-03-31&client=${org.clientA}`, { key: otherKey }), 404, 'not_found');
  });

  it('matches the seeded organisation, every figure computed from its rows', async () => {
    const main = inject('seed').orgs[0]!;
    const seeded = await sql<{ id: string; currency: string | null }>('SELECT id, currency FROM commerce_stores WHERE org_id = $1', [main.id]);
    const ids = seeded.map((store) => store.id);
    expect(ids.length).toBeGreaterThan(0);
    const rowsOf = async (table: string) =>
      (await sql<{ row: Row }>(`SELECT row_to_json(t) AS row FROM ${table} t WHERE commerce_store_id = ANY($1::uuid[])`, [ids])).map((r) => r.row);
    const data = { daily: await rowsOf('store_daily'), dimensions: await rowsOf('store_dimensions_daily') };
    const currencies = new Set(seeded.map((store) => store.currency));
    const body = await overview('from=2026-06-01&to=2026-06-30&compare=prevYear', await mintKey({ orgId: main.id, scopes: ['store:read'] }));
    expect(body.data.store).toEqual(
      approx({
        stores: expect.any(Array),
        currency: currencies.size === 1 ? [...currencies][0] : null,
        ...expectedStore(ids, '2026-06-01', '2026-06-30', { from: '2025-06-01', to: '2025-06-30' }, 25, data),
      }),
    );
    const current = await overview('from=2026-05-15&to=2026-06-14&limit=3', await mintKey({ orgId: main.id, scopes: ['store:read'] }));
    expect(current.data.store).toEqual(
      approx({
        stores: expect.any(Array),
        currency: currencies.size === 1 ? [...currencies][0] : null,
        ...expectedStore(ids, '2026-05-15', '2026-06-14', { from: '2026-04-14', to: '2026-05-14' }, 3, data),
      }),
    );
    expect((current.data.store!.totals as { netSales: number | null }).netSales).toBeGreaterThan(0);
  });

  it('granularity week and month: every figure summed over the bucket’s days, a mid-week from', async () => {
    const { range, weeks, months } = MID_WEEK_BUCKETS;
    const money = ['netSales', 'grossSales', 'returns'];
    // The whole organisation (read from its daily sums) by week, one client (from its stores' rows) by month.
    for (const [query, buckets, granularity] of [
      [range, weeks, 'week'],
      [`client=${org.clientA}&${range}`, months, 'month'],
    ] as const) {
      const byDay = (await overview(query)).data.store!;
      const bucketed = await overview(`${query}&granularity=${granularity}`);
      const store = bucketed.data.store!;
      expect(store.series).toEqual(approx(buckets.map(([from, to]) => bucketSums(byDay.series as Row[], from, to, Object.keys(DAY_POINT), money))));
      expect((store.previousSeries as Row[])[0]!.date).toBe((bucketed.data.compare as { from: string }).from);
      expect(total(store.previousSeries as Row[], 'orders')).toBe(total(byDay.previousSeries as Row[], 'orders'));
      expect({ ...store, series: [], previousSeries: [] }).toEqual({ ...byDay, series: [], previousSeries: [] });
    }
  });

  it('needs store:read; validates the query', async () => {
    const webOnly = await mintKey({ orgId: org.orgId, scopes: ['web:read'] });
    const forbidden = await expectProblem(await api('/api/v1/store/overview?from=2024-03-01&to=2024-03-31', { key: webOnly }), 403, 'forbidden');
    expect(forbidden.detail).toContain('store:read');
    await expectProblem(await api('/api/v1/store/overview?from=2024-03-01&to=2024-03-31'), 401, 'unauthorized');
    const problem = await expectProblem(await api('/api/v1/store/overview?from=2024-13-01&to=2024-03-31&compare=PREVIOUS&limit=-1&granularity=Week', { key }), 400, 'validation_failed');
    expect(problem.errors!.map((e) => e.path).sort()).toEqual(['compare', 'from', 'granularity', 'limit']);
  });
});
