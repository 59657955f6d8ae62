-- CreateTable
CREATE TABLE "ad_account_age_gender_year_peaks" (
    "account_id" UUID NOT NULL,
    "month" DATE NOT NULL,
    "key1" TEXT NOT NULL,
    "key2" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "reach_since_start" BIGINT,
    "reach_until_end" BIGINT,

    CONSTRAINT "ad_account_age_gender_year_peaks_pkey" PRIMARY KEY ("account_id","month","key1","key2")
);

-- CreateIndex
CREATE INDEX "ad_account_age_gender_year_peaks_org_id_month_account_id_ke_idx" ON "ad_account_age_gender_year_peaks"("org_id", "month", "account_id", "key1", "key2", "reach_since_start", "reach_until_end");


-- ───────────── running peaks of the age and gender reach ─────────────
-- The overview widgets' age and gender reach of a whole organisation is each account's peak over the
-- range, summed over the accounts: a maximum per account is not a sum, so the organisation rollups cannot
-- keep it, and it was read per account from the monthly rollup, a year being 12 rows per account and key
-- (about 21,000 on the benchmark's data) grouped per (account, key). A range's whole months split at a new
-- year are the end of one year and the start of the next (range-split.ts, monthsAsPeakStretches): with
-- each month's running peak in both directions within its year, they are one row per account and key.

-- Recomputes the running peaks of the listed (account, year) pairs from the monthly rollup. Every month
-- of the year gets a row for each key with a row in the year (null peaks before its first or after its
-- last month), so that a stretch may start or end in a month without data; MAX ignores nulls.
CREATE FUNCTION "ad_account_age_gender_year_peaks_recompute"(touched_accounts UUID[], touched_years DATE[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF touched_accounts IS NULL THEN RETURN; END IF;
  DELETE FROM "ad_account_age_gender_year_peaks" p
   USING unnest(touched_accounts, touched_years) AS t(account_id, year)
   WHERE p.account_id = t.account_id AND p.month >= t.year AND p.month < (t.year + interval '1 year')::date;
  WITH months AS MATERIALIZED (
    SELECT m.account_id, t.year, m.month, m.key1, m.key2, m.org_id, m.reach_peak
      FROM unnest(touched_accounts, touched_years) AS t(account_id, year)
      JOIN "ad_account_breakdowns_monthly" m
        ON m.account_id = t.account_id AND m.breakdown = 'age_gender'
       AND m.month >= t.year AND m.month < (t.year + interval '1 year')::date),
  keys AS (
    SELECT account_id, year, key1, key2, (array_agg(org_id ORDER BY month DESC))[1] AS org_id
      FROM months GROUP BY account_id, year, key1, key2),
  cells AS (
    SELECT k.account_id, k.org_id, k.year, k.key1, k.key2, g.month::date AS month, m.reach_peak
      FROM keys k
      CROSS JOIN LATERAL generate_series(k.year, k.year + interval '11 months', interval '1 month') AS g(month)
      LEFT JOIN months m ON m.account_id = k.account_id AND m.key1 = k.key1 AND m.key2 = k.key2 AND m.month = g.month::date)
  INSERT INTO "ad_account_age_gender_year_peaks" (account_id, month, key1, key2, org_id, reach_since_start, reach_until_end)
  SELECT account_id, month, key1, key2, org_id, MAX(reach_peak) OVER since_start, MAX(reach_peak) OVER until_end
    FROM cells
  WINDOW since_start AS (PARTITION BY account_id, year, key1, key2 ORDER BY month),
         until_end AS (PARTITION BY account_id, year, key1, key2 ORDER BY month DESC);
END $$;

-- The statement triggers of ad_account_breakdowns_daily (migration 20261125042700_ads_breakdowns_org_rollups),
-- now also refreshing the running peaks of the years they touched, after the monthly rollup they read.
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
  PERFORM "ad_account_age_gender_year_peaks_recompute"(array_agg(account_id), array_agg(year))
     FROM (SELECT DISTINCT account_id, date_trunc('year', date)::date AS year FROM breakdowns_touched WHERE breakdown = 'age_gender') t;
  DROP TABLE breakdowns_touched;
  RETURN NULL;
END $$;

-- TRUNCATE of the daily table empties the running peaks with its rollups (the generic function of
-- migration 20261122110000_web_store_rollups, as for the web running peaks).
CREATE TRIGGER "ad_account_age_gender_year_peaks_on_truncate" AFTER TRUNCATE ON "ad_account_breakdowns_daily"
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('ad_account_age_gender_year_peaks');

-- Backfill from the monthly rollup already there: every (account, year) with age and gender rows.
SELECT "ad_account_age_gender_year_peaks_recompute"(array_agg(account_id), array_agg(year))
  FROM (SELECT DISTINCT account_id, date_trunc('year', month)::date AS year FROM "ad_account_breakdowns_monthly" WHERE breakdown = 'age_gender') t;
ANALYZE "ad_account_age_gender_year_peaks";
