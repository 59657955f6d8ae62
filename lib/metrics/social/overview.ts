// /social/overview: per platform, the range's totals, the previous period's, the posts published in
// each, and a daily series. How each figure is aggregated is stated in definitions.ts.
import type { Reach } from '../../reach/reach';
import { envelope, type Envelope } from '../../contract/envelope';
import { previousPeriod, type DayRange } from '../../time/day-range';
import { bucketSeries, bucketsOf, type Bucket, type Granularity } from '../../time/buckets';
import { eachDay, type IsoDay } from '../../time/days';
import { lastSuccessfulSyncs, oldestSync } from '../freshness';
import { LIST_CAP } from '../definitions';
import { num, ratio } from '../ratios';
import { SOCIAL_PLATFORMS, type SocialPlatform } from './definitions';
import {
  dailyAggregates,
  findPagesInReach,
  lastFollowerLevels,
  postTotals,
  type DailyAggregateRow,
  type PeriodBounds,
  type PostTotalsRow,
} from './repository';
import type { DailyPoint, PlatformOverview, PlatformTotals, PostTotals, SocialOverviewData } from './schemas';

/** Sum of the reported values; null when none is reported (not reported is not zero). */
export function sumReported(values: (number | null)[]): number | null {
  let total: number | null = null;
  for (const value of values) if (value !== null) total = (total ?? 0) + value;
  return total;
}

/** Highest reported value; null when none is reported. */
export function peakReported(values: (number | null)[]): number | null {
  let peak: number | null = null;
  for (const value of values) if (value !== null && (peak === null || value > peak)) peak = value;
  return peak;
}

/** A platform's totals over the days of one period (`days` holds only days with rows). */
export function platformTotals(days: DailyAggregateRow[], followers: number | null): PlatformTotals {
  const sumOf = (pick: (day: DailyAggregateRow) => string | null) => sumReported(days.map((day) => num(pick(day))));
  return {
    reach: peakReported(days.map((day) => num(day.reach))),
    impressions: sumOf((day) => day.impressions),
    views: sumOf((day) => day.views),
    profileViews: sumOf((day) => day.profile_views),
    interactions: sumOf((day) => day.interactions),
    newFollows: sumOf((day) => day.new_follows),
    followers,
    engagementRate: ratio(sumOf((day) => day.paired_interactions), sumOf((day) => day.paired_reach), 100),
  };
}

/** One point per day of the range, days without rows included with null figures. */
export function dailySeries(days: DailyAggregateRow[], from: IsoDay, to: IsoDay): DailyPoint[] {
  const byDate = new Map(days.map((day) => [day.date, day]));
  return eachDay(from, to).map((date) => {
    const day = byDate.get(date);
    return {
      date,
      reach: num(day?.reach),
      impressions: num(day?.impressions),
      views: num(day?.views),
      interactions: num(day?.interactions),
      newFollows: num(day?.new_follows),
      followers: num(day?.followers),
    };
  });
}

/**
 * The series in buckets of `granularity`. A bucket is a range of its own and follows the range rules
 * (SOCIAL_RULES): flows summed, reach the peak day, followers each page's last level in the bucket
 * (`followers`, by the bucket's first day), summed over the pages. A day is a bucket whose rules give
 * the daily point itself.
 */
export function seriesOf(days: DailyAggregateRow[], buckets: Bucket[], followers: Map<string, number | null>): DailyPoint[] {
  const daily = dailySeries(days, buckets[0]?.from ?? '', buckets.at(-1)?.to ?? '');
  if (buckets.every((bucket) => bucket.from === bucket.to)) return daily;
  return bucketSeries(daily, buckets, (points, bucket) => {
    const sumOf = (pick: (point: DailyPoint) => number | null) => sumReported(points.map(pick));
    return {
      date: bucket.from,
      reach: peakReported(points.map((point) => point.reach)),
      impressions: sumOf((point) => point.impressions),
      views: sumOf((point) => point.views),
      interactions: sumOf((point) => point.interactions),
      newFollows: sumOf((point) => point.newFollows),
      followers: followers.get(bucket.from) ?? null,
    };
  });
}

export function postTotalsOf(row: PostTotalsRow | undefined): PostTotals {
  return {
    newPosts: num(row?.new_posts) ?? 0,
    likes: num(row?.likes),
    comments: num(row?.comments),
    shares: num(row?.shares),
    saves: num(row?.saves),
  };
}

export async function getSocialOverview(reach: Reach, range: DayRange & { granularity?: Granularity }): Promise<Envelope<SocialOverviewData>> {
  const periods: PeriodBounds = { current: { from: range.from, to: range.to }, previous: previousPeriod(range) };
  const buckets = bucketsOf(range.from, range.to, range.granularity ?? 'day');
  // Daily points carry the day's levels; longer buckets read each page's last level within them.
  const bucketLevels = range.granularity === 'week' || range.granularity === 'month' ? buckets.map((bucket) => ({ name: bucket.from, ...bucket })) : [];
  const pages = await findPagesInReach(reach);
  const pageIds = pages.map((page) => page.id);
  const [days, followerLevels, posts, syncs] = await Promise.all([
    dailyAggregates(pageIds, periods.previous.from, periods.current.to),
    lastFollowerLevels(pageIds, [{ name: 'current', ...periods.current }, { name: 'previous', ...periods.previous }, ...bucketLevels]),
    postTotals(reach.orgId, pageIds, periods),
    lastSuccessfulSyncs(pageIds),
  ]);

  const platforms = SOCIAL_PLATFORMS.map((platform): PlatformOverview => {
    const ofPlatform = days.filter((day) => day.platform === platform);
    const current = ofPlatform.filter((day) => day.date >= periods.current.from);
    const previous = ofPlatform.filter((day) => day.date < periods.current.from);
    const levels = new Map(followerLevels.filter((row) => row.platform === platform).map((row) => [row.period, num(row.followers)]));
    const followersIn = (period: keyof PeriodBounds) => levels.get(period) ?? null;
    const postsIn = (period: keyof PeriodBounds) => posts.find((row) => row.platform === platform && row.period === period);
    return {
      platform,
      totals: platformTotals(current, followersIn('current')),
      previousTotals: platformTotals(previous, followersIn('previous')),
      postTotals: postTotalsOf(postsIn('current')),
      previousPostTotals: postTotalsOf(postsIn('previous')),
      series: seriesOf(current, buckets, levels),
      pageCount: pages.filter((page) => isOnPlatform(page, platform)).length,
    };
  });

  // The figures cover every page in reach; only the list naming them is capped, like every list.
  const truncated = pages.length > LIST_CAP;
  return envelope(
    {
      from: range.from,
      to: range.to,
      previousFrom: periods.previous.from,
      previousTo: periods.previous.to,
      platforms,
      pages: pages.slice(0, LIST_CAP).map((page) => ({ pageId: page.page_id, name: page.name, igUsername: page.ig_username })),
    },
    // Every page in reach answered for this overview, with data or with its absence.
    { syncedAt: oldestSync(syncs, pageIds), from: range.from, to: range.to, truncated },
  );
}

function isOnPlatform(page: { instagram_linked: boolean }, platform: SocialPlatform): boolean {
  return platform === 'facebook' || page.instagram_linked;
}
