// /social/overview: per platform, the range's totals, the previous period's, the posts published in
// each, and a daily series. How each figure is aggregated is stated in definitions.ts.
import type { Reach } from '../../auth/reach';
import { envelope, type Envelope } from '../../contract/envelope';
import { previousPeriod, type DayRange } from '../../time/day-range';
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

export function postTotalsOf(row: PostTotalsRow | undefined): PostTotals {
  return {
    newPosts: num(row?.new_posts) ?? 0,
    likes: num(row?.likes),
    comments: num(row?.comments),
    shares: num(row?.shares),
    saves: num(row?.saves),
  };
}

export async function getSocialOverview(reach: Reach, range: DayRange): Promise<Envelope<SocialOverviewData>> {
  const periods: PeriodBounds = { current: { from: range.from, to: range.to }, previous: previousPeriod(range) };
  const pages = await findPagesInReach(reach);
  const pageIds = pages.map((page) => page.id);
  const [days, followerLevels, posts, syncs] = await Promise.all([
    dailyAggregates(pageIds, periods.previous.from, periods.current.to),
    lastFollowerLevels(pageIds, periods),
    postTotals(reach.orgId, pageIds, periods),
    lastSuccessfulSyncs(pageIds),
  ]);

  const platforms = SOCIAL_PLATFORMS.map((platform): PlatformOverview => {
    const ofPlatform = days.filter((day) => day.platform === platform);
    const current = ofPlatform.filter((day) => day.date >= periods.current.from);
    const previous = ofPlatform.filter((day) => day.date < periods.current.from);
    const followersIn = (period: keyof PeriodBounds) =>
      num(followerLevels.find((row) => row.platform === platform && row.period === period)?.followers);
    const postsIn = (period: keyof PeriodBounds) => posts.find((row) => row.platform === platform && row.period === period);
    return {
      platform,
      totals: platformTotals(current, followersIn('current')),
      previousTotals: platformTotals(previous, followersIn('previous')),
      postTotals: postTotalsOf(postsIn('current')),
      previousPostTotals: postTotalsOf(postsIn('previous')),
      series: dailySeries(current, periods.current.from, periods.current.to),
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
