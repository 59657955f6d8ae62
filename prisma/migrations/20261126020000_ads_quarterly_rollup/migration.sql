-- CreateTable
CREATE TABLE "ad_insights_quarterly" (
    "level" "AdLevel" NOT NULL,
    "entity_id" UUID NOT NULL,
    "quarter" DATE NOT NULL,
    "result_type" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "campaign_id" UUID,
    "ad_set_id" UUID,
    "ad_id" UUID,
    "days" INTEGER NOT NULL,
    "spend" DECIMAL(16,2) NOT NULL,
    "spend_float" DOUBLE PRECISION NOT NULL GENERATED ALWAYS AS ("spend"::float8) STORED,
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

    CONSTRAINT "ad_insights_quarterly_pkey" PRIMARY KEY ("level","entity_id","quarter","result_type")
);

-- CreateIndex
CREATE INDEX "ad_insights_quarterly_org_id_level_quarter_entity_id_spend__idx" ON "ad_insights_quarterly"("org_id", "level", "quarter", "entity_id", "spend_float");

-- CreateIndex
CREATE INDEX "ad_insights_quarterly_account_id_level_quarter_entity_id_sp_idx" ON "ad_insights_quarterly"("account_id", "level", "quarter", "entity_id", "spend_float");

-- ───────────── quarters beside the months ─────────────
-- An entity list over a year (the campaigns of /ads/overview, /ads/entities) groups every month row of
-- every entity of the range; a quarter row holds up to three of them. The quarterly rollup is kept from
-- the monthly one, not from the daily rows: statement-level triggers on ad_insights_monthly recompute each
-- quarter whose months a statement inserted or deleted, from those months. The monthly rollup's only
-- writer is ad_insights_monthly_recompute (run by the triggers on ad_insights_daily), which deletes a
-- month's rows, then inserts them again, never updates: the quarter is recomputed after each, ending
-- equal to its months. The advisory lock is the monthly rollup's, already held by that recompute.

CREATE FUNCTION "ad_insights_quarterly_recompute"(touched_levels "AdLevel"[], touched_entities UUID[], touched_quarters DATE[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF touched_levels IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('ad_insights_monthly'));
  DELETE FROM "ad_insights_quarterly" q
   USING unnest(touched_levels, touched_entities, touched_quarters) AS t(level, entity_id, quarter)
   WHERE q.level = t.level AND q.entity_id = t.entity_id AND q.quarter = t.quarter;
  INSERT INTO "ad_insights_quarterly" (level, entity_id, quarter, result_type, org_id, account_id, campaign_id, ad_set_id, ad_id,
         days, spend, reported_spend, impressions, clicks, link_clicks, reach_sum, reach_peak, results,
         video_views, video_3s_views, thruplays, video_p25, video_p50, video_p75, video_p100, purchase_value)
  SELECT m.level, m.entity_id, t.quarter, m.result_type,
         -- As in the monthly rollup, the latest month's lineage is kept.
         (array_agg(m.org_id ORDER BY m.month DESC))[1], (array_agg(m.account_id ORDER BY m.month DESC))[1],
         (array_agg(m.campaign_id ORDER BY m.month DESC))[1], (array_agg(m.ad_set_id ORDER BY m.month DESC))[1],
         (array_agg(m.ad_id ORDER BY m.month DESC))[1],
         sum(m.days), sum(m.spend), sum(m.reported_spend), sum(m.impressions), sum(m.clicks),
         sum(m.link_clicks), sum(m.reach_sum), max(m.reach_peak), sum(m.results),
         sum(m.video_views), sum(m.video_3s_views), sum(m.thruplays), sum(m.video_p25), sum(m.video_p50),
         sum(m.video_p75), sum(m.video_p100), sum(m.purchase_value)
    FROM unnest(touched_levels, touched_entities, touched_quarters) AS t(level, entity_id, quarter)
    JOIN "ad_insights_monthly" m
      ON m.level = t.level AND m.entity_id = t.entity_id AND m.month >= t.quarter AND m.month < (t.quarter + 3 * interval '1 month')::date
   GROUP BY m.level, m.entity_id, t.quarter, m.result_type;
END $$;

CREATE FUNCTION "ad_insights_quarterly_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only the transition table the firing trigger declares may be named: one branch per operation.
  IF TG_OP = 'INSERT' THEN
    PERFORM "ad_insights_quarterly_recompute"(array_agg(level), array_agg(entity_id), array_agg(quarter))
       FROM (SELECT DISTINCT level, entity_id, date_trunc('quarter', month)::date AS quarter FROM new_rows) t;
  ELSE
    PERFORM "ad_insights_quarterly_recompute"(array_agg(level), array_agg(entity_id), array_agg(quarter))
       FROM (SELECT DISTINCT level, entity_id, date_trunc('quarter', month)::date AS quarter FROM old_rows) t;
  END IF;
  RETURN NULL;
END $$;

-- TRUNCATE fires no row-level work: the quarters are emptied with the months (which are emptied with
-- their daily table, see ads_rollups_truncate).
CREATE FUNCTION "ad_insights_quarterly_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "ad_insights_quarterly";
  RETURN NULL;
END $$;

CREATE TRIGGER "ad_insights_quarterly_on_insert" AFTER INSERT ON "ad_insights_monthly"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "ad_insights_quarterly_refresh"();
CREATE TRIGGER "ad_insights_quarterly_on_delete" AFTER DELETE ON "ad_insights_monthly"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "ad_insights_quarterly_refresh"();
CREATE TRIGGER "ad_insights_quarterly_on_truncate" AFTER TRUNCATE ON "ad_insights_monthly"
  FOR EACH STATEMENT EXECUTE FUNCTION "ad_insights_quarterly_truncate"();

-- Backfill from the months already there.
SELECT "ad_insights_quarterly_recompute"(array_agg(level), array_agg(entity_id), array_agg(quarter))
  FROM (SELECT DISTINCT level, entity_id, date_trunc('quarter', month)::date AS quarter FROM "ad_insights_monthly") t;
ANALYZE "ad_insights_quarterly";
