-- Ranking entities by spend over a range (lib/metrics/ads/repository.ts, entityAggregates) sums each
-- entity's spend as float8 from index-only scans of the rollups. Cast at query time, numeric → float8
-- costs more than the grouping itself (PostgreSQL converts through text): a year of a whole
-- organisation's ads is 75,000 casts, a third of the statement. The rollups now keep that float8 as a
-- generated column (computed by PostgreSQL on every insert, so the recompute functions of the rollup
-- triggers need no change) and the ranking indexes carry it instead of the numeric spend. The same
-- value is summed as before, so the ranking, its candidates and every answer are unchanged.

-- AlterTable
ALTER TABLE "ad_insights_monthly" ADD COLUMN "spend_float" DOUBLE PRECISION NOT NULL GENERATED ALWAYS AS ("spend"::float8) STORED;

-- AlterTable
ALTER TABLE "ad_insights_tenday" ADD COLUMN "spend_float" DOUBLE PRECISION NOT NULL GENERATED ALWAYS AS ("spend"::float8) STORED;

-- DropIndex
DROP INDEX "ad_insights_monthly_org_id_level_month_entity_id_spend_idx";

-- DropIndex
DROP INDEX "ad_insights_monthly_account_id_level_month_entity_id_spend_idx";

-- DropIndex
DROP INDEX "ad_insights_tenday_org_id_level_block_entity_id_spend_idx";

-- DropIndex
DROP INDEX "ad_insights_tenday_account_id_level_block_entity_id_spend_idx";

-- CreateIndex
CREATE INDEX "ad_insights_monthly_org_id_level_month_entity_id_spend_floa_idx" ON "ad_insights_monthly"("org_id", "level", "month", "entity_id", "spend_float");

-- CreateIndex
CREATE INDEX "ad_insights_monthly_account_id_level_month_entity_id_spend__idx" ON "ad_insights_monthly"("account_id", "level", "month", "entity_id", "spend_float");

-- CreateIndex
CREATE INDEX "ad_insights_tenday_org_id_level_block_entity_id_spend_float_idx" ON "ad_insights_tenday"("org_id", "level", "block", "entity_id", "spend_float");

-- CreateIndex
CREATE INDEX "ad_insights_tenday_account_id_level_block_entity_id_spend_f_idx" ON "ad_insights_tenday"("account_id", "level", "block", "entity_id", "spend_float");

ANALYZE "ad_insights_monthly", "ad_insights_tenday";
