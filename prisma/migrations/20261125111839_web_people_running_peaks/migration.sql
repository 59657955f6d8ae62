-- CreateTable
CREATE TABLE "analytics_dimensions_block_peaks" (
    "analytics_property_id" UUID NOT NULL,
    "dimension" "AnalyticsDimension" NOT NULL,
    "date" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "total_users_since_start" BIGINT,
    "total_users_until_end" BIGINT,
    "active_users_since_start" BIGINT,
    "active_users_until_end" BIGINT,

    CONSTRAINT "analytics_dimensions_block_peaks_pkey" PRIMARY KEY ("analytics_property_id","dimension","date","key")
);

-- CreateTable
CREATE TABLE "analytics_dimensions_year_peaks" (
    "analytics_property_id" UUID NOT NULL,
    "dimension" "AnalyticsDimension" NOT NULL,
    "month" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "total_users_since_start" BIGINT,
    "total_users_until_end" BIGINT,
    "active_users_since_start" BIGINT,
    "active_users_until_end" BIGINT,

    CONSTRAINT "analytics_dimensions_year_peaks_pkey" PRIMARY KEY ("analytics_property_id","dimension","month","key")
);


-- ───────────── running peaks of the web-analytics people counts ─────────────
-- A whole organisation's people counts in the dimension tables of /website/overview are each property's
-- peak over the range, summed over the properties. The organisation rollups cannot keep them (a maximum
-- per property is not a sum), so they were read per property: a year of 60 properties is about 55,000
-- monthly rows, and the nine days before a range's last whole block another 41,000 daily rows, grouped
-- per (property, key). A range is read as whole months, whole ten-day blocks and the days at its ends;
-- in a range that holds a whole block, the days at an end are the start or the end of a block, and its
-- months split at a new year are the end of one year and the start of the next. So each property keeps, per key, the running peak
-- within the unit in both directions: per day within its ten-day block (block peaks) and per month within
-- its year (year peaks). A stretch that ends a unit is the `*_until_end` row of its first day or month,
-- one that starts a unit the `*_since_start` row of its last: one row per property and key.
--
-- Every day (month) of a unit has a row for each key with a daily row in the block (a monthly row in the
-- year), so that a stretch may start or end on a day without data. MAX ignores nulls, as over the
-- daily rows. Kept by statement triggers of the daily table, for the (property, dimension, month) groups
-- a statement touched: their months' block peaks from the daily rows, their years' year peaks from the
-- monthly rollup (refreshed by the triggers before these).

-- Recomputes the block peaks of the listed (property, dimension, month) groups and the year peaks of
-- their years.
CREATE FUNCTION analytics_dimensions_peaks_refresh(resources UUID[], dimensions "AnalyticsDimension"[], months DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE $sql$
    DELETE FROM analytics_dimensions_block_peaks p
     USING unnest($1, $2, $3) AS g(resource, dimension, month)
     WHERE p.analytics_property_id = g.resource AND p.dimension = g.dimension
       AND p.date >= g.month AND p.date < (g.month + interval '1 month')::date
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    WITH days AS MATERIALIZED (
      SELECT t.analytics_property_id, t.dimension, tenday_block(t.date) AS block, t.date, t.key, t.total_users, t.active_users
        FROM unnest($1, $2, $3) AS g(resource, dimension, month)
        JOIN analytics_dimensions_daily t
          ON t.analytics_property_id = g.resource AND t.dimension = g.dimension
         AND t.date >= g.month AND t.date < (g.month + interval '1 month')::date),
    -- Every day of the block for each key with a row in it (the 21st's block ends with its month): the
    -- key's row of the day, or nulls. Each (key, day) has at most one row, so MAX keeps it as it is.
    cells AS (
      SELECT analytics_property_id, dimension, block, key, date, MAX(total_users) AS total_users, MAX(active_users) AS active_users
        FROM (SELECT analytics_property_id, dimension, block, key, date, total_users, active_users FROM days
              UNION ALL
              SELECT k.analytics_property_id, k.dimension, k.block, k.key, d.date, NULL, NULL
                FROM (SELECT DISTINCT analytics_property_id, dimension, block, key FROM days) k
                CROSS JOIN LATERAL (
                  SELECT date::date FROM generate_series(
                    k.block,
                    CASE WHEN EXTRACT(DAY FROM k.block) = 21 THEN (date_trunc('month', k.block) + interval '1 month - 1 day')::date ELSE k.block + 9 END,
                    interval '1 day') AS date) d) rows_and_gaps
       GROUP BY analytics_property_id, dimension, block, key, date)
    INSERT INTO analytics_dimensions_block_peaks (
      analytics_property_id, dimension, date, key,
      total_users_since_start, total_users_until_end, active_users_since_start, active_users_until_end)
    SELECT analytics_property_id, dimension, date, key,
      MAX(total_users) OVER since_start, MAX(total_users) OVER until_end,
      MAX(active_users) OVER since_start, MAX(active_users) OVER until_end
      FROM cells
    WINDOW since_start AS (PARTITION BY analytics_property_id, dimension, block, key ORDER BY date),
           until_end AS (PARTITION BY analytics_property_id, dimension, block, key ORDER BY date DESC)
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    DELETE FROM analytics_dimensions_year_peaks p
     USING unnest($1, $2, $3) AS g(resource, dimension, month)
     WHERE p.analytics_property_id = g.resource AND p.dimension = g.dimension
       AND p.month >= date_trunc('year', g.month)::date AND p.month < (date_trunc('year', g.month) + interval '1 year')::date
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    WITH months AS MATERIALIZED (
      SELECT r.analytics_property_id, r.dimension, y.year, r.month, r.key, r.total_users, r.active_users
        FROM (SELECT DISTINCT resource, dimension, date_trunc('year', month)::date AS year
                FROM unnest($1, $2, $3) AS g(resource, dimension, month)) y
        JOIN analytics_dimensions_monthly r
          ON r.analytics_property_id = y.resource AND r.dimension = y.dimension
         AND r.month >= y.year AND r.month < (y.year + interval '1 year')::date),
    -- Every month of the year for each key with a row in it, as the block peaks' days.
    cells AS (
      SELECT analytics_property_id, dimension, year, key, month, MAX(total_users) AS total_users, MAX(active_users) AS active_users
        FROM (SELECT analytics_property_id, dimension, year, key, month, total_users, active_users FROM months
              UNION ALL
              SELECT k.analytics_property_id, k.dimension, k.year, k.key, m.month, NULL, NULL
                FROM (SELECT DISTINCT analytics_property_id, dimension, year, key FROM months) k
                CROSS JOIN LATERAL (SELECT month::date FROM generate_series(k.year, k.year + interval '11 months', interval '1 month') AS month) m) rows_and_gaps
       GROUP BY analytics_property_id, dimension, year, key, month)
    INSERT INTO analytics_dimensions_year_peaks (
      analytics_property_id, dimension, month, key,
      total_users_since_start, total_users_until_end, active_users_since_start, active_users_until_end)
    SELECT analytics_property_id, dimension, month, key,
      MAX(total_users) OVER since_start, MAX(total_users) OVER until_end,
      MAX(active_users) OVER since_start, MAX(active_users) OVER until_end
      FROM cells
    WINDOW since_start AS (PARTITION BY analytics_property_id, dimension, year, key ORDER BY month),
           until_end AS (PARTITION BY analytics_property_id, dimension, year, key ORDER BY month DESC)
  $sql$ USING resources, dimensions, months;
END
$fn$;

-- The statement triggers of the daily table, on the groups of dimensions_monthly_sync (migration
-- 20261122110000_web_store_rollups). PostgreSQL fires the triggers of one event in the order of their
-- names: these (`..._peaks_on_...`) run after `analytics_dimensions_monthly_on_...`, so the year peaks
-- read the monthly rollup as the same statement left it.
CREATE TRIGGER analytics_dimensions_peaks_on_insert AFTER INSERT ON analytics_dimensions_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('analytics_property_id', 'analytics_dimensions_peaks_refresh');
CREATE TRIGGER analytics_dimensions_peaks_on_update AFTER UPDATE ON analytics_dimensions_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('analytics_property_id', 'analytics_dimensions_peaks_refresh');
CREATE TRIGGER analytics_dimensions_peaks_on_delete AFTER DELETE ON analytics_dimensions_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('analytics_property_id', 'analytics_dimensions_peaks_refresh');

-- TRUNCATE of the daily table empties them with the other rollups.
CREATE TRIGGER analytics_dimensions_block_peaks_on_truncate AFTER TRUNCATE ON analytics_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('analytics_dimensions_block_peaks');
CREATE TRIGGER analytics_dimensions_year_peaks_on_truncate AFTER TRUNCATE ON analytics_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('analytics_dimensions_year_peaks');

-- Backfill from the rows already there: every (property, dimension, month) group of the monthly rollup.
SELECT analytics_dimensions_peaks_refresh(array_agg(analytics_property_id), array_agg(dimension), array_agg(month))
  FROM (SELECT DISTINCT analytics_property_id, dimension, month FROM analytics_dimensions_monthly) groups;
ANALYZE analytics_dimensions_block_peaks, analytics_dimensions_year_peaks;
