// The store metric set: the response's tables, every metric's definition and how every rate is derived
// from the range's sums (the columns they are summed from are in repository.ts). Definitions are
// written once here and feed the response schema, the operation description and describe_metrics (the
// team's MetricDefinition shape, plain data).
import { metric } from '../definitions';
import type { Sums } from '../dimension-tables/repository';
import { ratio } from '../ratios';

/** Response table name → dimension of `store_dimensions_daily`, in the spec's order. */
export const STORE_TABLES = {
  products: 'product',
  channels: 'channel',
  referrers: 'referrer',
  countries: 'country',
  discounts: 'discount',
} as const;

export type StoreDimension = (typeof STORE_TABLES)[keyof typeof STORE_TABLES];

const SUMMED = 'Summed over days and stores.';
const MONEY_SUM = `${SUMMED} Exact decimal sum.`;
const REPORTED = 'when no row of the range reported it.';
const PEOPLE =
  "A count of people, which does not add up over days: each store's peak single-day value in the range, summed over the stores (for one store, its peak day); a lower bound of the unique count, never a sum over days.";
const DERIVED = "Derived from the range's sums (never averaged from daily rates).";
const NO_DENOMINATOR = 'when its denominator is 0 or not reported, or its numerator is not reported.';
const MONEY_UNIT = '`currency` (mixed when `currency` is null, see the currency note)';
const money = <N extends string>(name: N, definition: string) => metric(name, { kind: 'amount', unit: MONEY_UNIT, definition, aggregation: MONEY_SUM, whenNull: REPORTED });
const count = <N extends string>(name: N, unit: string, definition: string) => metric(name, { kind: 'count', unit, definition, aggregation: SUMMED, whenNull: REPORTED });

/** Every field of the store metric set, in the spec's order. */
export const STORE_METRICS = [
  money('grossSales', 'Gross sales: product prices × quantities, before discounts and returns.'),
  money('discounts', 'Discounts given, with the sign the store platform reports them.'),
  money('returns', 'Value of returned items, with the sign the store platform reports them.'),
  money('netSales', 'Net sales: gross sales after discounts and returns.'),
  money('shipping', 'Shipping charged.'),
  money('taxes', 'Taxes charged.'),
  money('duties', 'Duties charged.'),
  money('tips', 'Tips received.'),
  money('totalSales', 'Total sales: net sales with shipping, taxes, duties and tips.'),
  count('orders', 'orders', 'Orders placed.'),
  count('cancelledOrders', 'orders', 'Orders cancelled.'),
  count('refundedOrders', 'orders', 'Orders refunded.'),
  count('unitsSold', 'units', 'Units sold.'),
  metric('customers', { kind: 'count', unit: 'people', definition: 'Customers who ordered.', aggregation: PEOPLE, whenNull: REPORTED }),
  metric('newCustomers', { kind: 'count', unit: 'people', definition: 'First-time customers.', aggregation: `${SUMMED} (each customer is new once).`, whenNull: REPORTED }),
  metric('returningCustomers', { kind: 'count', unit: 'people', definition: 'Customers who had ordered before.', aggregation: PEOPLE, whenNull: REPORTED }),
  metric('averageOrderValue', {
    kind: 'ratio',
    unit: MONEY_UNIT,
    definition: 'netSales / orders (net of discounts and returns; shipping, taxes, duties and tips excluded).',
    aggregation: DERIVED,
    whenNull: NO_DENOMINATOR,
  }),
  metric('averageUnitsPerOrder', { kind: 'ratio', unit: 'units per order', definition: 'unitsSold / orders.', aggregation: DERIVED, whenNull: NO_DENOMINATOR }),
  metric('returnRate', {
    kind: 'ratio',
    unit: 'percent (0–100)',
    definition: '100 × |returns| / grossSales (the size of returns, whatever sign the platform gives them).',
    aggregation: DERIVED,
    whenNull: NO_DENOMINATOR,
  }),
  metric('discountRate', { kind: 'ratio', unit: 'percent (0–100)', definition: '100 × |discounts| / grossSales.', aggregation: DERIVED, whenNull: NO_DENOMINATOR }),
  metric('newCustomerRate', {
    kind: 'ratio',
    unit: 'percent (0–100)',
    definition: '100 × newCustomers / Σ daily customers (new customers among customer-days).',
    aggregation: DERIVED,
    whenNull: NO_DENOMINATOR,
  }),
  metric('revenuePerCustomer', {
    kind: 'ratio',
    unit: MONEY_UNIT,
    definition: 'netSales / Σ daily customers (net sales per customer per day).',
    aggregation: DERIVED,
    whenNull: NO_DENOMINATOR,
  }),
] as const;

export type StoreMetricSet = Record<(typeof STORE_METRICS)[number]['name'], number | null>;

const magnitude = (value: number | null | undefined) => (value === null || value === undefined ? null : Math.abs(value));

/** The metric set of a range from its sums; each rate follows its definition above (null when its denominator is 0 or not reported). */
export function storeMetricSet(sums: Sums): StoreMetricSet {
  const grossSales = sums.grossSales ?? null;
  const netSales = sums.netSales ?? null;
  const orders = sums.orders ?? null;
  const customerDays = sums.customersDays ?? null;
  return {
    grossSales,
    discounts: sums.discounts ?? null,
    returns: sums.returns ?? null,
    netSales,
    shipping: sums.shipping ?? null,
    taxes: sums.taxes ?? null,
    duties: sums.duties ?? null,
    tips: sums.tips ?? null,
    totalSales: sums.totalSales ?? null,
    orders,
    cancelledOrders: sums.cancelledOrders ?? null,
    refundedOrders: sums.refundedOrders ?? null,
    unitsSold: sums.unitsSold ?? null,
    customers: sums.customers ?? null,
    newCustomers: sums.newCustomers ?? null,
    returningCustomers: sums.returningCustomers ?? null,
    averageOrderValue: ratio(netSales, orders),
    averageUnitsPerOrder: ratio(sums.unitsSold, orders),
    returnRate: ratio(magnitude(sums.returns), grossSales, 100),
    discountRate: ratio(magnitude(sums.discounts), grossSales, 100),
    newCustomerRate: ratio(sums.newCustomers, customerDays, 100),
    revenuePerCustomer: ratio(netSales, customerDays),
  };
}

export const STORE_DAY_FIELDS = ['netSales', 'grossSales', 'orders', 'unitsSold', 'returns', 'newCustomers'] as const;
