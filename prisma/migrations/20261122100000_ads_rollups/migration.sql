-- CreateTable
CREATE TABLE "ad_insights_monthly" (
    "level" "AdLevel" NOT NULL,
    "entity_id" UUID NOT NULL,
    "month" DATE NOT NULL,
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

    CONSTRAINT "ad_insights_monthly_pkey" PRIMARY KEY ("level","entity_id","month","result_type")
);

-- CreateTable
CREATE TABLE "ad_insights_org_daily" (
    "org_id" UUID NOT NULL,
    "level" "AdLevel" NOT NULL,
    "date" DATE NOT NULL,
    "result_type" TEXT NOT NULL,
    "row_count" INTEGER NOT NULL,
    "spend" DECIMAL(16,2) NOT NULL,
    "reported_spend" DECIMAL(16,2),
    "impressions" BIGINT NOT NULL,
    "clicks" BIGINT NOT NULL,
    "link_clicks" BIGINT NOT NULL,
    "reach_sum" BIGINT NOT NULL,
    "results" BIGINT,
    "video_views" BIGINT,
    "video_3s_views" BIGINT,
    "thruplays" BIGINT,
    "video_p25" BIGINT,
    "video_p50" BIGINT,
    "video_p75" BIGINT,
    "video_p100" BIGINT,
    "purchase_value" DECIMAL(16,2),

    CONSTRAINT "ad_insights_org_daily_pkey" PRIMARY KEY ("org_id","level","date","result_type")
);

-- CreateTable
CREATE TABLE "ad_account_breakdowns_monthly" (
    "account_id" UUID NOT NULL,
    "breakdown" "AccountBreakdown" NOT NULL,
    "month" DATE NOT NULL,
    "key1" TEXT NOT NULL,
    "key2" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "days" INTEGER NOT NULL,
    "spend" DECIMAL(16,2) NOT NULL,
    "impressions" BIGINT NOT NULL,
    "clicks" BIGINT NOT NULL,
    "reach_peak" BIGINT NOT NULL,

    CONSTRAINT "ad_account_breakdowns_monthly_pkey" PRIMARY KEY ("account_id","breakdown","month","key1","key2")
);

-- CreateIndex
CREATE INDEX "ad_insights_monthly_org_id_level_month_idx" ON "ad_insights_monthly"("org_id", "level", "month");

-- CreateIndex
CREATE INDEX "ad_insights_monthly_account_id_level_month_idx" ON "ad_insights_monthly"("account_id", "level", "month");

-- CreateIndex
CREATE INDEX "ad_account_breakdowns_monthly_org_id_breakdown_month_idx" ON "ad_account_breakdowns_monthly"("org_id", "breakdown", "month");


-- ───────────── Rollup maintenance ─────────────
-- The rollups are kept exact by the database itself, so every writer (the dashboard's sync,
-- the seed, a hand-written fix) keeps them right. A statement-level trigger with transition tables
-- collects the groups the statement touched ((entity, month); (org, level, day)) (for an UPDATE both the old and the new
-- ones, so a row moving to another month or entity fixes both) and recomputes exactly those groups
-- from the daily rows: delete, then insert … select … group by. COPY fires the triggers too.
-- Writers are serialised by a transaction-level advisory lock taken before the recompute: under READ
-- COMMITTED each statement then sees the daily rows of every writer that committed before it.

CREATE FUNCTION "ad_insights_monthly_recompute"(touched_levels "AdLevel"[], touched_entities UUID[], touched_months DATE[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF touched_levels IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('ad_insights_monthly'));
  DELETE FROM "ad_insights_monthly" m
   USING unnest(touched_levels, touched_entities, touched_months) AS t(level, entity_id, month)
   WHERE m.level = t.level AND m.entity_id = t.entity_id AND m.month = t.month;
  INSERT INTO "ad_insights_monthly" (level, entity_id, month, result_type, org_id, account_id, campaign_id, ad_set_id, ad_id,
         days, spend, reported_spend, impressions, clicks, link_clicks, reach_sum, reach_peak, results,
         video_views, video_3s_views, thruplays, video_p25, video_p50, video_p75, video_p100, purchase_value)
  SELECT d.level, d.entity_id, t.month, coalesce(d.result_type, ''),
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
   GROUP BY d.level, d.entity_id, t.month, coalesce(d.result_type, '');
END $$;

-- The organisation-wide daily rollup holds the levels /ads/overview reads per day: account and campaign.
CREATE FUNCTION "ad_insights_org_daily_recompute"(touched_orgs UUID[], touched_levels "AdLevel"[], touched_days DATE[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF touched_orgs IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('ad_insights_monthly'));
  DELETE FROM "ad_insights_org_daily" r
   USING unnest(touched_orgs, touched_levels, touched_days) AS t(org_id, level, date)
   WHERE r.org_id = t.org_id AND r.level = t.level AND r.date = t.date;
  INSERT INTO "ad_insights_org_daily" (org_id, level, date, result_type, row_count, spend, reported_spend, impressions, clicks,
         link_clicks, reach_sum, results, video_views, video_3s_views, thruplays, video_p25, video_p50, video_p75, video_p100, purchase_value)
  SELECT d.org_id, d.level, d.date, coalesce(d.result_type, ''), count(*), sum(d.spend),
         sum(d.spend) FILTER (WHERE d.results IS NOT NULL), sum(d.impressions), sum(d.clicks), sum(d.link_clicks), sum(d.reach),
         sum(d.results), sum(d.video_views), sum(d.video_3s_views), sum(d.thruplays), sum(d.video_p25), sum(d.video_p50),
         sum(d.video_p75), sum(d.video_p100), sum(d.purchase_value)
    FROM unnest(touched_orgs, touched_levels, touched_days) AS t(org_id, level, date)
    JOIN "ad_insights_daily" d ON d.org_id = t.org_id AND d.level = t.level AND d.date = t.date
   GROUP BY d.org_id, d.level, d.date, coalesce(d.result_type, '');
END $$;

CREATE FUNCTION "ad_insights_rollups_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only the transition tables the firing trigger declares may be named: one branch per operation.
  IF TG_OP = 'INSERT' THEN
    CREATE TEMP TABLE ads_touched ON COMMIT DROP AS SELECT org_id, level, entity_id, date FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    CREATE TEMP TABLE ads_touched ON COMMIT DROP AS SELECT org_id, level, entity_id, date FROM old_rows;
  ELSE
    CREATE TEMP TABLE ads_touched ON COMMIT DROP AS
      SELECT org_id, level, entity_id, date FROM new_rows UNION SELECT org_id, level, entity_id, date FROM old_rows;
  END IF;
  PERFORM "ad_insights_monthly_recompute"(array_agg(level), array_agg(entity_id), array_agg(month))
     FROM (SELECT DISTINCT level, entity_id, date_trunc('month', date)::date AS month FROM ads_touched) t;
  PERFORM "ad_insights_org_daily_recompute"(array_agg(org_id), array_agg(level), array_agg(date))
     FROM (SELECT DISTINCT org_id, level, date FROM ads_touched WHERE level IN ('account', 'campaign')) t;
  DROP TABLE ads_touched;
  RETURN NULL;
END $$;

CREATE FUNCTION "ad_account_breakdowns_monthly_recompute"(touched_accounts UUID[], touched_breakdowns "AccountBreakdown"[], touched_months DATE[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF touched_accounts IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('ad_account_breakdowns_monthly'));
  DELETE FROM "ad_account_breakdowns_monthly" m
   USING unnest(touched_accounts, touched_breakdowns, touched_months) AS t(account_id, breakdown, month)
   WHERE m.account_id = t.account_id AND m.breakdown = t.breakdown AND m.month = t.month;
  INSERT INTO "ad_account_breakdowns_monthly" (account_id, breakdown, month, key1, key2, org_id, days, spend, impressions, clicks, reach_peak)
  SELECT d.account_id, d.breakdown, t.month, d.key1, d.key2, (array_agg(d.org_id ORDER BY d.date DESC))[1],
         count(*), sum(d.spend), sum(d.impressions), sum(d.clicks), max(d.reach)
    FROM unnest(touched_accounts, touched_breakdowns, touched_months) AS t(account_id, breakdown, month)
    JOIN "ad_account_breakdowns_daily" d
      ON d.account_id = t.account_id AND d.breakdown = t.breakdown AND d.date >= t.month AND d.date < (t.month + 1 * interval '1 month')::date
   GROUP BY d.account_id, d.breakdown, t.month, d.key1, d.key2;
END $$;

CREATE FUNCTION "ad_account_breakdowns_monthly_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "ad_account_breakdowns_monthly_recompute"(array_agg(account_id), array_agg(breakdown), array_agg(month))
       FROM (SELECT DISTINCT account_id, breakdown, date_trunc('month', date)::date AS month FROM new_rows) t;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "ad_account_breakdowns_monthly_recompute"(array_agg(account_id), array_agg(breakdown), array_agg(month))
       FROM (SELECT DISTINCT account_id, breakdown, date_trunc('month', date)::date AS month FROM old_rows) t;
  ELSE
    PERFORM "ad_account_breakdowns_monthly_recompute"(array_agg(account_id), array_agg(breakdown), array_agg(month))
       FROM (SELECT account_id, breakdown, date_trunc('month', date)::date AS month FROM new_rows
             UNION
             SELECT account_id, breakdown, date_trunc('month', date)::date FROM old_rows) t;
  END IF;
  RETURN NULL;
END $$;

-- TRUNCATE fires no row-level work: the rollups are emptied with their daily table.
CREATE FUNCTION "ads_rollups_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'ad_insights_daily' THEN
    TRUNCATE "ad_insights_monthly", "ad_insights_org_daily";
  ELSE
    TRUNCATE "ad_account_breakdowns_monthly";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "ad_insights_monthly_on_insert" AFTER INSERT ON "ad_insights_daily"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "ad_insights_rollups_refresh"();
CREATE TRIGGER "ad_insights_monthly_on_update" AFTER UPDATE ON "ad_insights_daily"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "ad_insights_rollups_refresh"();
CREATE TRIGGER "ad_insights_monthly_on_delete" AFTER DELETE ON "ad_insights_daily"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "ad_insights_rollups_refresh"();
CREATE TRIGGER "ad_insights_monthly_on_truncate" AFTER TRUNCATE ON "ad_insights_daily"
  FOR EACH STATEMENT EXECUTE FUNCTION "ads_rollups_truncate"();

CREATE TRIGGER "ad_account_breakdowns_monthly_on_insert" AFTER INSERT ON "ad_account_breakdowns_daily"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "ad_account_breakdowns_monthly_refresh"();
CREATE TRIGGER "ad_account_breakdowns_monthly_on_update" AFTER UPDATE ON "ad_account_breakdowns_daily"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "ad_account_breakdowns_monthly_refresh"();
CREATE TRIGGER "ad_account_breakdowns_monthly_on_delete" AFTER DELETE ON "ad_account_breakdowns_daily"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "ad_account_breakdowns_monthly_refresh"();
CREATE TRIGGER "ad_account_breakdowns_monthly_on_truncate" AFTER TRUNCATE ON "ad_account_breakdowns_daily"
  FOR EACH STATEMENT EXECUTE FUNCTION "ads_rollups_truncate"();

-- Backfill from the rows already there.
SELECT "ad_insights_monthly_recompute"(array_agg(level), array_agg(entity_id), array_agg(month))
  FROM (SELECT DISTINCT level, entity_id, date_trunc('month', date)::date AS month FROM "ad_insights_daily") t;
SELECT "ad_insights_org_daily_recompute"(array_agg(org_id), array_agg(level), array_agg(date))
  FROM (SELECT DISTINCT org_id, level, date FROM "ad_insights_daily" WHERE level IN ('account', 'campaign')) t;
SELECT "ad_account_breakdowns_monthly_recompute"(array_agg(account_id), array_agg(breakdown), array_agg(month))
  FROM (SELECT DISTINCT account_id, breakdown, date_trunc('month', date)::date AS month FROM "ad_account_breakdowns_daily") t;
ANALYZE "ad_insights_monthly", "ad_insights_org_daily", "ad_account_breakdowns_monthly";
