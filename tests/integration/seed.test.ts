// The demo-data generator against a real PostgreSQL: seeds `tiny` into a database of its own and checks,
// with SQL, the invariants the API's tests compute their expectations from.
import { verify } from '@node-rs/argon2';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../prisma/migrate';
import { SeedError, seedDatabase, type SeedResult } from '../../prisma/seed/index';
import { createDatabase, dropDatabase } from '../support/database';

const END_DATE = '2026-03-31';

let database: { name: string; url: string };
let client: pg.Client;
let result: SeedResult;

async function rows<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  return (await client.query<T>(sql, values)).rows;
}

/** Runs a query that counts violations of an invariant. */
async function violations(sql: string): Promise<number> {
  const [row] = await rows<{ n: string }>(`SELECT count(*) AS n FROM (${sql}) AS v`);
  return Number(row?.n);
}

beforeAll(async () => {
  database = await createDatabase('seed_test');
  await applyMigrations(database.url);
  result = await seedDatabase(database.url, { scale: 'tiny', seed: 3, endDate: END_DATE });
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
}, 120_000);

afterAll(async () => {
  await client?.end();
  if (database) await dropDatabase(database.name);
});

describe('seedDatabase (tiny)', () => {
  it('reports what it loaded', async () => {
    for (const [table, count] of Object.entries(result.counts)) {
      const [row] = await rows<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`);
      expect(Number(row?.n), table).toBe(count);
      expect(count, table).toBeGreaterThan(0);
    }
    expect(result.orgs.map((o) => o.slug)).toEqual(['demo-agency', 'other-agency']);
  });

  it('analyzes every rollup the triggers filled, so that the first queries are planned on real statistics', async () => {
    // The migrations analyzed them empty; ANALYZE after loading counts every row of a table this small.
    const rollups = await rows<{ table: string; estimated: number }>(`
      SELECT relname AS table, reltuples::int AS estimated FROM pg_class
       WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND relname ~ '_(monthly|tenday|org_daily)$' ORDER BY relname`);
    expect(rollups.length).toBeGreaterThanOrEqual(16);
    const stale: string[] = [];
    for (const { table, estimated } of rollups) {
      const [row] = await rows<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`);
      if (estimated !== Number(row?.n)) stale.push(`${table}: estimated ${estimated}, holds ${row?.n}`);
    }
    expect(stale).toEqual([]);
  });

  it('refuses a database that already holds organisations', async () => {
    await expect(seedDatabase(database.url, { scale: 'tiny', endDate: END_DATE })).rejects.toBeInstanceOf(SeedError);
  });

  it('creates the demo users with working passwords and a member who sees some clients', async () => {
    const users = await rows<{ email: string; password_hash: string; role: string; slug: string; clients: string; access: string }>(`
      SELECT u.email, u.password_hash, m.role, o.slug,
             (SELECT count(*) FROM clients c WHERE c.org_id = o.id) AS clients,
             (SELECT count(*) FROM member_client_access a JOIN clients c ON c.id = a.client_id AND c.org_id = o.id WHERE a.membership_id = m.id) AS access
      FROM users u JOIN memberships m ON m.user_id = u.id JOIN organizations o ON o.id = m.org_id ORDER BY o.slug, m.role, u.email`);
    expect(users.map((u) => [u.email, u.role, u.slug])).toEqual([
      ['admin@demo.agency', 'admin', 'demo-agency'],
      ['member@demo.agency', 'member', 'demo-agency'],
      ['admin@other.agency', 'admin', 'other-agency'],
    ]);
    for (const user of users) expect(await verify(user.password_hash, 'demo-password')).toBe(true);
    const member = users.find((u) => u.role === 'member');
    expect(Number(member?.access)).toBeGreaterThan(0);
    expect(Number(member?.access)).toBeLessThan(Number(member?.clients));
    expect(await violations(`SELECT 1 FROM member_client_access a JOIN memberships m ON m.id = a.membership_id WHERE m.role = 'admin'`)).toBe(0);
  });

  it('keeps every row inside its own organisation', async () => {
    expect(
      await violations(`
        SELECT 1 FROM ad_accounts a JOIN clients c ON c.id = a.client_id WHERE c.org_id <> a.org_id
        UNION ALL SELECT 1 FROM campaigns x JOIN ad_accounts a ON a.id = x.account_id WHERE x.org_id <> a.org_id
        UNION ALL SELECT 1 FROM ads x JOIN ad_accounts a ON a.id = x.account_id WHERE x.org_id <> a.org_id
        UNION ALL SELECT 1 FROM ad_insights_daily i JOIN ad_accounts a ON a.id = i.account_id WHERE i.org_id <> a.org_id
        UNION ALL SELECT 1 FROM ad_account_breakdowns_daily b JOIN ad_accounts a ON a.id = b.account_id WHERE b.org_id <> a.org_id
        UNION ALL SELECT 1 FROM social_pages p JOIN clients c ON c.id = p.client_id WHERE c.org_id <> p.org_id
        UNION ALL SELECT 1 FROM social_posts x JOIN social_pages p ON p.id = x.social_page_id WHERE x.org_id <> p.org_id
        UNION ALL SELECT 1 FROM analytics_properties p JOIN clients c ON c.id = p.client_id WHERE c.org_id <> p.org_id
        UNION ALL SELECT 1 FROM search_console_sites s JOIN clients c ON c.id = s.client_id WHERE c.org_id <> s.org_id
        UNION ALL SELECT 1 FROM commerce_stores s JOIN clients c ON c.id = s.client_id WHERE c.org_id <> s.org_id`),
    ).toBe(0);
    // The second organisation has data of its own in every source.
    const [other] = await rows<Record<string, string>>(`
      SELECT (SELECT count(*) FROM ad_insights_daily WHERE org_id = o.id) AS insights,
             (SELECT count(*) FROM social_posts WHERE org_id = o.id) AS posts,
             (SELECT count(*) FROM analytics_properties WHERE org_id = o.id) AS properties,
             (SELECT count(*) FROM search_console_sites WHERE org_id = o.id) AS sites,
             (SELECT count(*) FROM commerce_stores WHERE org_id = o.id) AS stores
      FROM organizations o WHERE o.slug = 'other-agency'`);
    for (const [what, n] of Object.entries(other ?? {})) expect(Number(n), what).toBeGreaterThan(0);
    const names = await rows<{ n: string }>(`
      SELECT count(*) AS n FROM clients a JOIN clients b ON a.name = b.name AND a.org_id <> b.org_id`);
    expect(Number(names[0]?.n)).toBe(0);
  });

  it('has the ads structure the API relies on', async () => {
    const [shape] = await rows<Record<string, string>>(`
      SELECT count(*) FILTER (WHERE a.client_id IS NULL) AS unassigned,
             count(DISTINCT a.currency) AS currencies,
             (SELECT count(DISTINCT result_type) FROM campaigns c WHERE c.org_id = o.id) AS result_types,
             (SELECT count(DISTINCT objective) FROM campaigns c WHERE c.org_id = o.id) AS objectives,
             (SELECT count(*) FROM campaigns c WHERE c.org_id = o.id AND NOT EXISTS (SELECT 1 FROM ad_insights_daily i WHERE i.level = 'campaign' AND i.entity_id = c.id)) AS without_spend,
             (SELECT count(*) FROM ad_accounts x WHERE x.org_id = o.id AND x.balance < x.low_balance_threshold) AS low_balance
      FROM organizations o JOIN ad_accounts a ON a.org_id = o.id WHERE o.slug = 'demo-agency' GROUP BY o.id`);
    expect(Number(shape?.unassigned)).toBe(1);
    expect(Number(shape?.currencies)).toBe(2);
    expect(Number(shape?.result_types)).toBeGreaterThanOrEqual(2);
    expect(Number(shape?.objectives)).toBeGreaterThanOrEqual(3);
    expect(Number(shape?.without_spend)).toBeGreaterThan(0);
    expect(Number(shape?.low_balance)).toBeGreaterThanOrEqual(2);
    const statuses = (await rows<{ s: string }>(`SELECT DISTINCT effective_status AS s FROM campaigns UNION SELECT DISTINCT effective_status FROM ad_sets UNION SELECT DISTINCT effective_status FROM ads`)).map((r) => r.s);
    expect(statuses).toEqual(expect.arrayContaining(['ACTIVE', 'PAUSED', 'ARCHIVED', 'CAMPAIGN_PAUSED']));
    const [range] = await rows<{ first: string; last: string }>(`SELECT min(date)::text AS first, max(date)::text AS last FROM ad_insights_daily`);
    expect(range).toEqual({ first: '2026-01-31', last: END_DATE });
  });

  it('derives each insights level exactly from the level below', async () => {
    const childSums = (parentLevel: string, childLevel: string, parentColumn: string) => `
      SELECT p.level, p.entity_id, p.date, p.spend, p.impressions, p.clicks, p.link_clicks, p.results, p.video_views, p.video_3s_views,
             p.thruplays, p.video_p25, p.video_p100, p.purchase_value, p.reach,
             c.spend AS c_spend, c.impressions AS c_impressions, c.clicks AS c_clicks, c.link_clicks AS c_link_clicks, c.results AS c_results,
             c.video_views AS c_video_views, c.video_3s_views AS c_video_3s_views, c.thruplays AS c_thruplays, c.video_p25 AS c_video_p25,
             c.video_p100 AS c_video_p100, c.purchase_value AS c_purchase_value, c.reach_sum, c.reach_max, c.n
      FROM ad_insights_daily p
      FULL JOIN (
        SELECT ${parentColumn} AS parent_id, date, sum(spend) AS spend, sum(impressions) AS impressions, sum(clicks) AS clicks,
               sum(link_clicks) AS link_clicks, sum(results) AS results, sum(video_views) AS video_views, sum(video_3s_views) AS video_3s_views,
               sum(thruplays) AS thruplays, sum(video_p25) AS video_p25, sum(video_p100) AS video_p100, sum(purchase_value) AS purchase_value,
               sum(reach) AS reach_sum, max(reach) AS reach_max, count(*) AS n
        FROM ad_insights_daily WHERE level = '${childLevel}' GROUP BY 1, 2
      ) c ON c.parent_id = p.entity_id AND c.date = p.date
      WHERE p.level = '${parentLevel}' OR p.level IS NULL`;
    for (const [parent, child, column] of [
      ['adset', 'ad', 'ad_set_id'],
      ['campaign', 'adset', 'campaign_id'],
      ['account', 'campaign', 'account_id'],
    ]) {
      const sums = childSums(parent as string, child as string, column as string);
      const additive = ['spend', 'impressions', 'clicks', 'link_clicks', 'results', 'video_views', 'video_3s_views', 'thruplays', 'video_p25', 'video_p100', 'purchase_value'];
      expect(await violations(`SELECT 1 FROM (${sums}) s WHERE ${additive.map((m) => `s.${m} IS DISTINCT FROM s.c_${m}`).join(' OR ')}`), parent).toBe(0);
      expect(await violations(`SELECT 1 FROM (${sums}) s WHERE s.reach > s.reach_sum OR s.reach < s.reach_max`), `${parent} reach bounds`).toBe(0);
      expect(await violations(`SELECT 1 FROM (${sums}) s WHERE s.n > 1 AND s.reach < s.reach_sum`), `${parent} reach overlap`).toBeGreaterThan(0);
    }
    expect(await violations(`SELECT 1 FROM ad_insights_daily WHERE reach > impressions OR clicks > impressions OR link_clicks > clicks OR spend <> round(spend, 2)`)).toBe(0);
  });

  it('fills the lineage columns per level and nulls what a level does not report', async () => {
    expect(
      await violations(`
        SELECT 1 FROM ad_insights_daily WHERE
          (level = 'account' AND (entity_id <> account_id OR campaign_id IS NOT NULL OR ad_set_id IS NOT NULL OR ad_id IS NOT NULL)) OR
          (level = 'campaign' AND (entity_id IS DISTINCT FROM campaign_id OR ad_set_id IS NOT NULL OR ad_id IS NOT NULL)) OR
          (level = 'adset' AND (entity_id IS DISTINCT FROM ad_set_id OR campaign_id IS NULL OR ad_id IS NOT NULL)) OR
          (level = 'ad' AND (entity_id IS DISTINCT FROM ad_id OR campaign_id IS NULL OR ad_set_id IS NULL))`),
    ).toBe(0);
    // Ad rows match their ad's lineage, live only inside the ad's lifetime, and report video only for video ads.
    expect(await violations(`SELECT 1 FROM ad_insights_daily i JOIN ads a ON a.id = i.ad_id WHERE i.level = 'ad' AND (a.ad_set_id <> i.ad_set_id OR a.campaign_id <> i.campaign_id OR a.account_id <> i.account_id)`)).toBe(0);
    expect(await violations(`SELECT 1 FROM ad_insights_daily i JOIN campaigns c ON c.id = i.campaign_id WHERE i.level <> 'account' AND (i.result_type IS DISTINCT FROM c.result_type OR (c.result_type <> 'purchase' AND i.purchase_value IS NOT NULL))`)).toBe(0);
    const [nulls] = await rows<Record<string, string>>(`
      SELECT count(*) FILTER (WHERE results IS NULL) AS results, count(*) FILTER (WHERE video_views IS NULL) AS video,
             count(*) FILTER (WHERE video_views IS NOT NULL) AS with_video
      FROM ad_insights_daily WHERE level = 'ad'`);
    for (const [what, n] of Object.entries(nulls ?? {})) expect(Number(n), what).toBeGreaterThan(0);
  });

  it('has account breakdown rows that add up to the account day', async () => {
    for (const breakdown of ['age_gender', 'platform', 'placement']) {
      expect(
        await violations(`
          SELECT 1 FROM ad_insights_daily a
          LEFT JOIN (SELECT account_id, date, sum(spend) AS spend, sum(impressions) AS impressions, sum(clicks) AS clicks
                     FROM ad_account_breakdowns_daily WHERE breakdown = '${breakdown}' GROUP BY 1, 2) b
            ON b.account_id = a.entity_id AND b.date = a.date
          WHERE a.level = 'account' AND (b.spend IS DISTINCT FROM a.spend OR b.impressions IS DISTINCT FROM a.impressions OR b.clicks IS DISTINCT FROM a.clicks)`),
        breakdown,
      ).toBe(0);
    }
    expect(await violations(`SELECT 1 FROM ad_account_breakdowns_daily WHERE breakdown = 'platform' AND key2 <> ''`)).toBe(0);
  });

  it('has breakdown cache entries whose rows add up to the entity over the range', async () => {
    const [cache] = await rows<{ entries: string; stale: string; fresh: string; breakdowns: string }>(`
      SELECT count(*) AS entries,
             count(*) FILTER (WHERE fetched_at < $1::timestamptz - interval '1 day') AS stale,
             count(*) FILTER (WHERE fetched_at >= $1::timestamptz - interval '1 day') AS fresh,
             (SELECT count(DISTINCT breakdown) FROM ad_breakdown_cache_rows) AS breakdowns
      FROM ad_breakdown_cache`, [`${END_DATE}T18:30:00Z`]);
    expect(Number(cache?.stale)).toBeGreaterThan(0);
    expect(Number(cache?.fresh)).toBeGreaterThan(0);
    expect(Number(cache?.breakdowns)).toBe(5);
    expect(
      await violations(`
        SELECT 1 FROM ad_breakdown_cache c
        JOIN (SELECT cache_id, breakdown, sum(spend) AS spend, sum(impressions) AS impressions, sum(clicks) AS clicks FROM ad_breakdown_cache_rows GROUP BY 1, 2) r ON r.cache_id = c.id
        JOIN LATERAL (SELECT sum(spend) AS spend, sum(impressions) AS impressions, sum(clicks) AS clicks FROM ad_insights_daily i
                      WHERE i.level = c.level AND i.entity_id = c.entity_id AND i.date BETWEEN c.date_from AND c.date_to) t ON true
        WHERE r.spend <> t.spend OR r.impressions <> t.impressions OR r.clicks <> t.clicks`),
    ).toBe(0);
  });

  it('has social pages, daily metrics and posts with thumbnails', async () => {
    const [social] = await rows<Record<string, string>>(`
      SELECT (SELECT count(*) FROM social_pages WHERE ig_username IS NOT NULL) AS instagram_pages,
             (SELECT count(*) FROM social_pages WHERE ig_username IS NULL) AS facebook_only,
             (SELECT count(*) FROM social_daily WHERE views IS NULL) AS views_not_reported,
             (SELECT count(*) FROM social_posts WHERE platform = 'facebook' AND saves IS NOT NULL) AS facebook_saves,
             (SELECT count(DISTINCT content_type) FROM social_post_thumbnails) AS content_types,
             (SELECT count(*) FROM social_post_thumbnails WHERE sha256 <> encode(sha256(bytes), 'hex')) AS bad_digests,
             (SELECT count(*) FROM social_daily d JOIN social_pages p ON p.id = d.social_page_id WHERE d.platform = 'instagram' AND p.ig_user_id IS NULL) AS orphan_instagram`);
    expect(Number(social?.instagram_pages)).toBeGreaterThan(0);
    expect(Number(social?.facebook_only)).toBeGreaterThan(0);
    expect(Number(social?.views_not_reported)).toBeGreaterThan(0);
    expect(Number(social?.facebook_saves)).toBe(0);
    expect(Number(social?.content_types)).toBe(2);
    expect(Number(social?.bad_digests)).toBe(0);
    expect(Number(social?.orphan_instagram)).toBe(0);
  });

  it('has analytics dimension partitions that add up to the daily totals', async () => {
    for (const dimension of ['channel', 'source', 'device', 'country', 'new_returning']) {
      expect(
        await violations(`
          SELECT 1 FROM analytics_daily d
          JOIN (SELECT analytics_property_id, date, sum(sessions) AS sessions, sum(total_users) AS users, sum(new_users) AS new_users,
                       sum(engaged_sessions) AS engaged, sum(total_revenue) AS revenue, sum(key_events) AS key_events
                FROM analytics_dimensions_daily WHERE dimension = '${dimension}' GROUP BY 1, 2) x USING (analytics_property_id, date)
          WHERE x.sessions IS DISTINCT FROM d.sessions OR x.users IS DISTINCT FROM d.total_users OR x.new_users IS DISTINCT FROM d.new_users
             OR x.engaged IS DISTINCT FROM d.engaged_sessions OR x.revenue IS DISTINCT FROM d.total_revenue OR x.key_events IS DISTINCT FROM d.key_events`),
        dimension,
      ).toBe(0);
    }
    const [coverage] = await rows<{ dimensions: string; late_start: string; earliest: string }>(`
      SELECT (SELECT count(DISTINCT dimension) FROM analytics_dimensions_daily) AS dimensions,
             (SELECT count(*) FROM (SELECT analytics_property_id FROM analytics_daily GROUP BY 1 HAVING min(date) > '2026-01-31') s) AS late_start,
             (SELECT min(date)::text FROM analytics_daily) AS earliest`);
    expect(Number(coverage?.dimensions)).toBe(9);
    expect(Number(coverage?.late_start)).toBeGreaterThan(0);
    expect(coverage?.earliest).toBe('2026-01-31');
  });

  it('has search-console partitions that add up and positions weighted by impressions', async () => {
    for (const dimension of ['device', 'country']) {
      expect(
        await violations(`
          SELECT 1 FROM search_console_daily d
          JOIN (SELECT search_console_site_id, date, sum(clicks) AS clicks, sum(impressions) AS impressions,
                       sum(position * impressions) / sum(impressions) AS position
                FROM search_console_dimensions_daily WHERE dimension = '${dimension}' GROUP BY 1, 2) x USING (search_console_site_id, date)
          WHERE x.clicks <> d.clicks OR x.impressions <> d.impressions ${dimension === 'device' ? 'OR abs(x.position - d.position) > 1e-6' : ''}`),
        dimension,
      ).toBe(0);
    }
    expect(await violations(`SELECT 1 FROM search_console_dimensions_daily WHERE clicks > impressions`)).toBe(0);
    expect(await violations(`SELECT 1 FROM search_console_sites s WHERE NOT EXISTS (SELECT 1 FROM search_console_daily d WHERE d.search_console_site_id = s.id)`)).toBe(1);
  });

  it('has store rows that satisfy the sales identities and add up per dimension', async () => {
    const identities = `net_sales <> gross_sales - discounts - returns OR total_sales <> net_sales + shipping + taxes + duties + tips OR customers <> new_customers + returning_customers`;
    expect(await violations(`SELECT 1 FROM store_daily WHERE ${identities}`)).toBe(0);
    expect(await violations(`SELECT 1 FROM store_dimensions_daily WHERE ${identities}`)).toBe(0);
    for (const dimension of ['product', 'channel', 'referrer', 'country', 'discount']) {
      expect(
        await violations(`
          SELECT 1 FROM store_daily d
          JOIN (SELECT commerce_store_id, date, sum(gross_sales) AS gross, sum(net_sales) AS net, sum(total_sales) AS total,
                       sum(orders) AS orders, sum(units_sold) AS units, sum(customers) AS customers
                FROM store_dimensions_daily WHERE dimension = '${dimension}' GROUP BY 1, 2) x USING (commerce_store_id, date)
          WHERE x.gross <> d.gross_sales OR x.net <> d.net_sales OR x.total <> d.total_sales OR x.orders <> d.orders
             OR x.units <> d.units_sold OR x.customers IS DISTINCT FROM d.customers`),
        dimension,
      ).toBe(0);
    }
    expect(await violations(`SELECT DISTINCT has_all_orders_scope FROM commerce_stores`)).toBe(2);
  });

  it('has a sync history with a failing resource and one never synced', async () => {
    const latest = await rows<{ source: string; status: string; succeeded_before: boolean; ever_succeeded: boolean }>(`
      SELECT DISTINCT ON (resource_id) source, status,
             EXISTS (SELECT 1 FROM sync_runs e WHERE e.resource_id = r.resource_id AND e.status = 'succeeded' AND e.started_at < r.started_at) AS succeeded_before,
             EXISTS (SELECT 1 FROM sync_runs e WHERE e.resource_id = r.resource_id AND e.status = 'succeeded') AS ever_succeeded
      FROM sync_runs r ORDER BY resource_id, started_at DESC`);
    expect(latest.some((r) => r.status === 'failed' && r.succeeded_before)).toBe(true);
    expect(latest.filter((r) => !r.ever_succeeded).map((r) => r.source)).toEqual(['search_console']);
    // Every synced resource has runs, and the last success ends shortly before the end of the end date (IST).
    expect(
      await violations(`
        SELECT id FROM ad_accounts UNION ALL SELECT id FROM social_pages UNION ALL SELECT id FROM analytics_properties
        UNION ALL SELECT id FROM search_console_sites UNION ALL SELECT id FROM commerce_stores
        EXCEPT SELECT resource_id FROM sync_runs`),
    ).toBe(0);
    const [last] = await rows<{ last: Date }>(`SELECT max(finished_at) AS last FROM sync_runs WHERE status = 'succeeded'`);
    const end = Date.parse(`${END_DATE}T18:30:00Z`);
    expect(last?.last.getTime()).toBeLessThan(end);
    expect(last?.last.getTime()).toBeGreaterThan(end - 2 * 3_600_000);
  });
});
