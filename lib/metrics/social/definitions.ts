// The one place where the organic-social metrics are defined. The response schemas describe their
// fields from these entries (and so the OpenAPI document), the operation descriptions quote the rules,
// and the MCP `describe_metrics` tool can return them as they are: plain data, no functions.
import type { MetricDefinition } from '../definitions';

export const SOCIAL_PLATFORMS = ['facebook', 'instagram'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

export const SOCIAL_RULES = {
  notReported:
    '`null` means "not reported by the platform" and is never zero. A sum over values that are all unreported is null; a sum over some reported values is the sum of the reported ones.',
  days: 'Social days are calendar days in IST (Asia/Kolkata); `from` and `to` are included. A post belongs to a range by the IST day of its publication. `previousFrom`–`previousTo` is the period of the same length that ends the day before `from`.',
  platforms:
    '/social/overview always lists two platforms, facebook then instagram, even when no page in reach is on one (its `pageCount` is then 0, its figures null and `newPosts` 0): the shape never depends on the data. Facebook figures come from every page in reach; Instagram figures from the pages with a linked Instagram account.',
  reach:
    'Reach is a count of people and does not add up over days: over a range it is the PEAK single-day value (a lower bound of the people reached; summing days would count a person once per day they were reached). A day\'s value is the sum over the pages (someone reached by two pages counts twice). Rates that divide by reach use the SUM of the daily reach (person-days).',
  followers:
    'Followers is a level, not a flow: the count at the end of a day. Over a range it is, for each page, the LAST level that page reported within the range, summed over the pages (a page that reported no level in the range is left out). A daily point\'s value is the sum of the levels reported for that day.',
  freshness:
    '`meta.syncedAt` is the oldest last successful sync among the pages in reach (every one of them answers for the figures, with data or with its absence); pages never synced successfully are ignored; null when none has synced. Social data syncs hourly; the last 3 days are re-pulled nightly and the last 28 days weekly, so recent days can still change.',
} as const;

/** Figures of a platform over a range (`totals`) and of one IST day (`series` points). */
export const SOCIAL_PLATFORM_METRICS = [
  {
    name: 'reach',
    kind: 'count',
    unit: 'people',
    definition: "People who saw content of the platform's pages, as the platform reports it per day.",
    aggregation: 'Day: sum over the pages. Range: the peak day (see the reach rule); never summed over days.',
    whenNull: 'When no page reported it (on any day of the range, for totals).',
  },
  {
    name: 'impressions',
    kind: 'count',
    unit: 'impressions',
    definition: 'Times content of the pages was shown.',
    aggregation: 'Sum over pages and days.',
    whenNull: 'When no page reported it on any day counted.',
  },
  {
    name: 'views',
    kind: 'count',
    unit: 'views',
    definition: 'Content views as the platform counts them.',
    aggregation: 'Sum over pages and days.',
    whenNull: 'When no page reported it on any day counted.',
  },
  {
    name: 'profileViews',
    kind: 'count',
    unit: 'visits',
    definition: 'Visits to the page or profile (totals only; daily points do not carry it).',
    aggregation: 'Sum over pages and days.',
    whenNull: 'When no page reported it on any day of the range.',
  },
  {
    name: 'interactions',
    kind: 'count',
    unit: 'interactions',
    definition: 'Engagements with content (reactions, comments, shares, saves, ...) as the platform counts them.',
    aggregation: 'Sum over pages and days.',
    whenNull: 'When no page reported it on any day counted.',
  },
  {
    name: 'newFollows',
    kind: 'count',
    unit: 'follows',
    definition: 'Follows gained, as the platform counts them.',
    aggregation: 'Sum over pages and days.',
    whenNull: 'When no page reported it on any day counted.',
  },
  {
    name: 'followers',
    kind: 'count',
    unit: 'people',
    definition: 'Follower count at the end of a day: a level, not a flow.',
    aggregation: "Day: sum of the levels the pages reported for that day. Range: each page's last level reported within the range, summed over the pages (see the followers rule).",
    whenNull: 'When no page reported a level (that day, or within the range).',
  },
  {
    name: 'engagementRate',
    kind: 'ratio',
    unit: 'percent (interactions per 100 people reached per day)',
    definition:
      '100 × Σ interactions / Σ daily reach, a percentage (3.4 means 3.4 %) like every rate of the API. Both sums run over the same page-days, those that reported both figures, so a day missing one of them cannot skew the rate. Dividing by the summed daily reach (person-days) rather than the peak makes it "interactions per person reached per day".',
    aggregation: 'Ratio of the sums (totals only).',
    whenNull: 'When no page-day reported both figures, or their reach sums to 0.',
  },

] as const satisfies readonly MetricDefinition[];

/** Figures of one post (`posts[]`) and of the posts published in a range (`postTotals`). */
export const SOCIAL_POST_METRICS = [
  {
    name: 'newPosts',
    kind: 'count',
    unit: 'posts',
    definition: 'Posts published within the range, by the IST day of publication (post totals only).',
    aggregation: 'Count.',
    whenNull: 'Never: 0 when there are none.',
  },
  {
    name: 'likes',
    kind: 'count',
    unit: 'likes',
    definition: "A post's likes (reactions on Facebook), lifetime as of the last sync.",
    aggregation: 'Post totals: sum over the posts published in the range that reported it.',
    whenNull: 'When the platform did not report it (for totals: for none of the posts).',
  },
  {
    name: 'comments',
    kind: 'count',
    unit: 'comments',
    definition: "A post's comments, lifetime as of the last sync.",
    aggregation: 'Post totals: sum over the posts published in the range that reported it.',
    whenNull: 'When the platform did not report it (for totals: for none of the posts).',
  },
  {
    name: 'shares',
    kind: 'count',
    unit: 'shares',
    definition: "A post's shares, lifetime as of the last sync.",
    aggregation: 'Post totals: sum over the posts published in the range that reported it.',
    whenNull: 'When the platform did not report it (for totals: for none of the posts).',
  },
  {
    name: 'saves',
    kind: 'count',
    unit: 'saves',
    definition: "A post's saves, lifetime as of the last sync.",
    aggregation: 'Post totals: sum over the posts published in the range that reported it.',
    whenNull: 'When the platform did not report it (for totals: for none of the posts).',
  },
  {
    name: 'views',
    kind: 'count',
    unit: 'views',
    definition: "A post's views (video and reel plays as the platform counts them), lifetime as of the last sync.",
    aggregation: 'Per post only.',
    whenNull: 'When the platform did not report it.',
  },
  {
    name: 'reach',
    kind: 'count',
    unit: 'people',
    definition: 'People who saw the post, lifetime as of the last sync.',
    aggregation: 'Per post only.',
    whenNull: 'When the platform did not report it.',
  },
  {
    name: 'impressions',
    kind: 'count',
    unit: 'impressions',
    definition: 'Times the post was shown, lifetime as of the last sync.',
    aggregation: 'Per post only.',
    whenNull: 'When the platform did not report it.',
  },
  {
    name: 'engagementRate',
    kind: 'ratio',
    unit: 'percent',
    definition:
      "100 × the post's engagements (likes, comments, shares, saves) divided by its reach, as the dashboard computed it at sync (stored as a fraction, sent as a percentage: 5.2 means 5.2 %).",
    aggregation: 'Per post only.',
    whenNull: 'When the post reported no reach.',
  },

] as const satisfies readonly MetricDefinition[];

type MetricName<List extends readonly MetricDefinition[]> = List[number]['name'];

function describe(list: readonly MetricDefinition[], name: string): string {
  const metric = list.find((entry) => entry.name === name);
  if (!metric) throw new Error(`No social metric named ${name}`);
  return `${metric.definition} ${metric.aggregation} null: ${metric.whenNull}`;
}

/** The field description of a platform figure (totals and daily points). */
export const describePlatformMetric = (name: MetricName<typeof SOCIAL_PLATFORM_METRICS>) => describe(SOCIAL_PLATFORM_METRICS, name);

/** The field description of a post figure (posts and post totals). */
export const describePostMetric = (name: MetricName<typeof SOCIAL_POST_METRICS>) => describe(SOCIAL_POST_METRICS, name);
