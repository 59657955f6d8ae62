// Daily ads insights (ad_insights_daily) at the four levels.
//
// Ad rows are simulated first; ad-set, campaign and account rows are derived from the level below so
// that additive metrics (spend, impressions, clicks, link_clicks, results, video_*, purchase_value)
// add up exactly, with SQL's SUM semantics for nullable ones (null only when every child is null).
// Reach is people, who overlap: a parent's reach is at least the largest child's and below the
// children's sum. An account row's result_type is the campaigns' type when they all share one that
// day, otherwise null (its results still add up every campaign's results).
import type { Calendar } from '../calendar';
import type { Row, TableData } from '../copy';
import { money } from '../numbers';
import { Rng } from '../random';
import type { AccountModel, AdModel, AdSetModel, CampaignModel, Window } from './entities';

export interface DayMetrics {
  /** Cents of the account's currency. */
  spend: number;
  impressions: number;
  reach: number;
  clicks: number;
  linkClicks: number;
  results: number | null;
  resultType: string | null;
  videoViews: number | null;
  video3sViews: number | null;
  thruplays: number | null;
  videoP25: number | null;
  videoP50: number | null;
  videoP75: number | null;
  videoP100: number | null;
  /** Cents; only purchase campaigns report it. */
  purchaseValue: number | null;
}

/** Metrics per day over a span of the calendar; `undefined` on days without delivery. */
export interface Series {
  start: number;
  days: (DayMetrics | undefined)[];
}

export type EntityLevel = 'campaign' | 'adset' | 'ad';

/** A date range whose totals the breakdown cache needs (day indices, inclusive). */
export interface CacheRange {
  from: number;
  to: number;
}

export interface SampledEntity {
  level: EntityLevel;
  entityId: string;
  account: AccountModel;
  /** Spend (cents), impressions and clicks over each of the ledger's ranges, in order. */
  totals: { spend: number; impressions: number; clicks: number }[];
}

/**
 * What the insights pass leaves for the tables derived from it (account breakdowns and the
 * breakdown cache): the account-level series and the range totals of sampled entities.
 */
export class AdsLedger {
  readonly accountSeries = new Map<string, Series>();
  readonly sampled: SampledEntity[] = [];
  private done = false;

  constructor(readonly ranges: readonly CacheRange[]) {}

  finish(): void {
    this.done = true;
  }

  /** Guards against reading the ledger before ad_insights_daily has been generated. */
  assertComplete(): void {
    if (!this.done) throw new Error('ads ledger read before ad_insights_daily was generated');
  }
}

export const INSIGHT_COLUMNS = [
  'org_id', 'level', 'entity_id', 'account_id', 'campaign_id', 'ad_set_id', 'ad_id', 'date',
  'spend', 'impressions', 'reach', 'clicks', 'link_clicks', 'results', 'result_type',
  'video_views', 'video_3s_views', 'thruplays', 'video_p25', 'video_p50', 'video_p75', 'video_p100', 'purchase_value',
] as const;

// Weekday factors (Sunday first): shoppers buy at weekends, leads come in on working days.
const WEEKLY: Record<string, readonly number[]> = {
  purchase: [1.12, 0.94, 0.92, 0.95, 0.98, 1.02, 1.1],
  lead: [0.78, 1.1, 1.12, 1.1, 1.06, 1.0, 0.84],
  default: [1.04, 0.98, 0.98, 0.99, 1.0, 1.0, 1.03],
};
const BASE_CTR: Record<string, number> = {
  purchase: 0.012,
  lead: 0.01,
  link_click: 0.017,
  landing_page_view: 0.015,
  video_view: 0.005,
  post_engagement: 0.016,
};
/** The first days of an ad deliver less while the platform learns. */
const RAMP = [0.35, 0.6, 0.8, 0.92];

/** Festive season: Diwali (Oct–Nov) for Indian accounts, Black Friday to Christmas for the others. */
function festive(currency: string, month: number): number {
  if (currency === 'INR') return month === 10 || month === 11 ? 1.3 : 1;
  return month === 11 ? 1.35 : month === 12 ? 1.15 : 1;
}

function emptyMetrics(resultType: string | null): DayMetrics {
  return {
    spend: 0,
    impressions: 0,
    reach: 0,
    clicks: 0,
    linkClicks: 0,
    results: null,
    resultType,
    videoViews: null,
    video3sViews: null,
    thruplays: null,
    videoP25: null,
    videoP50: null,
    videoP75: null,
    videoP100: null,
    purchaseValue: null,
  };
}

function addNullable(a: number | null, b: number | null): number | null {
  return b === null ? a : (a ?? 0) + b;
}

/** Derives a parent's series from its children's (see the header for the rules). */
export function rollUp(children: readonly Series[], rng: Rng): Series | null {
  let start = Infinity;
  let end = -Infinity;
  for (const child of children) {
    if (child.days.length === 0) continue;
    start = Math.min(start, child.start);
    end = Math.max(end, child.start + child.days.length - 1);
  }
  if (start > end) return null;
  const days: (DayMetrics | undefined)[] = new Array(end - start + 1);
  for (let d = start; d <= end; d++) {
    let sum: DayMetrics | undefined;
    let maxReach = 0;
    for (const child of children) {
      const m = child.days[d - child.start];
      if (!m) continue;
      if (!sum) sum = emptyMetrics(m.resultType);
      else if (sum.resultType !== m.resultType) sum.resultType = null;
      sum.spend += m.spend;
      sum.impressions += m.impressions;
      sum.reach += m.reach;
      sum.clicks += m.clicks;
      sum.linkClicks += m.linkClicks;
      sum.results = addNullable(sum.results, m.results);
      sum.videoViews = addNullable(sum.videoViews, m.videoViews);
      sum.video3sViews = addNullable(sum.video3sViews, m.video3sViews);
      sum.thruplays = addNullable(sum.thruplays, m.thruplays);
      sum.videoP25 = addNullable(sum.videoP25, m.videoP25);
      sum.videoP50 = addNullable(sum.videoP50, m.videoP50);
      sum.videoP75 = addNullable(sum.videoP75, m.videoP75);
      sum.videoP100 = addNullable(sum.videoP100, m.videoP100);
      sum.purchaseValue = addNullable(sum.purchaseValue, m.purchaseValue);
      if (m.reach > maxReach) maxReach = m.reach;
    }
    if (sum) sum.reach = maxReach + Math.floor((sum.reach - maxReach) * rng.float(0.55, 0.85));
    days[d - start] = sum;
  }
  return { start, days };
}

interface AdProfile {
  cpm: number;
  ctr: number;
  linkRatio: number;
  frequency: number;
  /** Results per link click (purchase, lead, landing_page_view) or per impression (post_engagement). */
  conversion: number;
  orderValueCents: number;
}

function adProfile(account: AccountModel, campaign: CampaignModel, ad: AdModel, rng: Rng): AdProfile {
  const type = campaign.resultType;
  const conversion =
    type === 'purchase' ? rng.float(0.015, 0.045) :
    type === 'lead' ? rng.float(0.05, 0.12) :
    type === 'landing_page_view' ? rng.float(0.7, 0.9) :
    type === 'post_engagement' ? rng.float(0.01, 0.03) : 0;
  return {
    cpm: account.cpm * rng.noise(0.25) * (ad.isVideo ? 0.8 : 1),
    ctr: (BASE_CTR[type] ?? 0.012) * rng.noise(0.3),
    linkRatio: rng.float(0.55, 0.85),
    frequency: rng.float(1.05, 1.45),
    conversion,
    orderValueCents: Math.round((account.currency === 'INR' ? rng.float(1200, 4500) : rng.float(35, 140)) * 100),
  };
}

/** One ad's delivery on one day, given the cents it spent. */
function adDay(campaign: CampaignModel, ad: AdModel, p: AdProfile, spend: number, ageDays: number, rng: Rng): DayMetrics {
  const type = campaign.resultType;
  const m = emptyMetrics(type);
  m.spend = spend;
  m.impressions = Math.max(1, Math.round(((spend / 100) * 1000 * rng.noise(0.1)) / p.cpm));
  m.reach = Math.max(1, Math.min(m.impressions, Math.round(m.impressions / (p.frequency * rng.noise(0.05)))));
  // Creative fatigue: click-through decays once an ad has run for a month.
  const fatigue = ageDays > 30 ? Math.max(0.6, 1 - 0.005 * (ageDays - 30)) : 1;
  m.clicks = Math.min(m.impressions, Math.round(m.impressions * p.ctr * fatigue * rng.noise(0.2)));
  m.linkClicks = Math.min(m.clicks, Math.round(m.clicks * p.linkRatio));

  if (ad.isVideo) {
    const plays = Math.round(m.impressions * rng.float(0.3, 0.5));
    m.videoViews = plays;
    m.video3sViews = Math.round(plays * rng.float(0.6, 0.8));
    m.videoP25 = Math.round(m.video3sViews * rng.float(0.5, 0.6));
    m.videoP50 = Math.round(m.videoP25 * rng.float(0.55, 0.7));
    m.videoP75 = Math.round(m.videoP50 * rng.float(0.6, 0.75));
    m.videoP100 = Math.round(m.videoP75 * rng.float(0.65, 0.8));
    m.thruplays = Math.min(m.video3sViews, Math.max(m.videoP100, Math.round(m.video3sViews * rng.float(0.25, 0.4))));
  }

  // Some days the platform reports no result figure at all: null, not zero.
  if (rng.chance(0.02)) return m;
  switch (type) {
    case 'purchase':
      m.results = Math.round(m.linkClicks * p.conversion * rng.noise(0.3));
      m.purchaseValue = Math.round(m.results * p.orderValueCents * rng.noise(0.2));
      break;
    case 'lead':
    case 'landing_page_view':
      m.results = Math.min(m.linkClicks, Math.round(m.linkClicks * p.conversion * rng.noise(0.2)));
      break;
    case 'link_click':
      m.results = m.linkClicks;
      break;
    case 'video_view':
      m.results = m.thruplays ?? 0;
      break;
    case 'post_engagement':
      m.results = m.clicks + Math.round(m.impressions * p.conversion * rng.noise(0.2));
      break;
  }
  return m;
}

function contains(window: Window | null, day: number): boolean {
  return window !== null && day >= window.start && day <= window.end;
}

/** Simulates every ad of a campaign: the campaign's daily budget is shared by the live ad sets and ads. */
function simulateAds(cal: Calendar, account: AccountModel, campaign: CampaignModel, seed: number): Map<AdModel, Series> {
  const window = campaign.window;
  const out = new Map<AdModel, Series>();
  if (!window) return out;
  const rng = new Rng(seed, `insights/${campaign.id}`);
  const weekly = WEEKLY[campaign.resultType] ?? WEEKLY.default ?? [];
  const sets = campaign.adSets;
  const profiles = new Map<AdModel, { profile: AdProfile; rng: Rng; days: (DayMetrics | undefined)[] }>();
  for (const set of sets) {
    for (const ad of set.ads) {
      if (!ad.window) continue;
      const adRng = rng.fork(ad.id);
      profiles.set(ad, { profile: adProfile(account, campaign, ad, adRng), rng: adRng, days: [] });
    }
  }

  for (let d = window.start; d <= window.end; d++) {
    // Budget for the day: weekly rhythm, festive season and a gentle growth trend, with daily noise.
    const budget =
      campaign.dailyBudgetCents *
      (weekly[cal.weekday(d)] ?? 1) *
      festive(account.currency, cal.month(d)) *
      (0.85 + (0.3 * d) / cal.days) *
      rng.noise(0.1);
    let liveSetWeight = 0;
    const liveAdWeights = new Map<AdSetModel, number>();
    for (const set of sets) {
      let w = 0;
      for (const ad of set.ads) if (contains(ad.window, d)) w += ad.weight;
      if (w > 0) {
        liveAdWeights.set(set, w);
        liveSetWeight += set.weight;
      }
    }
    for (const [set, adWeight] of liveAdWeights) {
      for (const ad of set.ads) {
        const state = profiles.get(ad);
        if (!state || !ad.window || !contains(ad.window, d)) continue;
        const ageDays = d - ad.window.start;
        const share = (set.weight / liveSetWeight) * (ad.weight / adWeight);
        const spend = Math.max(1, Math.round(budget * share * (RAMP[ageDays] ?? 1) * state.rng.noise(0.15)));
        state.days.push(adDay(campaign, ad, state.profile, spend, ageDays, state.rng));
      }
    }
  }
  for (const [ad, state] of profiles) out.set(ad, { start: ad.window?.start ?? 0, days: state.days });
  return out;
}

function rangeTotals(series: Series, ranges: readonly CacheRange[]): SampledEntity['totals'] {
  return ranges.map(({ from, to }) => {
    const totals = { spend: 0, impressions: 0, clicks: 0 };
    for (let d = Math.max(from, series.start); d <= to && d - series.start < series.days.length; d++) {
      const m = series.days[d - series.start];
      if (!m) continue;
      totals.spend += m.spend;
      totals.impressions += m.impressions;
      totals.clicks += m.clicks;
    }
    return totals;
  });
}

function toRow(
  cal: Calendar,
  orgId: string,
  level: 'account' | EntityLevel,
  entityId: string,
  lineage: [string, string | null, string | null, string | null],
  day: number,
  m: DayMetrics,
): Row {
  return [
    orgId, level, entityId, ...lineage, cal.date(day),
    money(m.spend), m.impressions, m.reach, m.clicks, m.linkClicks, m.results, m.resultType,
    m.videoViews, m.video3sViews, m.thruplays, m.videoP25, m.videoP50, m.videoP75, m.videoP100,
    m.purchaseValue === null ? null : money(m.purchaseValue),
  ];
}

function* seriesRows(cal: Calendar, orgId: string, level: 'account' | EntityLevel, entityId: string, lineage: [string, string | null, string | null, string | null], series: Series): Generator<Row> {
  for (let i = 0; i < series.days.length; i++) {
    const m = series.days[i];
    if (m) yield toRow(cal, orgId, level, entityId, lineage, series.start + i, m);
  }
}

/** Days with an insights row per level, counted from the windows alone (for exact progress). */
function countRows(accounts: readonly AccountModel[], days: number): number {
  let rows = 0;
  const countMarked = (marks: Uint8Array) => marks.reduce((n, v) => n + v, 0);
  for (const account of accounts) {
    const accountDays = new Uint8Array(days);
    for (const campaign of account.campaigns) {
      const campaignDays = new Uint8Array(days);
      for (const set of campaign.adSets) {
        const setDays = new Uint8Array(days);
        for (const ad of set.ads) {
          if (!ad.window) continue;
          rows += ad.window.end - ad.window.start + 1;
          setDays.fill(1, ad.window.start, ad.window.end + 1);
        }
        rows += countMarked(setDays);
        setDays.forEach((v, d) => v && (campaignDays[d] = 1));
      }
      rows += countMarked(campaignDays);
      campaignDays.forEach((v, d) => v && (accountDays[d] = 1));
    }
    rows += countMarked(accountDays);
  }
  return rows;
}

export function insightsTable(cal: Calendar, seed: number, accounts: readonly AccountModel[], ledger: AdsLedger): TableData {
  function* rows(): Generator<Row> {
    for (const account of accounts) {
      const orgId = account.org.id;
      const campaignSeries: Series[] = [];
      for (const campaign of account.campaigns) {
        const adSeries = simulateAds(cal, account, campaign, seed);
        const rollRng = new Rng(seed, `reach/${campaign.id}`);
        const setSeries: Series[] = [];
        for (const set of campaign.adSets) {
          const children: Series[] = [];
          for (const ad of set.ads) {
            const series = adSeries.get(ad);
            if (!series) continue;
            children.push(series);
            if (ad.sampled) ledger.sampled.push({ level: 'ad', entityId: ad.id, account, totals: rangeTotals(series, ledger.ranges) });
            yield* seriesRows(cal, orgId, 'ad', ad.id, [account.id, campaign.id, set.id, ad.id], series);
          }
          const series = rollUp(children, rollRng);
          if (!series) continue;
          setSeries.push(series);
          if (set.sampled) ledger.sampled.push({ level: 'adset', entityId: set.id, account, totals: rangeTotals(series, ledger.ranges) });
          yield* seriesRows(cal, orgId, 'adset', set.id, [account.id, campaign.id, set.id, null], series);
        }
        const series = rollUp(setSeries, rollRng);
        if (!series) continue;
        campaignSeries.push(series);
        if (campaign.sampled) ledger.sampled.push({ level: 'campaign', entityId: campaign.id, account, totals: rangeTotals(series, ledger.ranges) });
        yield* seriesRows(cal, orgId, 'campaign', campaign.id, [account.id, campaign.id, null, null], series);
      }
      const series = rollUp(campaignSeries, new Rng(seed, `reach/${account.id}`));
      if (!series) continue;
      ledger.accountSeries.set(account.id, series);
      yield* seriesRows(cal, orgId, 'account', account.id, [account.id, null, null, null], series);
    }
    ledger.finish();
  }
  return { table: 'ad_insights_daily', columns: INSIGHT_COLUMNS, expectedRows: countRows(accounts, cal.days), rows };
}
