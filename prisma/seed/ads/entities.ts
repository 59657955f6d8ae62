// Ad accounts, campaigns, ad sets and ads, with the days each one delivered.
//
// Lifetimes are planned top-down: a campaign gets a flight (evergreen, a few weeks, recently launched,
// ended, archived or never delivered), its ad sets run inside it and its ads inside those, mostly for
// a few weeks each as creatives rotate. An ad has an insights row on every day of its window and on no
// other day; ad sets, campaigns and accounts have rows on the days any of their ads delivered.
// Statuses follow from the lifetimes: whatever still delivers on the last day is ACTIVE, a child
// stopped by its parent keeps status ACTIVE with effective_status CAMPAIGN_PAUSED / ADSET_PAUSED.
import { AD_SET_NAMES, AGE_WEIGHTS, IMAGE_AD_NAMES, OBJECTIVES, VIDEO_AD_NAMES } from '../catalog';
import { clientOf, type ClientModel, type OrgModel, type SeedContext } from '../context';
import type { TableData } from '../copy';
import { money } from '../numbers';
import type { Rng } from '../random';

export interface Window {
  start: number;
  /** Inclusive. */
  end: number;
}

interface Status {
  status: string;
  effectiveStatus: string;
}

export interface AdModel extends Status {
  id: string;
  platformId: string;
  name: string;
  isVideo: boolean;
  window: Window | null;
  /** Share of its ad set's budget while it runs. */
  weight: number;
  thumbnailUrl: string | null;
  imageUrl: string | null;
  createdAt: string;
  sampled: boolean;
}

export interface AdSetModel extends Status {
  id: string;
  platformId: string;
  name: string;
  window: Window | null;
  weight: number;
  ads: AdModel[];
  createdAt: string;
  sampled: boolean;
}

export interface CampaignModel extends Status {
  id: string;
  platformId: string;
  name: string;
  objective: string;
  resultType: string;
  window: Window | null;
  dailyBudgetCents: number;
  adSets: AdSetModel[];
  createdAt: string;
  sampled: boolean;
}

export interface AccountModel {
  id: string;
  org: OrgModel;
  client: ClientModel | null;
  platformAccountId: string;
  name: string;
  currency: 'INR' | 'USD';
  timezone: string;
  balanceCents: number | null;
  spendCapCents: number | null;
  amountSpentCents: number;
  lowBalanceThresholdCents: number | null;
  createdAt: string;
  campaigns: CampaignModel[];
  /** Cost per thousand impressions in the account's currency, before per-ad variation. */
  cpm: number;
  /** Audience mix used by the breakdowns (weights per age bucket, female share). */
  ageWeights: number[];
  femaleShare: number;
}

type FlightKind = 'evergreen' | 'flight' | 'recent' | 'archived' | 'never' | 'ended';
// A fixed rotation rather than random draws, so that even `tiny` has one campaign of each kind.
const FLIGHT_ROTATION: readonly FlightKind[] = ['evergreen', 'flight', 'recent', 'evergreen', 'archived', 'never', 'ended', 'flight', 'flight', 'recent'];
/** An entity that stopped more than this many days before the end may have been archived. */
const ARCHIVE_AFTER_DAYS = 90;

function campaignWindow(kind: FlightKind, days: number, rng: Rng): Window | null {
  const last = days - 1;
  switch (kind) {
    case 'never':
      return null;
    case 'evergreen':
      return { start: rng.int(0, Math.floor(days * 0.15)), end: last };
    case 'recent':
      return { start: last - rng.int(7, Math.max(7, Math.min(45, Math.floor(days / 3)))), end: last };
    case 'flight': {
      const length = rng.int(Math.min(20, days), Math.min(150, days));
      const start = rng.int(0, days - length);
      return { start, end: start + length - 1 };
    }
    case 'ended': {
      const end = last - rng.int(5, Math.max(6, Math.floor(days * 0.25)));
      return { start: Math.max(0, end - rng.int(Math.min(20, end), Math.min(120, end))), end };
    }
    case 'archived': {
      const end = last - rng.int(Math.max(10, Math.floor(days * 0.35)), Math.floor(days * 0.8));
      return { start: Math.max(0, end - rng.int(Math.min(15, end), Math.min(90, end))), end };
    }
  }
}

/** Status of an entity that stopped on `end` for its own reasons (not because its parent did). */
function stoppedStatus(end: number, last: number, rng: Rng): Status {
  if (end === last) return { status: 'ACTIVE', effectiveStatus: 'ACTIVE' };
  const archived = last - end > ARCHIVE_AFTER_DAYS && rng.chance(0.5);
  return archived ? { status: 'ARCHIVED', effectiveStatus: 'ARCHIVED' } : { status: 'PAUSED', effectiveStatus: 'PAUSED' };
}

/** Status of a child that stopped together with its parent. */
function inheritedStatus(parent: Status, pausedByParent: 'CAMPAIGN_PAUSED' | 'ADSET_PAUSED'): Status {
  if (parent.effectiveStatus === 'ACTIVE') return { status: 'ACTIVE', effectiveStatus: 'ACTIVE' };
  if (parent.effectiveStatus === 'ARCHIVED') return { status: 'ARCHIVED', effectiveStatus: 'ARCHIVED' };
  // The parent's own pause, or one inherited from further up, shows through.
  return { status: 'ACTIVE', effectiveStatus: parent.effectiveStatus === 'PAUSED' ? pausedByParent : parent.effectiveStatus };
}

function adSetWindows(campaign: Window, count: number, rng: Rng): Window[] {
  const length = campaign.end - campaign.start + 1;
  const windows: Window[] = [campaign];
  for (let k = 1; k < count; k++) {
    const start = campaign.start + rng.int(0, Math.floor(length * 0.5));
    const remaining = campaign.end - start + 1;
    const end = rng.chance(0.65) ? campaign.end : start + rng.int(Math.floor(remaining * 0.3), remaining - 1);
    windows.push({ start, end });
  }
  return windows;
}

/** Creative rotation: short sets run all their ads; long ones run each for a few weeks in turn. */
function adWindows(set: Window, count: number, rng: Rng): (Window | null)[] {
  const length = set.end - set.start + 1;
  const windows: (Window | null)[] = [];
  for (let j = 0; j < count; j++) {
    const first = j === 0;
    const lastAd = j === count - 1;
    if (!first && !lastAd && rng.chance(0.05)) {
      windows.push(null); // never delivered (rejected or left in draft)
      continue;
    }
    if (length <= 42) {
      const start = first ? set.start : set.start + rng.int(0, Math.floor(length * 0.4));
      const stoppedEarly = !lastAd && rng.chance(0.25);
      const end = stoppedEarly ? start + rng.int(Math.floor((set.end - start) * 0.4), set.end - start) : set.end;
      windows.push({ start, end });
    } else {
      const slot = length / count;
      const start = Math.max(set.start, set.start + Math.floor(j * slot) - (first ? 0 : rng.int(0, 7)));
      const end = lastAd ? set.end : Math.min(set.end, start + rng.int(14, 56) - 1);
      windows.push({ start, end });
    }
  }
  return windows;
}

function accountName(client: ClientModel | null, currency: string, taken: Set<string>): string {
  const base = client ? `${client.name} · ${currency === 'INR' ? 'India' : 'International'}` : 'Agency Sandbox (unassigned)';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base} ${n}`;
  taken.add(name);
  return name;
}

export function buildAdAccounts(ctx: SeedContext, org: OrgModel): AccountModel[] {
  const { shape } = org;
  const cal = ctx.calendar;
  const days = cal.days;
  const last = cal.last;
  const sample = ctx.shape.breakdownSample;
  const rng = org.rng.fork('ads');
  const taken = new Set<string>();

  const accounts: AccountModel[] = [];
  for (let i = 0; i < shape.adAccounts; i++) {
    const arng = rng.fork(`account/${i}`);
    // The last account of the first organisation belongs to no client (lineage falls back to its own name).
    const client = org.index === 0 && i === shape.adAccounts - 1 ? null : clientOf(org, i);
    const currency = i % 3 === 2 ? 'USD' : 'INR';
    const ageWeights = AGE_WEIGHTS.map((w) => w * arng.noise(0.3));
    accounts.push({
      id: org.ids.uuid('ad_account'),
      org,
      client,
      platformAccountId: `act_${org.ids.platformId('account', 15)}`,
      name: accountName(client, currency, taken),
      currency,
      timezone: currency === 'INR' ? 'Asia/Kolkata' : 'America/Los_Angeles',
      balanceCents: null,
      spendCapCents: null,
      amountSpentCents: 0,
      lowBalanceThresholdCents: null,
      createdAt: cal.istTime(-arng.int(20, 50), arng.float(9, 19)),
      campaigns: [],
      cpm: currency === 'INR' ? arng.float(80, 220) : arng.float(5, 14),
      ageWeights,
      femaleShare: arng.float(0.3, 0.7),
    });
  }

  for (let c = 0; c < shape.campaigns; c++) {
    const account = accounts[c % accounts.length] as AccountModel;
    const crng = rng.fork(`campaign/${c}`);
    const objective = OBJECTIVES[c % OBJECTIVES.length] as (typeof OBJECTIVES)[number];
    const kind = FLIGHT_ROTATION[c % FLIGHT_ROTATION.length] as FlightKind;
    const window = campaignWindow(kind, days, crng);
    const status: Status = window
      ? kind === 'archived'
        ? { status: 'ARCHIVED', effectiveStatus: 'ARCHIVED' }
        : stoppedStatus(window.end, last, crng)
      : { status: 'PAUSED', effectiveStatus: 'PAUSED' };
    const brand = account.client?.name ?? 'Agency';
    const campaign: CampaignModel = {
      id: org.ids.uuid('campaign'),
      platformId: org.ids.platformId('object', 13, '12021'),
      name: `${brand} | ${crng.pick(objective.names)} #${c + 1}`,
      objective: objective.objective,
      resultType: objective.resultType,
      window,
      ...status,
      dailyBudgetCents: Math.round((account.currency === 'INR' ? crng.float(1500, 40000) : crng.float(25, 600)) * 100),
      adSets: [],
      createdAt: cal.istTime((window?.start ?? last - crng.int(1, 30)) - crng.int(1, 5), crng.float(9, 20)),
      sampled: window !== null && crng.chance(sample.campaign),
    };

    const setCount = crng.int(shape.adSetsPerCampaign[0], shape.adSetsPerCampaign[1]);
    const setWindows = window ? adSetWindows(window, setCount, crng) : [];
    for (let s = 0; s < setCount; s++) {
      const srng = crng.fork(`adset/${s}`);
      const setWindow = setWindows[s] ?? null;
      const setStatus: Status =
        setWindow && window && setWindow.end < window.end ? stoppedStatus(setWindow.end, last, srng) : inheritedStatus(status, 'CAMPAIGN_PAUSED');
      const adSet: AdSetModel = {
        id: org.ids.uuid('ad_set'),
        platformId: org.ids.platformId('object', 13, '12021'),
        name: `${srng.pick(AD_SET_NAMES)} #${s + 1}`,
        window: setWindow,
        ...setStatus,
        weight: srng.float(0.5, 1.5),
        ads: [],
        createdAt: cal.istTime((setWindow?.start ?? last) - srng.int(0, 2), srng.float(9, 20)),
        sampled: setWindow !== null && srng.chance(sample.adset),
      };

      const adCount = srng.int(shape.adsPerAdSet[0], shape.adsPerAdSet[1]);
      const windows = setWindow ? adWindows(setWindow, adCount, srng) : Array.from({ length: adCount }, () => null);
      for (let a = 0; a < adCount; a++) {
        const adRng = srng.fork(`ad/${a}`);
        const adWindow = windows[a] ?? null;
        const isVideo = objective.resultType === 'video_view' || adRng.chance(0.3);
        let adStatus: Status;
        if (!adWindow) {
          adStatus =
            setStatus.effectiveStatus === 'ACTIVE' ? { status: 'ACTIVE', effectiveStatus: 'DISAPPROVED' } : inheritedStatus(setStatus, 'ADSET_PAUSED');
        } else if (setWindow && adWindow.end < setWindow.end) {
          adStatus = stoppedStatus(adWindow.end, last, adRng);
        } else {
          adStatus = inheritedStatus(setStatus, 'ADSET_PAUSED');
        }
        const platformId = org.ids.platformId('object', 13, '12021');
        const hasCreative = adRng.chance(0.95);
        adSet.ads.push({
          id: org.ids.uuid('ad'),
          platformId,
          name: `${adRng.pick(isVideo ? VIDEO_AD_NAMES : IMAGE_AD_NAMES)} v${a + 1}`,
          isVideo,
          window: adWindow,
          weight: adRng.float(0.3, 1.7),
          ...adStatus,
          thumbnailUrl: hasCreative ? `https://scontent.example.net/ads/${platformId}_p64x64.jpg` : null,
          imageUrl: hasCreative && !isVideo ? `https://scontent.example.net/ads/${platformId}_1080.jpg` : null,
          createdAt: cal.istTime((adWindow?.start ?? last) - adRng.int(0, 2), adRng.float(9, 20)),
          sampled: adWindow !== null && adRng.chance(sample.ad),
        });
      }
      campaign.adSets.push(adSet);
    }
    account.campaigns.push(campaign);
  }

  accounts.forEach((account, i) => setFunds(account, i, rng.fork(`funds/${i}`), days));
  return accounts;
}

/**
 * Balance, cap and lifetime spend. Lifetime spend comes from the budgets with a margin that keeps it
 * above what the synced range shows (the account also spent before it). Accounts 1 and 2 of every
 * organisation (and every fifth after) are under their low-balance threshold; every fifth account is
 * invoiced (no balance), odd ones have no spend cap, and some later ones no threshold.
 */
function setFunds(account: AccountModel, index: number, rng: Rng, days: number): void {
  const scale = account.currency === 'INR' ? 100 : 1.2;
  let budgetDays = 0;
  for (const c of account.campaigns) if (c.window) budgetDays += c.dailyBudgetCents * (c.window.end - c.window.start + 1);
  account.amountSpentCents = Math.round(budgetDays * 1.6 + rng.float(0, days) * scale * 10_000);
  account.lowBalanceThresholdCents = index > 2 && rng.chance(0.3) ? null : Math.round(rng.float(100, 500) * scale) * 100;
  const threshold = account.lowBalanceThresholdCents;
  if (index % 5 === 4) {
    account.balanceCents = null;
  } else if (threshold !== null && (index % 5 === 1 || index === 2)) {
    account.balanceCents = Math.round(threshold * rng.float(0.2, 0.8));
  } else {
    account.balanceCents = Math.round(rng.float(1000, 20_000) * scale) * 100;
  }
  account.spendCapCents = index % 2 === 1 ? null : account.amountSpentCents + Math.round(rng.float(2_000, 50_000) * scale) * 100;
}

export function adEntityTables(accounts: readonly AccountModel[]): TableData[] {
  const campaigns = accounts.flatMap((a) => a.campaigns.map((c) => ({ a, c })));
  const adSets = campaigns.flatMap(({ a, c }) => c.adSets.map((s) => ({ a, c, s })));
  const ads = adSets.flatMap(({ a, c, s }) => s.ads.map((ad) => ({ a, c, s, ad })));
  return [
    {
      table: 'ad_accounts',
      columns: ['id', 'org_id', 'client_id', 'platform_account_id', 'name', 'currency', 'timezone', 'balance', 'spend_cap', 'amount_spent', 'low_balance_threshold', 'created_at'],
      expectedRows: accounts.length,
      rows: () =>
        accounts.map((a) => [
          a.id,
          a.org.id,
          a.client?.id ?? null,
          a.platformAccountId,
          a.name,
          a.currency,
          a.timezone,
          a.balanceCents === null ? null : money(a.balanceCents),
          a.spendCapCents === null ? null : money(a.spendCapCents),
          money(a.amountSpentCents),
          a.lowBalanceThresholdCents === null ? null : money(a.lowBalanceThresholdCents),
          a.createdAt,
        ]),
    },
    {
      table: 'campaigns',
      columns: ['id', 'org_id', 'account_id', 'platform_id', 'name', 'objective', 'status', 'effective_status', 'result_type', 'created_at'],
      expectedRows: campaigns.length,
      rows: () => campaigns.map(({ a, c }) => [c.id, a.org.id, a.id, c.platformId, c.name, c.objective, c.status, c.effectiveStatus, c.resultType, c.createdAt]),
    },
    {
      table: 'ad_sets',
      columns: ['id', 'org_id', 'account_id', 'campaign_id', 'platform_id', 'name', 'status', 'effective_status', 'created_at'],
      expectedRows: adSets.length,
      rows: () => adSets.map(({ a, c, s }) => [s.id, a.org.id, a.id, c.id, s.platformId, s.name, s.status, s.effectiveStatus, s.createdAt]),
    },
    {
      table: 'ads',
      columns: ['id', 'org_id', 'account_id', 'campaign_id', 'ad_set_id', 'platform_id', 'name', 'status', 'effective_status', 'thumbnail_url', 'image_url', 'created_at'],
      expectedRows: ads.length,
      rows: () =>
        ads.map(({ a, c, s, ad }) => [ad.id, a.org.id, a.id, c.id, s.id, ad.platformId, ad.name, ad.status, ad.effectiveStatus, ad.thumbnailUrl, ad.imageUrl, ad.createdAt]),
    },
  ];
}
