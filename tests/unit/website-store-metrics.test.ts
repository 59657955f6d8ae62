import { describe, expect, it } from 'vitest';
import { singleCurrency, splitRange } from '@/lib/metrics/dimension-tables';
import { addDays, eachDay } from '@/lib/time/days';
import { storeMetricSet, STORE_METRICS } from '@/lib/metrics/store/metrics';
import { storeMetricSetSchema } from '@/lib/metrics/store/schemas';
import { searchMetricSet, webMetricSet, WEB_METRICS } from '@/lib/metrics/website/metrics';
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

describe('singleCurrency', () => {
  it('is the common currency, or null when they differ or one is unknown', () => {
    expect(singleCurrency(['EUR', 'EUR'])).toBe('EUR');
    expect(singleCurrency(['EUR', 'USD'])).toBeNull();
    expect(singleCurrency(['EUR', null])).toBeNull();
    expect(singleCurrency([])).toBeNull();
  });
});

describe('splitRange (whole months and ten-day blocks from the rollups, the other days from the daily tables)', () => {
  const none = { headDays: null, headBlocks: null, months: null, tailBlocks: null, tailDays: null };

  it('cuts a range into head days, head blocks, whole months, tail blocks and tail days', () => {
    expect(splitRange({ from: '2025-11-08', to: '2026-11-24' })).toEqual({
      headDays: { from: '2025-11-08', to: '2025-11-10' },
      headBlocks: { from: '2025-11-11', to: '2025-11-21' },
      months: { from: '2025-12-01', to: '2026-10-01' },
      tailBlocks: { from: '2026-11-01', to: '2026-11-11' },
      tailDays: { from: '2026-11-21', to: '2026-11-24' },
    });
  });

  it('whole months only, across a leap February and a year end', () => {
    expect(splitRange({ from: '2023-12-01', to: '2024-02-29' })).toEqual({ ...none, months: { from: '2023-12-01', to: '2024-02-01' } });
    expect(splitRange({ from: '2024-02-01', to: '2024-02-29' })).toEqual({ ...none, months: { from: '2024-02-01', to: '2024-02-01' } });
  });

  it('no whole month: whole blocks between the days before and after them', () => {
    expect(splitRange({ from: '2026-03-02', to: '2026-03-31' })).toEqual({
      ...none,
      headDays: { from: '2026-03-02', to: '2026-03-10' },
      headBlocks: { from: '2026-03-11', to: '2026-03-21' },
    });
    expect(splitRange({ from: '2026-01-15', to: '2026-02-27' })).toEqual({
      ...none,
      headDays: { from: '2026-01-15', to: '2026-01-20' },
      headBlocks: { from: '2026-01-21', to: '2026-02-11' },
      tailDays: { from: '2026-02-21', to: '2026-02-27' },
    });
  });

  it('the last block of a month runs to its end (28 to 31 days long months)', () => {
    expect(splitRange({ from: '2026-02-21', to: '2026-02-28' })).toEqual({ ...none, headBlocks: { from: '2026-02-21', to: '2026-02-21' } });
    expect(splitRange({ from: '2024-02-21', to: '2024-02-28' })).toEqual({ ...none, headDays: { from: '2024-02-21', to: '2024-02-28' } });
    expect(splitRange({ from: '2026-01-21', to: '2026-01-30' })).toEqual({ ...none, headDays: { from: '2026-01-21', to: '2026-01-30' } });
  });

  it('a week inside one block is read day by day', () => {
    expect(splitRange({ from: '2026-06-24', to: '2026-06-30' })).toEqual({ ...none, headDays: { from: '2026-06-24', to: '2026-06-30' } });
    expect(splitRange({ from: '2026-02-28', to: '2026-02-28' })).toEqual({ ...none, headDays: { from: '2026-02-28', to: '2026-02-28' } });
  });

  it('covers every day of any range exactly once, reading at most ten days of each end from the daily table', () => {
    const blockEnd = (start: string) => (start.endsWith('21') ? addDays(`${addDays(`${start.slice(0, 8)}01`, 31).slice(0, 8)}01`, -1) : addDays(start, 9));
    const monthEnd = (start: string) => addDays(`${addDays(start, 31).slice(0, 8)}01`, -1);
    const expand = (part: { from: string; to: string } | null, end: (start: string) => string) => {
      const days: string[] = [];
      for (let start = part?.from; part && start! <= part.to; start = addDays(end(start!), 1)) days.push(...eachDay(start!, end(start!)));
      return days;
    };
    const single = (day: string) => day;
    for (const from of eachDay('2023-12-01', '2024-12-31')) {
      for (const length of [1, 2, 7, 9, 10, 11, 12, 20, 21, 28, 29, 30, 31, 32, 45, 59, 60, 61, 90, 91, 120, 365, 366, 400]) {
        const to = addDays(from, length - 1);
        const split = splitRange({ from, to });
        const days = [
          ...expand(split.headDays, single),
          ...expand(split.headBlocks, blockEnd),
          ...expand(split.months, monthEnd),
          ...expand(split.tailBlocks, blockEnd),
          ...expand(split.tailDays, single),
        ];
        expect(days, `${from}..${to}`).toEqual(eachDay(from, to));
        // Days are read only in the partial blocks at the two ends: at most ten days each.
        const dailyDays = [split.headDays, split.tailDays].map((part) => (part ? eachDay(part.from, part.to).length : 0));
        expect(dailyDays[0]! + dailyDays[1]!, `${from}..${to}`).toBeLessThanOrEqual(20);
        if (split.headDays && split.tailDays) expect(Math.max(...dailyDays), `${from}..${to}`).toBeLessThanOrEqual(10);
      }
    }
  });
});
