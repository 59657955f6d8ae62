-- CreateTable
CREATE TABLE "ad_account_breakdowns_org_monthly" (
    "org_id" UUID NOT NULL,
    "breakdown" "AccountBreakdown" NOT NULL,
    "month" DATE NOT NULL,
    "key1" TEXT NOT NULL,
    "key2" TEXT NOT NULL,
    "row_count" INTEGER NOT NULL,
    "spend" DECIMAL(16,2) NOT NULL,
    "impressions" BIGINT NOT NULL,
    "clicks" BIGINT NOT NULL,

    CONSTRAINT "ad_account_breakdowns_org_monthly_pkey" PRIMARY KEY ("org_id","breakdown","month","key1","key2")
);

-- CreateTable
CREATE TABLE "ad_account_breakdowns_org_tenday" (
    "org_id" UUID NOT NULL,
    "breakdown" "AccountBreakdown" NOT NULL,
    "block" DATE NOT NULL,
    "key1" TEXT NOT NULL,
    "key2" TEXT NOT NULL,
    "row_count" INTEGER NOT NULL,
    "spend" DECIMAL(16,2) NOT NULL,
    "impressions" BIGINT NOT NULL,
    "clicks" BIGINT NOT NULL,

    CONSTRAINT "ad_account_breakdowns_org_tenday_pkey" PRIMARY KEY ("org_id","breakdown","block","key1","key2")
);

-- ───────────── account breakdowns summed over a whole organisation ─────────────
-- The /ads/overview widgets of a whole organisation sum each breakdown key over all its accounts: from
-- the per-account rollups that is every account's row of every month (a year of 138 accounts: 40,000
-- rows), from these 35 keys × 12 months. Only the sums are kept: the reach of age and gender is each
-- account's peak, summed over the accounts, and is still read per account.
-- Kept by the triggers of ad_account_breakdowns_daily, after the per-account rollups (migrations
-- 20261122100000_ads_rollups and 20261122130000_ads_tenday_rollups), from those rollups: for each touched
-- organisation, breakdown and month, its blocks from the accounts' blocks and the month from the accounts'
-- months, under the same advisory lock. row_count is the number of daily rows summed.

CREATE FUNCTION "ad_account_breakdowns_org_recompute"(touched_orgs UUID[], touched_breakdowns "AccountBreakdown"[], touched_months DATE[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF touched_orgs IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('ad_account_breakdowns_monthly'));
  DELETE FROM "ad_account_breakdowns_org_tenday" o
   USING unnest(touched_orgs, touched_breakdowns, touched_months) AS t(org_id, breakdown, month)
   WHERE o.org_id = t.org_id AND o.breakdown = t.breakdown
     AND o.block >= t.month AND o.block < (t.month + 1 * interval '1 month')::date;
  INSERT INTO "ad_account_breakdowns_org_tenday" (org_id, breakdown, block, key1, key2, row_count, spend, impressions, clicks)
  SELECT b.org_id, b.breakdown, b.block, b.key1, b.key2, sum(b.days), sum(b.spend), sum(b.impressions), sum(b.clicks)
    FROM unnest(touched_orgs, touched_breakdowns, touched_months) AS t(org_id, breakdown, month)
    JOIN "ad_account_breakdowns_tenday" b
      ON b.org_id = t.org_id AND b.breakdown = t.breakdown AND b.block >= t.month AND b.block < (t.month + 1 * interval '1 month')::date
   GROUP BY b.org_id, b.breakdown, b.block, b.key1, b.key2;
  DELETE FROM "ad_account_breakdowns_org_monthly" o
   USING unnest(touched_orgs, touched_breakdowns, touched_months) AS t(org_id, breakdown, month)
   WHERE o.org_id = t.org_id AND o.breakdown = t.breakdown AND o.month = t.month;
  INSERT INTO "ad_account_breakdowns_org_monthly" (org_id, breakdown, month, key1, key2, row_count, spend, impressions, clicks)
  SELECT m.org_id, m.breakdown, m.month, m.key1, m.key2, sum(m.days), sum(m.spend), sum(m.impressions), sum(m.clicks)
    FROM unnest(touched_orgs, touched_breakdowns, touched_months) AS t(org_id, breakdown, month)
    JOIN "ad_account_breakdowns_monthly" m ON m.org_id = t.org_id AND m.breakdown = t.breakdown AND m.month = t.month
   GROUP BY m.org_id, m.breakdown, m.month, m.key1, m.key2;
END $$;

CREATE OR REPLACE FUNCTION "ad_account_breakdowns_monthly_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only the transition tables the firing trigger declares may be named: one branch per operation.
  IF TG_OP = 'INSERT' THEN
    CREATE TEMP TABLE breakdowns_touched ON COMMIT DROP AS SELECT org_id, account_id, breakdown, date FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    CREATE TEMP TABLE breakdowns_touched ON COMMIT DROP AS SELECT org_id, account_id, breakdown, date FROM old_rows;
  ELSE
    CREATE TEMP TABLE breakdowns_touched ON COMMIT DROP AS
      SELECT org_id, account_id, breakdown, date FROM new_rows UNION SELECT org_id, account_id, breakdown, date FROM old_rows;
  END IF;
  PERFORM "ad_account_breakdowns_monthly_recompute"(array_agg(account_id), array_agg(breakdown), array_agg(month))
     FROM (SELECT DISTINCT account_id, breakdown, date_trunc('month', date)::date AS month FROM breakdowns_touched) t;
  PERFORM "ad_account_breakdowns_org_recompute"(array_agg(org_id), array_agg(breakdown), array_agg(month))
     FROM (SELECT DISTINCT org_id, breakdown, date_trunc('month', date)::date AS month FROM breakdowns_touched) t;
  DROP TABLE breakdowns_touched;
  RETURN NULL;
END $$;

-- TRUNCATE fires no row-level work: the rollups are emptied with their daily table.
CREATE OR REPLACE FUNCTION "ads_rollups_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'ad_insights_daily' THEN
    TRUNCATE "ad_insights_monthly", "ad_insights_tenday", "ad_insights_org_daily";
  ELSE
    TRUNCATE "ad_account_breakdowns_monthly", "ad_account_breakdowns_tenday", "ad_account_breakdowns_org_monthly", "ad_account_breakdowns_org_tenday";
  END IF;
  RETURN NULL;
END $$;

-- Backfill from the per-account rollups already there.
SELECT "ad_account_breakdowns_org_recompute"(array_agg(org_id), array_agg(breakdown), array_agg(month))
  FROM (SELECT DISTINCT org_id, breakdown, month FROM "ad_account_breakdowns_monthly") t;
ANALYZE "ad_account_breakdowns_org_tenday", "ad_account_breakdowns_org_monthly";
