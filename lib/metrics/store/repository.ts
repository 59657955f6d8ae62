// The SQL of the store endpoint: the stores in reach, and the tables and metric columns of the store
// source, which the shared range aggregates (dimension-tables/queries/) read.
import { reachCondition, type Reach } from '../../reach/reach';
import { readSql as sql } from '../../db';
import type { DailySource, DimensionSource, MetricColumns } from '../dimension-tables/repository';
import { STORE_TABLES, type StoreDimension } from './definitions';

export interface StoreRow {
  id: string;
  shop_domain: string;
  name: string | null;
  timezone: string | null;
  currency: string | null;
  has_all_orders_scope: boolean;
}

/** Index: commerce_stores (org_id, client_id). */
export function storesInReach(reach: Reach): Promise<StoreRow[]> {
  return sql<StoreRow>(
    `SELECT s.id, s.shop_domain, s.name, s.timezone, s.currency, s.has_all_orders_scope FROM commerce_stores s
      WHERE ${reachCondition('s', 1, 2)}
      ORDER BY s.shop_domain, s.id`,
    [reach.orgId, reach.clientIds],
  );
}

const STORE_COLUMNS: MetricColumns = {
  summed: {
    grossSales: 't.gross_sales',
    discounts: 't.discounts',
    returns: 't.returns',
    netSales: 't.net_sales',
    shipping: 't.shipping',
    taxes: 't.taxes',
    duties: 't.duties',
    tips: 't.tips',
    totalSales: 't.total_sales',
    orders: 't.orders',
    cancelledOrders: 't.cancelled_orders',
    refundedOrders: 't.refunded_orders',
    unitsSold: 't.units_sold',
    newCustomers: 't.new_customers',
  },
  peak: { customers: 't.customers', returningCustomers: 't.returning_customers' },
};

export const STORE_DAILY: DailySource = { table: 'store_daily', resourceColumn: 'commerce_store_id', metrics: STORE_COLUMNS, orgDailyTable: 'store_org_daily' };

export const STORE_DIMENSIONS: DimensionSource<StoreDimension> = {
  table: 'store_dimensions_daily',
  monthlyTable: 'store_dimensions_monthly',
  tenDayTable: 'store_dimensions_tenday',
  orgRollups: {
    dailyTable: 'store_dimensions_org_daily',
    monthlyTable: 'store_dimensions_org_monthly',
    tenDayTable: 'store_dimensions_org_tenday',
  },
  resourceColumn: 'commerce_store_id',
  dimensionType: 'StoreDimension',
  dimensions: Object.values(STORE_TABLES),
  labelled: true,
  metrics: STORE_COLUMNS,
  sortBy: 'netSales',
};
