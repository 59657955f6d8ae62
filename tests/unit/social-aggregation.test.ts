// The aggregation rules of /social/overview on hand-made daily rows: flows summed, reach at its peak
// day, engagement rate over the page-days that reported both, null kept apart from zero.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dailySeries, peakReported, platformTotals, postTotalsOf, seriesOf, sumReported } from '@/lib/metrics/social/overview';
import { bucketsOf } from '@/lib/time/buckets';
import type { DailyAggregateRow } from '@/lib/metrics/social/repository';

const str = (value: number | null) => (value === null ? null : String(value));

function day(date: string, figures: Partial<Record<Exclude<keyof DailyAggregateRow, 'platform' | 'date'>, number | null>>): DailyAggregateRow {
  const pick = (name: Exclude<keyof DailyAggregateRow, 'platform' | 'date'>) => str(figures[name] ?? null);
  return {
    platform: 'facebook',
    date,
    reach: pick('reach'),
    impressions: pick('impressions'),
    views: pick('views'),
    profile_views: pick('profile_views'),
    interactions: pick('interactions'),
    new_follows: pick('new_follows'),
    followers: pick('followers'),
    paired_interactions: pick('paired_interactions'),
    paired_reach: pick('paired_reach'),
  };
}

describe('sumReported and peakReported', () => {
  it('are null when nothing is reported, and ignore unreported values otherwise', () => {
    expect(sumReported([])).toBeNull();
    expect(sumReported([null, null])).toBeNull();
    expect(sumReported([null, 0])).toBe(0);
    expect(sumReported([3, null, 4])).toBe(7);
    expect(peakReported([null])).toBeNull();
    expect(peakReported([0, null])).toBe(0);
    expect(peakReported([3, null, 9, 4])).toBe(9);
  });

  it('match a plain sum and max over the reported values', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.nat({ max: 1_000_000 }), { nil: null })), (values) => {
        const reported = values.filter((v): v is number => v !== null);
        expect(sumReported(values)).toBe(reported.length ? reported.reduce((a, b) => a + b, 0) : null);
        expect(peakReported(values)).toBe(reported.length ? Math.max(...reported) : null);
      }),
    );
  });
});

describe('platformTotals', () => {
  const days = [
    day('2026-06-01', { reach: 100, impressions: 300, views: null, profile_views: 5, interactions: 10, new_follows: 2, paired_interactions: 10, paired_reach: 100 }),
    day('2026-06-02', { reach: 250, impressions: 500, views: null, profile_views: null, interactions: 30, new_follows: 0, paired_interactions: 20, paired_reach: 150 }),
    day('2026-06-03', { reach: null, impressions: null, views: null, profile_views: 1, interactions: 7, new_follows: null }),
  ];

  it('sums flows, takes the peak day for reach, passes followers through and rates over paired page-days', () => {
    expect(platformTotals(days, 1234)).toEqual({
      reach: 250,
      impressions: 800,
      views: null,
      profileViews: 6,
      interactions: 47,
      newFollows: 2,
      followers: 1234,
      engagementRate: (100 * (10 + 20)) / (100 + 150),
    });
  });

  it('is all null for a period without rows, and the rate is null when the paired reach is 0', () => {
    expect(platformTotals([], null)).toEqual({
      reach: null,
      impressions: null,
      views: null,
      profileViews: null,
      interactions: null,
      newFollows: null,
      followers: null,
      engagementRate: null,
    });
    expect(platformTotals([day('2026-06-01', { paired_interactions: 5, paired_reach: 0 })], null).engagementRate).toBeNull();
  });
});

describe('dailySeries', () => {
  it('has one point per day of the range, null figures on days without rows', () => {
    const series = dailySeries([day('2026-06-02', { reach: 4, followers: 90 })], '2026-06-01', '2026-06-03');
    const empty = { reach: null, impressions: null, views: null, interactions: null, newFollows: null, followers: null };
    expect(series).toEqual([
      { date: '2026-06-01', ...empty },
      { date: '2026-06-02', ...empty, reach: 4, followers: 90 },
      { date: '2026-06-03', ...empty },
    ]);
  });

  it('crosses month and leap-day boundaries', () => {
    expect(dailySeries([], '2028-02-28', '2028-03-01').map((p) => p.date)).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
  });
});

describe('seriesOf', () => {
  const days = [
    day('2026-06-01', { reach: 4, impressions: 10, interactions: null, followers: 90 }),
    day('2026-06-02', { reach: 7, impressions: 5, interactions: 2, followers: 91 }),
    day('2026-06-08', { reach: 3, impressions: null, followers: 95 }),
  ];

  it('is the daily series by day', () => {
    expect(seriesOf(days, bucketsOf('2026-06-01', '2026-06-09', 'day'), new Map())).toEqual(dailySeries(days, '2026-06-01', '2026-06-09'));
  });

  it('by week follows the range rules: flows summed, reach the peak day, followers the pages’ last levels in the week', () => {
    // 2026-06-01 is a Monday: two weeks, the second clipped to 06-08…06-09.
    const levels = new Map([['2026-06-01', 91], ['2026-06-08', 95]]);
    expect(seriesOf(days, bucketsOf('2026-06-01', '2026-06-09', 'week'), levels)).toEqual([
      { date: '2026-06-01', reach: 7, impressions: 15, views: null, interactions: 2, newFollows: null, followers: 91 },
      { date: '2026-06-08', reach: 3, impressions: null, views: null, interactions: null, newFollows: null, followers: 95 },
    ]);
  });
});

describe('postTotalsOf', () => {
  it('counts 0 posts and null figures when no post was published', () => {
    expect(postTotalsOf(undefined)).toEqual({ newPosts: 0, likes: null, comments: null, shares: null, saves: null });
  });

  it('converts the sums pg returns as strings', () => {
    const row = { platform: 'instagram', period: 'current', new_posts: '3', likes: '12', comments: '0', shares: null, saves: '4' } as const;
    expect(postTotalsOf(row)).toEqual({ newPosts: 3, likes: 12, comments: 0, shares: null, saves: 4 });
  });
});
