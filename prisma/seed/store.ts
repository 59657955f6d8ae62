// Commerce stores with daily totals and daily rows per dimension, on the store's own day.
//
// Every row, totals and dimension rows alike, satisfies net_sales = gross_sales - discounts - returns and
// total_sales = net_sales + shipping + taxes + duties + tips. Every dimension (product, channel, referrer,
// country, discount) partitions the day: each additive metric sums exactly to store_daily. Orders are
// attributed to one key per dimension (for products: the order's main product), and customers likewise,
// customers = new_customers + returning_customers on every row.
// Keys: product key = handle, label = title; channel key = sales channel handle ("online_store"), label its
// name; referrer key = "google" | "direct" | …; country key = ISO 3166-1 alpha-2, label = English name;
// discount key = code, label = code, detail = the offer, with "(none)" for orders without a code (its
// discounts are 0). Stores without the all-orders scope only see orders from 60 days before they were
// connected; one store in four reports customer counts only from 25% into the range (null before).
import type { Calendar } from './calendar';
import { COUNTRIES, countryWeights, DISCOUNT_CODES, STORE_CHANNELS, STORE_REFERRERS } from './catalog';
import type { Row, SourceTables } from './copy';
import { clientOf, type OrgModel, type SeedContext } from './context';
import { money, splitNullable } from './numbers';
import type { Rng } from './random';

const M = {
  grossSales: 0,
  discounts: 1,
  returns: 2,
  netSales: 3,
  shipping: 4,
  taxes: 5,
  duties: 6,
  tips: 7,
  totalSales: 8,
  orders: 9,
  cancelledOrders: 10,
  refundedOrders: 11,
  unitsSold: 12,
  customers: 13,
  newCustomers: 14,
  returningCustomers: 15,
} as const;
const METRIC_COLUMNS = [
  'gross_sales', 'discounts', 'returns', 'net_sales', 'shipping', 'taxes', 'duties', 'tips', 'total_sales',
  'orders', 'cancelled_orders', 'refunded_orders', 'units_sold', 'customers', 'new_customers', 'returning_customers',
];
const MONEY_METRICS = 9;
/** Metrics split directly; net, total and customers are derived per row so the identities hold. */
const SPLIT_METRICS = [M.grossSales, M.discounts, M.returns, M.shipping, M.taxes, M.duties, M.tips, M.orders, M.cancelledOrders, M.refundedOrders, M.unitsSold, M.newCustomers, M.returningCustomers];

type Metrics = (number | null)[];

const ZONES = [
  { currency: 'USD', timezone: 'America/New_York', country: 'US', taxRate: 0.07, usdRate: 1 },
  { currency: 'INR', timezone: 'Asia/Kolkata', country: 'IN', taxRate: 0.18, usdRate: 83 },
  { currency: 'GBP', timezone: 'Europe/London', country: 'GB', taxRate: 0.2, usdRate: 0.8 },
] as const;

export interface StoreModel {
  id: string;
  org: OrgModel;
  clientId: string;
  shopDomain: string;
  name: string;
  currency: string;
  timezone: string;
  hasAllOrdersScope: boolean;
  createdAt: string;
  startDay: number;
  customersFrom: number;
  products: { handle: string; title: string; priceCents: number }[];
  baseOrders: number;
  homeCountry: string;
  taxRate: number;
  tips: boolean;
}

function handle(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

export function buildStores(ctx: SeedContext, org: OrgModel): StoreModel[] {
  const rng = org.rng.fork('store');
  const cal = ctx.calendar;
  return Array.from({ length: org.shape.stores }, (_, i) => {
    const srng = rng.fork(`store/${i}`);
    const client = clientOf(org, i);
    const zone = ZONES[i % ZONES.length] as (typeof ZONES)[number];
    const second = i >= org.clients.length;
    const hasAllOrdersScope = i % 3 !== 1;
    const connectedDay = hasAllOrdersScope ? -srng.int(5, 30) : Math.floor(cal.days * 0.5);
    return {
      id: org.ids.uuid('commerce_store'),
      org,
      clientId: client.id,
      shopDomain: `${client.slug}${second ? '-wholesale' : ''}.myshopify.com`,
      name: second ? `${client.name} Wholesale` : client.name,
      currency: zone.currency,
      timezone: zone.timezone,
      hasAllOrdersScope,
      createdAt: cal.istTime(connectedDay, srng.float(9, 19)),
      startDay: hasAllOrdersScope ? 0 : Math.max(0, connectedDay - 60),
      customersFrom: i % 4 === 3 ? Math.floor(cal.days * 0.25) : 0,
      products: client.category.products.map((p) => ({
        handle: handle(p.title),
        title: p.title,
        // Local prices end in .99, or in 99 rupees, as shops price them.
        priceCents:
          zone.currency === 'INR' ? (Math.round((p.priceUsd * zone.usdRate) / 100) * 100 - 1) * 100 : Math.round(p.priceUsd * zone.usdRate) * 100 - 1,
      })),
      baseOrders: srng.int(4, 120),
      homeCountry: zone.country,
      taxRate: zone.taxRate,
      tips: zone.currency === 'USD',
    };
  });
}

function dayTotals(s: StoreModel, cal: Calendar, d: number, rng: Rng): Metrics {
  const weekly = [1.15, 0.92, 0.9, 0.94, 0.98, 1.04, 1.12][cal.weekday(d)] ?? 1;
  const month = cal.month(d);
  const festive = s.currency === 'INR' ? (month === 10 || month === 11 ? 1.4 : 1) : month === 11 ? 1.5 : month === 12 ? 1.25 : 1;
  const orders = Math.round(s.baseOrders * weekly * festive * (0.85 + (0.3 * d) / cal.days) * rng.noise(0.2));
  const units = Math.round(orders * rng.float(1.2, 2.2));
  const averagePrice = s.products.reduce((n, p) => n + p.priceCents, 0) / Math.max(1, s.products.length);
  const gross = Math.round(units * averagePrice * rng.noise(0.1));
  const discounts = Math.round(gross * rng.float(0, 0.12));
  const returns = rng.chance(0.3) ? 0 : Math.round(gross * rng.float(0, 0.06));
  const net = gross - discounts - returns;
  const shippingFee = s.currency === 'INR' ? 9900 : 699;
  const shipping = Math.round(orders * shippingFee * rng.float(0.3, 0.8));
  const taxes = Math.round(net * s.taxRate);
  const duties = rng.chance(0.2) ? Math.round(net * 0.01) : 0;
  const tips = s.tips ? Math.round(orders * rng.float(0, 0.3) * 100) : 0;
  const customers = orders - Math.round(orders * rng.float(0, 0.08));
  const newCustomers = Math.round(customers * rng.float(0.4, 0.7));
  const reportsCustomers = d >= s.customersFrom;
  const m: Metrics = new Array(METRIC_COLUMNS.length).fill(null);
  m[M.grossSales] = gross;
  m[M.discounts] = discounts;
  m[M.returns] = returns;
  m[M.netSales] = net;
  m[M.shipping] = shipping;
  m[M.taxes] = taxes;
  m[M.duties] = duties;
  m[M.tips] = tips;
  m[M.totalSales] = net + shipping + taxes + duties + tips;
  m[M.orders] = orders;
  m[M.cancelledOrders] = Math.round(orders * rng.float(0, 0.04));
  m[M.refundedOrders] = returns > 0 ? Math.max(1, Math.round(orders * rng.float(0, 0.05))) : 0;
  m[M.unitsSold] = units;
  m[M.customers] = reportsCustomers ? customers : null;
  m[M.newCustomers] = reportsCustomers ? newCustomers : null;
  m[M.returningCustomers] = reportsCustomers ? customers - newCustomers : null;
  return m;
}

/** The store's daily totals, from their own stream so that both tables can replay them. */
function* storeDays(s: StoreModel, cal: Calendar): Generator<{ d: number; totals: Metrics }> {
  const rng = s.org.rng.fork(`store-totals/${s.id}`);
  for (let d = s.startDay; d < cal.days; d++) yield { d, totals: dayTotals(s, cal, d, rng) };
}

/** Splits a day over keys; `discountWeights` replaces the weights for the discounts metric. */
function split(totals: Metrics, weights: readonly number[], discountWeights = weights): Metrics[] {
  const parts: Metrics[] = weights.map(() => new Array(METRIC_COLUMNS.length).fill(null));
  for (const m of SPLIT_METRICS) {
    splitNullable(totals[m] ?? null, m === M.discounts ? discountWeights : weights).forEach((v, k) => ((parts[k] as Metrics)[m] = v));
  }
  for (const p of parts) {
    const net = (p[M.grossSales] ?? 0) - (p[M.discounts] ?? 0) - (p[M.returns] ?? 0);
    p[M.netSales] = net;
    p[M.totalSales] = net + (p[M.shipping] ?? 0) + (p[M.taxes] ?? 0) + (p[M.duties] ?? 0) + (p[M.tips] ?? 0);
    const newCustomers = p[M.newCustomers] ?? null;
    const returning = p[M.returningCustomers] ?? null;
    p[M.customers] = newCustomers === null || returning === null ? null : newCustomers + returning;
  }
  return parts;
}

function formatMetrics(m: Metrics): (string | number | null)[] {
  return m.map((v, i) => (v === null ? null : i < MONEY_METRICS ? money(v) : v));
}

function* dimensionRows(s: StoreModel, cal: Calendar): Generator<Row> {
  const rng = s.org.rng.fork(`store-dimensions/${s.id}`);
  const popularity = s.products.map(() => rng.float(0.3, 2));
  const homeWeights = countryWeights(s.homeCountry);
  for (const { d, totals } of storeDays(s, cal)) {
    const date = cal.date(d);
    const emit = function* (dimension: string, keys: readonly { key: string; label: string; detail?: string | null }[], parts: Metrics[]): Generator<Row> {
      for (let k = 0; k < keys.length; k++) {
        const m = parts[k] as Metrics;
        if (!m.some((v) => v !== null && v !== 0)) continue;
        const key = keys[k] as (typeof keys)[number];
        yield [s.id, dimension, date, key.key, key.label, key.detail ?? null, ...formatMetrics(m)];
      }
    };
    yield* emit(
      'product',
      s.products.map((p) => ({ key: p.handle, label: p.title })),
      split(totals, s.products.map((p, i) => (popularity[i] ?? 1) * p.priceCents * rng.noise(0.2))),
    );
    yield* emit('channel', STORE_CHANNELS, split(totals, STORE_CHANNELS.map((c) => c.weight * rng.noise(0.15))));
    yield* emit('referrer', STORE_REFERRERS, split(totals, STORE_REFERRERS.map((r) => r.weight * rng.noise(0.15))));
    yield* emit(
      'country',
      COUNTRIES.map((c) => ({ key: c.iso2, label: c.name })),
      split(totals, homeWeights.map((w) => w * rng.noise(0.15))),
    );
    const discountKeys = [{ key: '(none)', label: 'No discount', detail: null }, ...DISCOUNT_CODES];
    const codeWeights = DISCOUNT_CODES.map((c) => c.weight * rng.noise(0.2));
    const noneWeight = 1 - codeWeights.reduce((n, w) => n + w, 0);
    yield* emit('discount', discountKeys, split(totals, [Math.max(0.2, noneWeight), ...codeWeights], [0, ...codeWeights]));
  }
}

export function storeTables(ctx: SeedContext, stores: readonly StoreModel[]): SourceTables {
  const cal = ctx.calendar;
  const days = stores.reduce((n, s) => n + cal.days - s.startDay, 0);
  const keysPerDay = 8 + STORE_CHANNELS.length + STORE_REFERRERS.length + COUNTRIES.length + DISCOUNT_CODES.length + 1;
  return {
    entities: [
      {
        table: 'commerce_stores',
        columns: ['id', 'org_id', 'client_id', 'shop_domain', 'name', 'currency', 'timezone', 'has_all_orders_scope', 'created_at'],
        expectedRows: stores.length,
        rows: () => stores.map((s) => [s.id, s.org.id, s.clientId, s.shopDomain, s.name, s.currency, s.timezone, s.hasAllOrdersScope, s.createdAt]),
      },
    ],
    facts: [
      {
        table: 'store_daily',
        columns: ['commerce_store_id', 'date', ...METRIC_COLUMNS],
        expectedRows: days,
        rows: function* () {
          for (const s of stores) for (const { d, totals } of storeDays(s, cal)) yield [s.id, cal.date(d), ...formatMetrics(totals)];
        },
      },
      {
        table: 'store_dimensions_daily',
        columns: ['commerce_store_id', 'dimension', 'date', 'key', 'label', 'detail', ...METRIC_COLUMNS],
        // An upper bound: every key of every dimension, every day.
        expectedRows: days * keysPerDay,
        rows: function* () {
          for (const s of stores) yield* dimensionRows(s, cal);
        },
      },
    ],
  };
}
