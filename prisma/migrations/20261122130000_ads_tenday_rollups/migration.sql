-- CreateTable
CREATE TABLE "ad_insights_tenday" (
    "level" "AdLevel" NOT NULL,
    "entity_id" UUID NOT NULL,
    "block" DATE NOT NULL,
    "result_type" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "campaign_id" UUID,
    "ad_set_id" UUID,
    "ad_id" UUID,
    "days" INTEGER NOT NULL,
    "spend" DECIMAL(16,2) NOT NULL,
    "reported_spend" DECIMAL(16,2),
    "impressions" BIGINT NOT NULL,
    "clicks" BIGINT NOT NULL,
    "link_clicks" BIGINT NOT NULL,
    "reach_sum" BIGINT NOT NULL,
    "reach_peak" BIGINT NOT NULL,
    "results" BIGINT,
    "video_views" BIGINT,
    "video_3s_views" BIGINT,
    "thruplays" BIGINT,
    "video_p25" BIGINT,
    "video_p50" BIGINT,
    "video_p75" BIGINT,
    "video_p100" BIGINT,
    "purchase_value" DECIMAL(16,2),

    CONSTRAINT "ad_insights_tenday_pkey" PRIMARY KEY ("level","entity_id","block","result_type")
);

-- CreateTable
CREATE TABLE "ad_account_breakdowns_tenday" (
    "account_id" UUID NOT NULL,
    "breakdown" "AccountBreakdown" NOT NULL,
    "block" DATE NOT NULL,
    "key1" TEXT NOT NULL,
    "key2" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "days" INTEGER NOT NULL,
    "spend" DECIMAL(16,2) NOT NULL,
    "impressions" BIGINT NOT NULL,
    "clicks" BIGINT NOT NULL,
    "reach_peak" BIGINT NOT NULL,

    CONSTRAINT "ad_account_breakdowns_tenday_pkey" PRIMARY KEY ("account_id","breakdown","block","key1","key2")
);

-- CreateIndex
CREATE INDEX "ad_insights_tenday_org_id_level_block_idx" ON "ad_insights_tenday"("org_id", "level", "block");

-- CreateIndex
CREATE INDEX "ad_insights_tenday_account_id_level_block_idx" ON "ad_insights_tenday"("account_id", "level", "block");

-- CreateIndex
CREATE INDEX "ad_account_breakdowns_tenday_org_id_breakdown_block_idx" ON "ad_account_breakdowns_tenday"("org_id", "breakdown", "block");

-- ───────────── ten-day blocks beside the months ─────────────
-- As for the web, search-console and store rollups (migration 20261122120000_web_store_tenday_rollups,
-- which defines tenday_block): each month of an entity's insights and of an account's breakdowns is
-- also kept as its blocks of days 1-10, 11-20 and 21 to the end, so that a range reads the whole blocks
-- of its partial months here and at most ten days at each end from the daily rows. The recompute
-- functions keep their names and arguments (the triggers of 20261122100000_ads_rollups call them): for
-- each touched month they recompute its blocks from the daily rows, then the month from its blocks.

CREATE OR REPLACE FUNCTION "ad_insights_monthly_recompute"(touched_levels "AdLevel"[], touched_entities UUID[], touched_months DATE[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF touched_levels IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('ad_insights_monthly'));
  DELETE FROM "ad_insights_tenday" b
   USING unnest(touched_levels, touched_entities, touched_months) AS t(level, entity_id, month)
   WHERE b.level = t.level AND b.entity_id = t.entity_id
     AND b.block >= t.month AND b.block < (t.month + 1 * interval '1 month')::date;
  INSERT INTO "ad_insights_tenday" (level, entity_id, block, result_type, org_id, account_id, campaign_id, ad_set_id, ad_id,
         days, spend, reported_spend, impressions, clicks, link_clicks, reach_sum, reach_peak, results,
         video_views, video_3s_views, thruplays, video_p25, video_p50, video_p75, video_p100, purchase_value)
  SELECT d.level, d.entity_id, tenday_block(d.date), coalesce(d.result_type, ''),
         -- An entity's lineage does not change; should it, the latest day's is kept.
         (array_agg(d.org_id ORDER BY d.date DESC))[1], (array_agg(d.account_id ORDER BY d.date DESC))[1],
         (array_agg(d.campaign_id ORDER BY d.date DESC))[1], (array_agg(d.ad_set_id ORDER BY d.date DESC))[1],
         (array_agg(d.ad_id ORDER BY d.date DESC))[1],
         count(*), sum(d.spend), sum(d.spend) FILTER (WHERE d.results IS NOT NULL), sum(d.impressions), sum(d.clicks),
         sum(d.link_clicks), sum(d.reach), max(d.reach), sum(d.results),
         sum(d.video_views), sum(d.video_3s_views), sum(d.thruplays), sum(d.video_p25), sum(d.video_p50),
         sum(d.video_p75), sum(d.video_p100), sum(d.purchase_value)
    FROM unnest(touched_levels, touched_entities, touched_months) AS t(level, entity_id, month)
    JOIN "ad_insights_daily" d
      ON d.level = t.level AND d.entity_id = t.entity_id AND d.date >= t.month AND d.date < (t.month + 1 * interval '1 month')::date
   GROUP BY d.level, d.entity_id, tenday_block(d.date), coalesce(d.result_type, '');
  DELETE FROM "ad_insights_monthly" m
   USING unnest(touched_levels, touched_entities, touched_months) AS t(level, entity_id, month)
   WHERE m.level = t.level AND m.entity_id = t.entity_id AND m.month = t.month;
  INSERT INTO "ad_insights_monthly" (level, entity_id, month, result_type, org_id, account_id, campaign_id, ad_set_id, ad_id,
         days, spend, reported_spend, impressions, clicks, link_clicks, reach_sum, reach_peak, results,
         video_views, video_3s_views, thruplays, video_p25, video_p50, video_p75, video_p100, purchase_value)
  SELECT b.level, b.entity_id, t.month, b.result_type,
         (array_agg(b.org_id ORDER BY b.block DESC))[1], (array_agg(b.account_id ORDER BY b.block DESC))[1],
         (array_agg(b.campaign_id ORDER BY b.block DESC))[1], (array_agg(b.ad_set_id ORDER BY b.block DESC))[1],
         (array_agg(b.ad_id ORDER BY b.block DESC))[1],
         sum(b.days), sum(b.spend), sum(b.reported_spend), sum(b.impressions), sum(b.clicks),
         sum(b.link_clicks), sum(b.reach_sum), max(b.reach_peak), sum(b.results),
         sum(b.video_views), sum(b.video_3s_views), sum(b.thruplays), sum(b.video_p25), sum(b.video_p50),
         sum(b.video_p75), sum(b.video_p100), sum(b.purchase_value)
    FROM unnest(touched_levels, touched_entities, touched_months) AS t(level, entity_id, month)
    JOIN "ad_insights_tenday" b
      ON b.level = t.level AND b.entity_id = t.entity_id AND b.block >= t.month AND b.block < (t.month + 1 * interval '1 month')::date
   GROUP BY b.level, b.entity_id, t.month, b.result_type;
END $$;

CREATE OR REPLACE FUNCTION "ad_account_breakdowns_monthly_recompute"(touched_accounts UUID[], touched_breakdowns "AccountBreakdown"[], touched_months DATE[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF touched_accounts IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('ad_account_breakdowns_monthly'));
  DELETE FROM "ad_account_breakdowns_tenday" b
   USING unnest(touched_accounts, touched_breakdowns, touched_months) AS t(account_id, breakdown, month)
   WHERE b.account_id = t.account_id AND b.breakdown = t.breakdown
     AND b.block >= t.month AND b.block < (t.month + 1 * interval '1 month')::date;
  INSERT INTO "ad_account_breakdowns_tenday" (account_id, breakdown, block, key1, key2, org_id, days, spend, impressions, clicks, reach_peak)
  SELECT d.account_id, d.breakdown, tenday_block(d.date), d.key1, d.key2, (array_agg(d.org_id ORDER BY d.date DESC))[1],
         count(*), sum(d.spend), sum(d.impressions), sum(d.clicks), max(d.reach)
    FROM unnest(touched_accounts, touched_breakdowns, touched_months) AS t(account_id, breakdown, month)
    JOIN "ad_account_breakdowns_daily" d
      ON d.account_id = t.account_id AND d.breakdown = t.breakdown AND d.date >= t.month AND d.date < (t.month + 1 * interval '1 month')::date
   GROUP BY d.account_id, d.breakdown, tenday_block(d.date), d.key1, d.key2;
  DELETE FROM "ad_account_breakdowns_monthly" m
   USING unnest(touched_accounts, touched_breakdowns, touched_months) AS t(account_id, breakdown, month)
   WHERE m.account_id = t.account_id AND m.breakdown = t.breakdown AND m.month = t.month;
  INSERT INTO "ad_account_breakdowns_monthly" (account_id, breakdown, month, key1, key2, org_id, days, spend, impressions, clicks, reach_peak)
  SELECT b.account_id, b.breakdown, t.month, b.key1, b.key2, (array_agg(b.org_id ORDER BY b.block DESC))[1],
         sum(b.days), sum(b.spend), sum(b.impressions), sum(b.clicks), max(b.reach_peak)
    FROM unnest(touched_accounts, touched_breakdowns, touched_months) AS t(account_id, breakdown, month)
    JOIN "ad_account_breakdowns_tenday" b
      ON b.account_id = t.account_id AND b.breakdown = t.breakdown AND b.block >= t.month AND b.block < (t.month + 1 * interval '1 month')::date
   GROUP BY b.account_id, b.breakdown, t.month, b.key1, b.key2;
END $$;

-- TRUNCATE fires no row-level work: the rollups are emptied with their daily table.
CREATE OR REPLACE FUNCTION "ads_rollups_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'ad_insights_daily' THEN
    TRUNCATE "ad_insights_monthly", "ad_insights_tenday", "ad_insights_org_daily";
  ELSE
    TRUNCATE "ad_account_breakdowns_monthly", "ad_account_breakdowns_tenday";
  END IF;
  RETURN NULL;
END $$;

-- Backfill from the rows already there: every month of every group, blocks and months alike.
SELECT "ad_insights_monthly_recompute"(array_agg(level), array_agg(entity_id), array_agg(month))
  FROM (SELECT DISTINCT level, entity_id, date_trunc('month', date)::date AS month FROM "ad_insights_daily") t;
SELECT "ad_account_breakdowns_monthly_recompute"(array_agg(account_id), array_agg(breakdown), array_agg(month))
  FROM (SELECT DISTINCT account_id, breakdown, date_trunc('month', date)::date AS month FROM "ad_account_breakdowns_daily") t;
ANALYZE "ad_insights_tenday", "ad_insights_monthly", "ad_account_breakdowns_tenday", "ad_account_breakdowns_monthly";
