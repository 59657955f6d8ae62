// Breakdowns of ads delivery: account-level daily rows for the overview widgets
// (ad_account_breakdowns_daily) and the on-demand breakdown cache (ad_breakdown_cache[_rows]).
//
// Meaning of key1 / key2, in both tables:
//   age_gender  key1 = age bucket ("18-24" … "65+"), key2 = "female" | "male" | "unknown"
//   platform    key1 = publisher platform ("facebook", "instagram", "audience_network", "messenger"), key2 = ""
//   placement   key1 = publisher platform, key2 = position ("feed", "story", "reels", "marketplace",
//               "video_feeds", "search", "explore", "classic", "inbox")
//   device      key1 = device platform ("mobile_app", "mobile_web", "desktop"), key2 = ""   (cache only)
//   region      key1 = region name ("Maharashtra", "California"), key2 = ISO 3166-1 alpha-2 country ("IN")   (cache only)
//
// Within one breakdown, spend, impressions and clicks partition the whole exactly: the account's day for
// the daily table, the entity's totals over the cached range for the cache. Placement rows also add up
// to their platform's row. Reach is per key and does not add up (people see ads in several placements).
// Rows with no delivery are left out, as the ads platform does.
//
// Breakdown cache entries: sampled campaigns, ad sets and ads, for the last 7 days and the last 30 days
// ending on the end date, and for a third of them the 30 days before those; only ranges in which the
// entity delivered are cached. fetched_at is mostly within
// a few hours before the end of the end date (IST), about a third are 1–4 days older, and the older range
// was fetched the day after it ended. Rows always match the insights as stored (a simplification: the
// platform restates figures, so a real old fetch could differ slightly).
import type { Calendar } from '../calendar';
import { AD_PLATFORMS, AD_PLATFORM_WEIGHTS, AGES, DEVICE_PLATFORMS, DEVICE_PLATFORM_WEIGHTS, GENDERS, POSITIONS, REGIONS } from '../catalog';
import type { Row, TableData } from '../copy';
import { money, splitInt } from '../numbers';
import { Rng } from '../random';
import type { AccountModel } from './entities';
import type { AdsLedger, CacheRange } from './insights';

interface Delivery {
  spend: number;
  impressions: number;
  clicks: number;
}

interface KeyedDelivery extends Delivery {
  key1: string;
  key2: string;
}

/** The ranges the cache holds, as day indices: last 7 days, last 30 days, the 30 days before. */
export function cacheRanges(cal: Calendar): CacheRange[] {
  const last = cal.last;
  return [
    { from: Math.max(0, last - 6), to: last },
    { from: Math.max(0, last - 29), to: last },
    { from: Math.max(0, last - 59), to: Math.max(0, last - 30) },
  ];
}

function partition(total: Delivery, weights: readonly number[]): Delivery[] {
  const spend = splitInt(total.spend, weights);
  const impressions = splitInt(total.impressions, weights);
  const clicks = splitInt(total.clicks, weights);
  return weights.map((_, i) => ({ spend: spend[i] ?? 0, impressions: impressions[i] ?? 0, clicks: clicks[i] ?? 0 }));
}

function keyed(parts: Delivery[], keys: readonly [string, string][]): KeyedDelivery[] {
  return parts.map((p, i) => ({ ...p, key1: keys[i]?.[0] ?? '', key2: keys[i]?.[1] ?? '' }));
}

const AGE_GENDER_KEYS = AGES.flatMap((age) => GENDERS.map((gender) => [age, gender] as [string, string]));
const PLATFORM_KEYS = AD_PLATFORMS.map((p) => [p, ''] as [string, string]);

function ageGender(account: AccountModel, total: Delivery, rng: Rng): KeyedDelivery[] {
  const weights = AGE_GENDER_KEYS.map((_, i) => {
    const age = account.ageWeights[Math.floor(i / GENDERS.length)] ?? 0;
    const gender = i % GENDERS.length;
    const share = gender === 0 ? account.femaleShare * 0.97 : gender === 1 ? (1 - account.femaleShare) * 0.97 : 0.03;
    return age * share * rng.noise(0.08);
  });
  return keyed(partition(total, weights), AGE_GENDER_KEYS);
}

/** Platform rows and, nested in them, placement rows (so placements add up to their platform). */
function platformsAndPlacements(total: Delivery, rng: Rng): { platforms: KeyedDelivery[]; placements: KeyedDelivery[] } {
  const platformParts = partition(total, AD_PLATFORM_WEIGHTS.map((w) => w * rng.noise(0.1)));
  const placements: KeyedDelivery[] = [];
  AD_PLATFORMS.forEach((platform, i) => {
    const positions = POSITIONS[platform];
    const parts = partition(platformParts[i] as Delivery, positions.map((p) => p.weight * rng.noise(0.1)));
    placements.push(...keyed(parts, positions.map((p) => [platform, p.position] as [string, string])));
  });
  return { platforms: keyed(platformParts, PLATFORM_KEYS), placements };
}

function withReach(row: KeyedDelivery, frequency: number): KeyedDelivery & { reach: number } {
  const reach = row.impressions === 0 ? 0 : Math.max(1, Math.min(row.impressions, Math.round(row.impressions / frequency)));
  return { ...row, reach };
}

const delivered = (row: Delivery) => row.spend > 0 || row.impressions > 0 || row.clicks > 0;

export function accountBreakdownTable(cal: Calendar, seed: number, accounts: readonly AccountModel[], ledger: AdsLedger): TableData {
  const keysPerDay = AGE_GENDER_KEYS.length + PLATFORM_KEYS.length + Object.values(POSITIONS).reduce((n, p) => n + p.length, 0);
  function* rows(): Generator<Row> {
    ledger.assertComplete();
    for (const account of accounts) {
      const series = ledger.accountSeries.get(account.id);
      if (!series) continue;
      const rng = new Rng(seed, `account-breakdowns/${account.id}`);
      for (let i = 0; i < series.days.length; i++) {
        const m = series.days[i];
        if (!m) continue;
        const date = cal.date(series.start + i);
        const frequency = rng.float(1.1, 1.4);
        const { platforms, placements } = platformsAndPlacements(m, rng);
        const groups: [string, KeyedDelivery[]][] = [
          ['age_gender', ageGender(account, m, rng)],
          ['platform', platforms],
          ['placement', placements],
        ];
        for (const [breakdown, parts] of groups) {
          for (const part of parts) {
            if (!delivered(part)) continue;
            const r = withReach(part, frequency);
            yield [account.org.id, account.id, breakdown, date, r.key1, r.key2, money(r.spend), r.impressions, r.clicks, r.reach];
          }
        }
      }
    }
  }
  // An upper bound: days with delivery times keys; keys without delivery are skipped.
  const accountDays = accounts.reduce((n, a) => n + a.campaigns.reduce((m, c) => Math.max(m, c.window ? c.window.end - c.window.start + 1 : 0), 0), 0);
  return {
    table: 'ad_account_breakdowns_daily',
    columns: ['org_id', 'account_id', 'breakdown', 'date', 'key1', 'key2', 'spend', 'impressions', 'clicks', 'reach'],
    expectedRows: accountDays * keysPerDay,
    rows,
  };
}

interface CacheEntry {
  id: string;
  orgId: string;
  level: string;
  entityId: string;
  range: CacheRange;
  fetchedAt: string;
  rows: Row[];
}

function entityBreakdownRows(cacheId: string, account: AccountModel, total: Delivery, rangeDays: number, rng: Rng): Row[] {
  const frequency = (1.2 + 0.035 * rangeDays) * rng.noise(0.1);
  const { platforms, placements } = platformsAndPlacements(total, rng);
  const regions = REGIONS[account.currency === 'INR' ? 'IN' : 'US'];
  const groups: [string, KeyedDelivery[]][] = [
    ['age_gender', ageGender(account, total, rng)],
    ['device', keyed(partition(total, DEVICE_PLATFORM_WEIGHTS.map((w) => w * rng.noise(0.15))), DEVICE_PLATFORMS.map((d) => [d, ''] as [string, string]))],
    ['platform', platforms],
    ['placement', placements],
    ['region', keyed(partition(total, regions.map((r) => r.weight * rng.noise(0.2))), regions.map((r) => [r.region, r.country] as [string, string]))],
  ];
  const rows: Row[] = [];
  for (const [breakdown, parts] of groups) {
    for (const part of parts) {
      if (!delivered(part)) continue;
      const r = withReach(part, frequency);
      rows.push([cacheId, breakdown, r.key1, r.key2, money(r.spend), r.impressions, r.clicks, r.reach]);
    }
  }
  return rows;
}

/** Both cache tables; the entries are built once, when the first of the two is written. */
export function breakdownCacheTables(cal: Calendar, seed: number, ledger: AdsLedger, estimatedEntities: number): TableData[] {
  let entries: CacheEntry[] | undefined;
  const build = (): CacheEntry[] => {
    if (entries) return entries;
    ledger.assertComplete();
    entries = [];
    for (const entity of ledger.sampled) {
      const rng = new Rng(seed, `breakdown-cache/${entity.entityId}`);
      ledger.ranges.forEach((range, r) => {
        const older = range.to < cal.last;
        if (older && !rng.chance(1 / 3)) return;
        const total = entity.totals[r];
        if (!total || total.impressions === 0) return; // only ranges in which the entity delivered
        const id = rng.uuid();
        const fetchedAt = older
          ? cal.istTime(range.to + 1, rng.float(8, 20))
          : cal.beforeEnd(rng.chance(0.7) ? rng.float(0.1, 6) : rng.float(26, 96));
        entries?.push({
          id,
          orgId: entity.account.org.id,
          level: entity.level,
          entityId: entity.entityId,
          range,
          fetchedAt,
          rows: entityBreakdownRows(id, entity.account, total, range.to - range.from + 1, rng),
        });
      });
    }
    return entries;
  };
  return [
    {
      table: 'ad_breakdown_cache',
      columns: ['id', 'org_id', 'level', 'entity_id', 'date_from', 'date_to', 'fetched_at'],
      expectedRows: estimatedEntities * 2,
      rows: function* () {
        for (const e of build()) yield [e.id, e.orgId, e.level, e.entityId, cal.date(e.range.from), cal.date(e.range.to), e.fetchedAt];
      },
    },
    {
      table: 'ad_breakdown_cache_rows',
      columns: ['cache_id', 'breakdown', 'key1', 'key2', 'spend', 'impressions', 'clicks', 'reach'],
      expectedRows: estimatedEntities * 2 * 50,
      rows: function* () {
        for (const e of build()) yield* e.rows;
      },
    },
  ];
}
