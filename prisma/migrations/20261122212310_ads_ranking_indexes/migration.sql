-- Ranking entities by spend over a range (lib/metrics/ads/repository.ts, entityAggregates) reads only
-- entity_id and spend of a whole organisation's or a set of accounts' rows: with both in the index the
-- scan is index-only, a fraction of the heap reads of the wide insight rows. The indexes replace the
-- (org_id|account_id, level, period) ones, whose uses they serve as well.

-- DropIndex
DROP INDEX "ad_insights_daily_org_id_level_date_idx";

-- DropIndex
DROP INDEX "ad_insights_daily_account_id_level_date_idx";

-- DropIndex
DROP INDEX "ad_insights_monthly_org_id_level_month_idx";

-- DropIndex
DROP INDEX "ad_insights_monthly_account_id_level_month_idx";

-- DropIndex
DROP INDEX "ad_insights_tenday_org_id_level_block_idx";

-- DropIndex
DROP INDEX "ad_insights_tenday_account_id_level_block_idx";

-- CreateIndex
CREATE INDEX "ad_insights_daily_org_id_level_date_entity_id_spend_idx" ON "ad_insights_daily"("org_id", "level", "date", "entity_id", "spend");

-- CreateIndex
CREATE INDEX "ad_insights_daily_account_id_level_date_entity_id_spend_idx" ON "ad_insights_daily"("account_id", "level", "date", "entity_id", "spend");

-- CreateIndex
CREATE INDEX "ad_insights_monthly_org_id_level_month_entity_id_spend_idx" ON "ad_insights_monthly"("org_id", "level", "month", "entity_id", "spend");

-- CreateIndex
CREATE INDEX "ad_insights_monthly_account_id_level_month_entity_id_spend_idx" ON "ad_insights_monthly"("account_id", "level", "month", "entity_id", "spend");

-- CreateIndex
CREATE INDEX "ad_insights_tenday_org_id_level_block_entity_id_spend_idx" ON "ad_insights_tenday"("org_id", "level", "block", "entity_id", "spend");

-- CreateIndex
CREATE INDEX "ad_insights_tenday_account_id_level_block_entity_id_spend_idx" ON "ad_insights_tenday"("account_id", "level", "block", "entity_id", "spend");

