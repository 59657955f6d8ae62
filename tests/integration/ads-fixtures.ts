// Hand-made ads data for edge cases the demo generator does not produce (mixed result types, all-null
// results, zero clicks, 501+ campaigns, breakdown caches). Each test file builds its own organisation,
// so nothing it inserts can disturb other files running in parallel, and removes it afterwards.
import { randomUUID } from 'node:crypto';
import { sql } from '@/lib/db';

let platformCounter = 0;
const platformId = () => `9${Date.now() % 1e9}${String(++platformCounter).padStart(5, '0')}`;

export async function createOrg(name: string): Promise<string> {
  const id = randomUUID();
  await sql('INSERT INTO organizations (id, slug, name) VALUES ($1, $2, $3)', [id, `ads-test-${id}`, name]);
  return id;
}

/** Removes an organisation and everything inserted for it (insight and cache tables have no foreign keys). */
export async function dropOrg(orgId: string): Promise<void> {
  await sql('DELETE FROM ad_insights_daily WHERE org_id = $1', [orgId]);
  await sql('DELETE FROM ad_account_breakdowns_daily WHERE org_id = $1', [orgId]);
  await sql('DELETE FROM ad_breakdown_cache WHERE org_id = $1', [orgId]);
  await sql('DELETE FROM organizations WHERE id = $1', [orgId]);
}

export async function createClient(orgId: string, name: string): Promise<string> {
  const id = randomUUID();
  await sql('INSERT INTO clients (id, org_id, name) VALUES ($1, $2, $3)', [id, orgId, name]);
  return id;
}

export interface AccountFixture {
  id: string;
  platformAccountId: string;
  name: string;
}

export async function createAccount(
  orgId: string,
  options: { clientId: string | null; name: string; currency: string | null; balance?: string | null; threshold?: string | null; cap?: string | null; spent?: string | null },
): Promise<AccountFixture> {
  const account = { id: randomUUID(), platformAccountId: `act_${platformId()}`, name: options.name };
  await sql(
    `INSERT INTO ad_accounts (id, org_id, client_id, platform_account_id, name, currency, balance, low_balance_threshold, spend_cap, amount_spent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      account.id,
      orgId,
      options.clientId,
      account.platformAccountId,
      options.name,
      options.currency,
      options.balance ?? null,
      options.threshold ?? null,
      options.cap ?? null,
      options.spent ?? null,
    ],
  );
  return account;
}

export interface EntityFixture {
  id: string;
  platformId: string;
  name: string;
}

export async function createCampaign(orgId: string, accountId: string, name: string, resultType: string | null = null): Promise<EntityFixture> {
  const campaign = { id: randomUUID(), platformId: platformId(), name };
  await sql(
    `INSERT INTO campaigns (id, org_id, account_id, platform_id, name, objective, status, effective_status, result_type)
     VALUES ($1, $2, $3, $4, $5, 'OUTCOME_TEST', 'ACTIVE', 'ACTIVE', $6)`,
    [campaign.id, orgId, accountId, campaign.platformId, name, resultType],
  );
  return campaign;
}

export async function createAdSet(orgId: string, accountId: string, campaignId: string, name: string): Promise<EntityFixture> {
  const adSet = { id: randomUUID(), platformId: platformId(), name };
  await sql(
    `INSERT INTO ad_sets (id, org_id, account_id, campaign_id, platform_id, name, status, effective_status)
     VALUES ($1, $2, $3, $4, $5, $6, 'ACTIVE', 'ACTIVE')`,
    [adSet.id, orgId, accountId, campaignId, adSet.platformId, name],
  );
  return adSet;
}

export async function createAd(orgId: string, accountId: string, campaignId: string, adSetId: string, name: string): Promise<EntityFixture> {
  const ad = { id: randomUUID(), platformId: platformId(), name };
  await sql(
    `INSERT INTO ads (id, org_id, account_id, campaign_id, ad_set_id, platform_id, name, status, effective_status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'ACTIVE', 'ACTIVE')`,
    [ad.id, orgId, accountId, campaignId, adSetId, ad.platformId, name],
  );
  return ad;
}

export interface InsightFixture {
  level: 'account' | 'campaign' | 'adset' | 'ad';
  entityId: string;
  accountId: string;
  campaignId?: string | null;
  adSetId?: string | null;
  adId?: string | null;
  date: string;
  spend: string;
  impressions: number;
  reach: number;
  clicks: number;
  linkClicks?: number;
  results?: number | null;
  resultType?: string | null;
}

export async function insertInsights(orgId: string, rows: InsightFixture[]): Promise<void> {
  const column = <T>(pick: (row: InsightFixture) => T) => rows.map(pick);
  await sql(
    `INSERT INTO ad_insights_daily (org_id, level, entity_id, account_id, campaign_id, ad_set_id, ad_id, date, spend, impressions, reach,
                                    clicks, link_clicks, results, result_type)
     SELECT $1::uuid, * FROM unnest($2::"AdLevel"[], $3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[], $7::uuid[], $8::date[], $9::numeric[],
                              $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[], $14::bigint[], $15::text[])`,
    [
      orgId,
      column((r) => r.level),
      column((r) => r.entityId),
      column((r) => r.accountId),
      column((r) => r.campaignId ?? null),
      column((r) => r.adSetId ?? null),
      column((r) => r.adId ?? null),
      column((r) => r.date),
      column((r) => r.spend),
      column((r) => r.impressions),
      column((r) => r.reach),
      column((r) => r.clicks),
      column((r) => r.linkClicks ?? r.clicks),
      column((r) => r.results ?? null),
      column((r) => r.resultType ?? null),
    ],
  );
}

export async function recordSync(orgId: string, accountId: string, finishedAt: string): Promise<void> {
  await sql(
    `INSERT INTO sync_runs (id, org_id, source, resource_id, status, started_at, finished_at)
     VALUES ($1, $2, 'ads', $3, 'succeeded', $4::timestamptz - interval '5 minutes', $4::timestamptz)`,
    [randomUUID(), orgId, accountId, finishedAt],
  );
}

// ───────────── expectations computed from the stored rows, independently of lib/metrics ─────────────

export interface StoredInsight {
  level: 'account' | 'campaign' | 'adset' | 'ad';
  entity_id: string;
  account_id: string;
  campaign_id: string | null;
  ad_set_id: string | null;
  date: string;
  spend: string;
  impressions: number;
  reach: number;
  clicks: number;
  link_clicks: number;
  results: number | null;
  result_type: string | null;
  video_views: number | null;
  video_3s_views: number | null;
  thruplays: number | null;
  video_p25: number | null;
  video_p50: number | null;
  video_p75: number | null;
  video_p100: number | null;
  purchase_value: string | null;
}

/** Every stored insight row of an organisation (the `tiny` seed holds a few thousand). */
export function storedInsights(orgId: string): Promise<StoredInsight[]> {
  return sql<StoredInsight>(
    `SELECT level::text, entity_id, account_id, campaign_id, ad_set_id, date::text, spend::text,
            impressions::float8 AS impressions, reach::float8 AS reach, clicks::float8 AS clicks, link_clicks::float8 AS link_clicks,
            results::float8 AS results, result_type, video_views::float8 AS video_views, video_3s_views::float8 AS video_3s_views,
            thruplays::float8 AS thruplays, video_p25::float8 AS video_p25, video_p50::float8 AS video_p50,
            video_p75::float8 AS video_p75, video_p100::float8 AS video_p100, purchase_value::text
       FROM ad_insights_daily WHERE org_id = $1`,
    [orgId],
  );
}

export function inRange<T extends { date: string }>(rows: T[], from: string, to: string): T[] {
  return rows.filter((row) => row.date >= from && row.date <= to);
}

/** Exact sum of money strings (in cents, then back), as a JSON number. */
export function sumMoney(values: (string | null)[]): number {
  return values.reduce((cents, value) => cents + (value === null ? 0 : Math.round(Number(value) * 100)), 0) / 100;
}

/** Sum of the reported values; null when none is reported. */
export function sumReported(values: (number | null)[]): number | null {
  const reported = values.filter((value): value is number => value !== null);
  return reported.length === 0 ? null : reported.reduce((a, b) => a + b, 0);
}

/** The peak over days of the day's reach summed over the rows. */
export function peakDailyReach(rows: StoredInsight[]): number {
  const byDay = new Map<string, number>();
  for (const row of rows) byDay.set(row.date, (byDay.get(row.date) ?? 0) + row.reach);
  return Math.max(0, ...byDay.values());
}

/** The spec's rule for results: the type with the most spend (ties alphabetical), its results and cost per result. */
export function expectedResults(rows: StoredInsight[]): { resultType: string | null; results: number | null; costPerResult: number | null } {
  const spendByType = new Map<string, number>();
  for (const row of rows) if (row.result_type) spendByType.set(row.result_type, (spendByType.get(row.result_type) ?? 0) + Math.round(Number(row.spend) * 100));
  const [resultType] = [...spendByType.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? [null];
  if (!resultType) return { resultType: null, results: null, costPerResult: null };
  const ofType = rows.filter((row) => row.result_type === resultType);
  const results = sumReported(ofType.map((row) => row.results));
  const reportedSpend = sumMoney(ofType.filter((row) => row.results !== null).map((row) => row.spend));
  return { resultType, results, costPerResult: results ? reportedSpend / results : null };
}
