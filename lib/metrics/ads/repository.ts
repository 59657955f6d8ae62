// The SQL of the ads endpoints. Each function is one planned statement with its aggregates in the
// database (money is summed exactly there); numeric and bigint columns come back as strings and are
// parsed by mapping.ts. Every statement filters ad_insights_daily by org, level and date first, so that
// it runs on the (org_id, level, date), (account_id, level, date) or primary-key index.
// Figures over a range that need no daily detail are read from the rollups (ad_insights_quarterly,
// _monthly and _tenday, ad_account_breakdowns_monthly and _tenday, and for a whole organisation's breakdown
// sums ad_account_breakdowns_org_monthly and _org_tenday; kept exact by database triggers, see migrations
// 20261122100000_ads_rollups, 20261122130000_ads_tenday_rollups, 20261125042700_ads_breakdowns_org_rollups
// and 20261126020000_ads_quarterly_rollup): the whole IST months inside the range from the monthly rollup
// (for the entity lists, its whole calendar quarters from the quarterly one), the whole ten-day blocks of
// its partial months from the ten-day one, the other days from the daily table (see ../range-split.ts),
// UNION ALL, then aggregated per entity or key. Peaks (reach) are the max of the parts. The daily series of a whole
// organisation come from ad_insights_org_daily (same triggers).
// This file: which rows a statement reads (insight rows, accounts and entities in reach) and the breakdown
// cache; the figures' statements are one file per query in queries/ (period-sums, breakdown-sums,
// entity-lists), the range's parts in ../range-parts.ts.
import type { Reach } from '../../reach/reach';
import { reachCondition } from '../../reach/reach';
import { readSql as sql, type SqlParams } from '../../db';
import { UUID_PATTERN } from '../../text/uuid';
import type { AdLevel } from './schemas';

export type InsightLevel = 'account' | AdLevel;

/**
 * Which daily insight rows a figure is read from: one level, and either some entities' own rows (through
 * the primary key) or the rows of a set of accounts (`accountIds: null` = every account of the
 * organisation, which lets the statement run on the (org_id, level, date) index instead of
 * (account_id, level, date)).
 */
export type InsightRows = { orgId: string; level: InsightLevel } & ({ entityIds: string[] } | { accountIds: string[] | null });

/** The row filter as a condition on a table alias (the daily table and the rollups share the columns). */
export function insightCondition(params: SqlParams, rows: InsightRows): (alias: string) => string {
  const org = params.add(rows.orgId);
  const level = params.add(rows.level);
  const [column, narrowing] =
    'entityIds' in rows
      ? ['entity_id', `= ANY(${params.add(rows.entityIds)}::uuid[])`]
      : rows.accountIds !== null
        ? ['account_id', `= ANY(${params.add(rows.accountIds)}::uuid[])`]
        : [null, ''];
  return (alias) => `${alias}.org_id = ${org}::uuid AND ${alias}.level = ${level}::"AdLevel"${column ? ` AND ${alias}.${column} ${narrowing}` : ''}`;
}

/** The accounts a request reads, as an insight-row filter: null when it reads the whole organisation. */
export function accountFilter(reach: Reach, accounts: { id: string }[]): string[] | null {
  return reach.clientIds === null ? null : accounts.map((account) => account.id);
}

// ───────────── accounts and entities in reach ─────────────

export interface AccountRow {
  id: string;
  platform_account_id: string;
  name: string;
  currency: string | null;
  client_id: string | null;
  client_name: string | null;
  balance: string | null;
  low_balance_threshold: string | null;
  /** The balance is under the account's low-balance threshold (both reported). */
  low_balance: boolean;
  /** Sums over all the returned accounts (window aggregates), exact. */
  total_balance: string | null;
  total_spent: string | null;
  total_cap: string | null;
}

/** The ad accounts in reach (optionally only one of them), with their funds summed exactly. Index: ad_accounts (org_id, client_id). */
export function accountsInReach(reach: Reach, onlyAccountId?: string): Promise<AccountRow[]> {
  return sql<AccountRow>(
    `SELECT a.id, a.platform_account_id, a.name, a.currency, a.client_id, c.name AS client_name,
            a.balance::text, a.low_balance_threshold::text,
            coalesce(a.balance < a.low_balance_threshold, false) AS low_balance,
            (sum(a.balance) OVER ())::text AS total_balance,
            (sum(a.amount_spent) OVER ())::text AS total_spent,
            (sum(a.spend_cap) OVER ())::text AS total_cap
       FROM ad_accounts a
       LEFT JOIN clients c ON c.id = a.client_id
      WHERE ${reachCondition('a', 1, 2)} AND ($3::uuid IS NULL OR a.id = $3::uuid)
      ORDER BY a.name, a.id`,
    [reach.orgId, reach.clientIds, onlyAccountId ?? null],
  );
}

/** The ids of the ad accounts a request reads, as an insight-row filter: null (no lookup) for a whole organisation. */
export async function accountIdsInReach(reach: Reach): Promise<string[] | null> {
  return reach.clientIds === null ? null : accountFilter(reach, await accountsInReach(reach));
}

export const ENTITY_TABLES: Record<AdLevel, { table: string; campaign: string; adSet: string }> = {
  campaign: { table: 'campaigns', campaign: 'e.id', adSet: 'NULL::uuid' },
  adset: { table: 'ad_sets', campaign: 'e.campaign_id', adSet: 'e.id' },
  ad: { table: 'ads', campaign: 'e.campaign_id', adSet: 'e.ad_set_id' },
};

export interface EntityRef {
  id: string;
  level: AdLevel;
  account_id: string;
  campaign_id: string;
  ad_set_id: string | null;
}

/**
 * An entity of `level` by its platform id or internal id, if it is in reach (its account is).
 * Indexes: (org_id, platform_id) unique and the primary key.
 */
export async function findEntity(reach: Reach, level: AdLevel, idOrPlatformId: string): Promise<EntityRef | null> {
  const { table, campaign, adSet } = ENTITY_TABLES[level];
  const rows = await sql<EntityRef>(
    `SELECT e.id, $5::text AS level, e.account_id, ${campaign} AS campaign_id, ${adSet} AS ad_set_id
       FROM ${table} e
       JOIN ad_accounts a ON a.id = e.account_id
      WHERE e.org_id = $1 AND (e.platform_id = $3 OR e.id = $4::uuid) AND ${reachCondition('a', 1, 2)}
      ORDER BY (e.id = $4::uuid) DESC NULLS LAST
      LIMIT 1`,
    [reach.orgId, reach.clientIds, idOrPlatformId, UUID_PATTERN.test(idOrPlatformId) ? idOrPlatformId : null, level],
  );
  return rows[0] ?? null;
}

// ───────────── breakdown cache (/ads/breakdowns) ─────────────

export interface BreakdownCacheRow {
  fetched_at: Date;
  /** null when the cache entry has no rows at all. */
  breakdown: 'age_gender' | 'device' | 'platform' | 'placement' | 'region' | null;
  key1: string | null;
  key2: string | null;
  spend: string | null;
  impressions: string | null;
  clicks: string | null;
  reach: string | null;
}

/**
 * The cached breakdowns of one entity for exactly this range (no rows: nothing cached).
 * Indexes: ad_breakdown_cache (level, entity_id, date_from, date_to) unique; rows by primary key (cache_id, …).
 */
export function cachedBreakdowns(orgId: string, level: AdLevel, entityId: string, from: string, to: string): Promise<BreakdownCacheRow[]> {
  return sql<BreakdownCacheRow>(
    `SELECT c.fetched_at, r.breakdown::text AS breakdown, r.key1, r.key2,
            r.spend::text AS spend, r.impressions::text AS impressions, r.clicks::text AS clicks, r.reach::text AS reach
       FROM ad_breakdown_cache c
       LEFT JOIN ad_breakdown_cache_rows r ON r.cache_id = c.id
      WHERE c.level = $2::"AdLevel" AND c.entity_id = $3::uuid AND c.date_from = $4::date AND c.date_to = $5::date AND c.org_id = $1::uuid
      ORDER BY r.breakdown, r.spend DESC, r.key1 COLLATE "C", r.key2 COLLATE "C"`,
    [orgId, level, entityId, from, to],
  );
}
