import { describe, expect, it } from 'vitest';
import { storeMetricSet, STORE_METRICS } from '@/lib/metrics/store/definitions';
import { storeMetricSetSchema } from '@/lib/metrics/store/schemas';
import { searchMetricSet, webMetricSet, WEB_METRICS } from '@/lib/metrics/website/definitions';
import { webMetricSetSchema } from '@/lib/metrics/website/schemas';

describe('webMetricSet', () => {
  it('derives every rate from the sums, as percentages where it is a rate', () => {
    const set = webMetricSet({
      sessions: 200,
      engagedSessions: 120,
      sessionDurationWeighted: 9000,
      screenPageViews: 600,
      eventCount: 1400,
      keyEvents: 10,
      totalRevenue: 500.5,
      totalUsers: 90,
      totalUsersDays: 170,
      activeUsers: 80,
      activeUsersDays: 160,
    });
    expect(set).toMatchObject({
      engagementRate: 60,
      bounceRate: 40,
      averageSessionDuration: 45,
      sessionsPerUser: 1.25,
      screenPageViewsPerSession: 3,
      eventCountPerUser: 8.75,
      conversionRate: 5,
      revenuePerSession: 2.5025,
      totalUsers: 90,
      activeUsers: 80,
    });
  });

  it('never makes up a zero: no sessions or unreported inputs give null rates', () => {
    const set = webMetricSet({ sessions: 0, engagedSessions: 0, activeUsersDays: 0 });
    expect(set.engagementRate).toBeNull();
    expect(set.bounceRate).toBeNull();
    expect(set.sessionsPerUser).toBeNull();
    expect(set.conversionRate).toBeNull();
    expect(Object.values(webMetricSet({})).every((value) => value === null)).toBe(true);
  });

  it('has exactly the spec’s fields, in its order, each documented in the schema', () => {
    const names = WEB_METRICS.map((definition) => definition.name);
    expect(names).toEqual([
      'sessions', 'totalUsers', 'activeUsers', 'newUsers', 'engagedSessions', 'screenPageViews', 'eventCount', 'keyEvents', 'totalRevenue', 'purchaseRevenue',
      'transactions', 'ecommercePurchases', 'userEngagementDuration', 'sessionDurationWeighted', 'engagementRate', 'bounceRate', 'averageSessionDuration',
      'sessionsPerUser', 'screenPageViewsPerSession', 'eventCountPerUser', 'conversionRate', 'revenuePerSession',
    ]);
    expect(Object.keys(webMetricSet({}))).toEqual(names);
    expect(Object.keys(webMetricSetSchema.shape)).toEqual(names);
    for (const name of names) expect(webMetricSetSchema.shape[name].description).toBeTruthy();
  });
});

describe('searchMetricSet', () => {
  it('weights position by impressions and gives ctr in percent', () => {
    expect(searchMetricSet({ clicks: 5, impressions: 200, positionWeight: 700, positionImpressions: 100 })).toEqual({ clicks: 5, impressions: 200, ctr: 2.5, position: 7 });
    expect(searchMetricSet({ clicks: 0, impressions: 0, positionWeight: null, positionImpressions: null })).toEqual({ clicks: 0, impressions: 0, ctr: null, position: null });
  });
});

describe('storeMetricSet', () => {
  it('derives rates from the sums; returns and discounts count by their size whatever their sign', () => {
    const base = { grossSales: 1000, netSales: 800, orders: 20, unitsSold: 50, newCustomers: 6, customers: 12, customersDays: 30 };
    for (const sign of [1, -1]) {
      expect(storeMetricSet({ ...base, returns: 50 * sign, discounts: 150 * sign })).toMatchObject({
        averageOrderValue: 40,
        averageUnitsPerOrder: 2.5,
        returnRate: 5,
        discountRate: 15,
        newCustomerRate: 20,
        revenuePerCustomer: 800 / 30,
        customers: 12,
      });
    }
    expect(storeMetricSet({ grossSales: 0, orders: 0, returns: 0 })).toMatchObject({ returnRate: null, averageOrderValue: null, newCustomerRate: null });
  });

  it('has exactly the spec’s fields, in its order', () => {
    const names = STORE_METRICS.map((definition) => definition.name);
    expect(names).toEqual([
      'grossSales', 'discounts', 'returns', 'netSales', 'shipping', 'taxes', 'duties', 'tips', 'totalSales', 'orders', 'cancelledOrders', 'refundedOrders',
      'unitsSold', 'customers', 'newCustomers', 'returningCustomers', 'averageOrderValue', 'averageUnitsPerOrder', 'returnRate', 'discountRate',
      'newCustomerRate', 'revenuePerCustomer',
    ]);
    expect(Object.keys(storeMetricSet({}))).toEqual(names);
    expect(Object.keys(storeMetricSetSchema.shape)).toEqual(names);
  });
});
