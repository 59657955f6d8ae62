-- Ranking entities by spend over a range (lib/metrics/ads/repository.ts, entityAggregates) reads only
-- entity_id and spend of a whole organisation's or a set of accounts' rows: with both in the index the
-- scan is index-only, a fraction of the heap reads of the wide insight rows. The indexes replace the
-- (org_id|account_id, level, period) ones, whose uses they serve as well. Over a year of whole months,
-- the monthly rows are read in entity order (org_id, level, entity_id, month, spend): each entity's
-- months are then summed one after the other instead of at random places of a large hash table.

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
CREATE INDEX "ad_insights_monthly_org_id_level_entity_id_month_spend_idx" ON "ad_insights_monthly"("org_id", "level", "entity_id", "month", "spend");

-- CreateIndex
CREATE INDEX "ad_insights_monthly_account_id_level_month_entity_id_spend_idx" ON "ad_insights_monthly"("account_id", "level", "month", "entity_id", "spend");

-- CreateIndex
CREATE INDEX "ad_insights_tenday_org_id_level_block_entity_id_spend_idx" ON "ad_insights_tenday"("org_id", "level", "block", "entity_id", "spend");

-- CreateIndex
CREATE INDEX "ad_insights_tenday_account_id_level_block_entity_id_spend_idx" ON "ad_insights_tenday"("account_id", "level", "block", "entity_id", "spend");

