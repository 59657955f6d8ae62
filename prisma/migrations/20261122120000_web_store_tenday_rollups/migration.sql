-- CreateTable
CREATE TABLE "analytics_dimensions_tenday" (
    "analytics_property_id" UUID NOT NULL,
    "dimension" "AnalyticsDimension" NOT NULL,
    "block" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "last_day" DATE NOT NULL,
    "sessions" BIGINT,
    "total_users" BIGINT,
    "total_users_days" BIGINT,
    "active_users" BIGINT,
    "active_users_days" BIGINT,
    "new_users" BIGINT,
    "engaged_sessions" BIGINT,
    "screen_page_views" BIGINT,
    "event_count" BIGINT,
    "key_events" BIGINT,
    "total_revenue" DECIMAL(16,2),
    "purchase_revenue" DECIMAL(16,2),
    "transactions" BIGINT,
    "ecommerce_purchases" BIGINT,
    "user_engagement_duration" BIGINT,
    "session_duration_weighted" DOUBLE PRECISION,

    CONSTRAINT "analytics_dimensions_tenday_pkey" PRIMARY KEY ("analytics_property_id","dimension","block","key")
);

-- CreateTable
CREATE TABLE "search_console_dimensions_tenday" (
    "search_console_site_id" UUID NOT NULL,
    "dimension" "SearchDimension" NOT NULL,
    "block" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "last_day" DATE NOT NULL,
    "clicks" BIGINT NOT NULL,
    "impressions" BIGINT NOT NULL,
    "position_weight" DOUBLE PRECISION,
    "position_impressions" BIGINT,

    CONSTRAINT "search_console_dimensions_tenday_pkey" PRIMARY KEY ("search_console_site_id","dimension","block","key")
);

-- CreateTable
CREATE TABLE "store_dimensions_tenday" (
    "commerce_store_id" UUID NOT NULL,
    "dimension" "StoreDimension" NOT NULL,
    "block" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "last_day" DATE NOT NULL,
    "gross_sales" DECIMAL(16,2),
    "discounts" DECIMAL(16,2),
    "returns" DECIMAL(16,2),
    "net_sales" DECIMAL(16,2),
    "shipping" DECIMAL(16,2),
    "taxes" DECIMAL(16,2),
    "duties" DECIMAL(16,2),
    "tips" DECIMAL(16,2),
    "total_sales" DECIMAL(16,2),
    "orders" BIGINT,
    "cancelled_orders" BIGINT,
    "refunded_orders" BIGINT,
    "units_sold" BIGINT,
    "customers" BIGINT,
    "customers_days" BIGINT,
    "new_customers" BIGINT,
    "returning_customers" BIGINT,
    "returning_customers_days" BIGINT,

    CONSTRAINT "store_dimensions_tenday_pkey" PRIMARY KEY ("commerce_store_id","dimension","block","key")
);

-- ───────────────────────── ten-day blocks beside the months ─────────────────────────
--
-- A range's partial months at its ends were read day by day from the daily tables: up to 30 days of
-- every resource's keys at each end (and as many in the compare range). Each month is now also kept as
-- three blocks, days 1-10, 11-20 and 21 to the month's end (`block` is the block's first day), so that
-- a range reads its whole months from *_monthly, the whole blocks of its partial months from *_tenday,
-- and at most ten days at each end from the daily rows. The blocks nest in the months: a month's row
-- is its three blocks' rows combined (sums summed, peaks maxed, latest day), which is how it is now
-- computed.

-- The first day of the ten-day block of `day`: the 1st, 11th or 21st of its month.
CREATE FUNCTION tenday_block(day DATE) RETURNS DATE LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT date_trunc('month', day)::date + LEAST((EXTRACT(DAY FROM day)::int - 1) / 10, 2) * 10
$fn$;

-- The refresh functions keep their names and arguments, so the triggers of migration
-- 20261122110000_web_store_rollups now keep both rollups: for each listed (resource, dimension,
-- month) group they recompute the month's blocks from the daily rows, then the month from its blocks.

CREATE OR REPLACE FUNCTION analytics_dimensions_monthly_refresh(resources UUID[], dimensions "AnalyticsDimension"[], months DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE $sql$
    DELETE FROM analytics_dimensions_tenday b
     USING unnest($1, $2, $3) AS g(resource, dimension, month)
     WHERE b.analytics_property_id = g.resource AND b.dimension = g.dimension
       AND b.block >= g.month AND b.block < (g.month + interval '1 month')::date
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    INSERT INTO analytics_dimensions_tenday (
      analytics_property_id, dimension, block, key, last_day,
      sessions, total_users, total_users_days, active_users, active_users_days, new_users, engaged_sessions,
      screen_page_views, event_count, key_events, total_revenue, purchase_revenue, transactions,
      ecommerce_purchases, user_engagement_duration, session_duration_weighted)
    SELECT t.analytics_property_id, t.dimension, tenday_block(t.date), t.key, MAX(t.date),
      SUM(t.sessions), MAX(t.total_users), SUM(t.total_users), MAX(t.active_users), SUM(t.active_users), SUM(t.new_users),
      SUM(t.engaged_sessions), SUM(t.screen_page_views), SUM(t.event_count), SUM(t.key_events), SUM(t.total_revenue),
      SUM(t.purchase_revenue), SUM(t.transactions), SUM(t.ecommerce_purchases), SUM(t.user_engagement_duration),
      SUM(t.session_duration_weighted)
      FROM unnest($1, $2, $3) AS g(resource, dimension, month)
      JOIN analytics_dimensions_daily t
        ON t.analytics_property_id = g.resource AND t.dimension = g.dimension
       AND date_trunc('month', t.date)::date = g.month
       AND t.date >= g.month AND t.date < (g.month + interval '1 month')::date
     GROUP BY t.analytics_property_id, t.dimension, tenday_block(t.date), t.key
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    DELETE FROM analytics_dimensions_monthly m
     USING unnest($1, $2, $3) AS g(resource, dimension, month)
     WHERE m.analytics_property_id = g.resource AND m.dimension = g.dimension AND m.month = g.month
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    INSERT INTO analytics_dimensions_monthly (
      analytics_property_id, dimension, month, key, last_day,
      sessions, total_users, total_users_days, active_users, active_users_days, new_users, engaged_sessions,
      screen_page_views, event_count, key_events, total_revenue, purchase_revenue, transactions,
      ecommerce_purchases, user_engagement_duration, session_duration_weighted)
    SELECT b.analytics_property_id, b.dimension, g.month, b.key, MAX(b.last_day),
      SUM(b.sessions), MAX(b.total_users), SUM(b.total_users_days), MAX(b.active_users), SUM(b.active_users_days),
      SUM(b.new_users), SUM(b.engaged_sessions), SUM(b.screen_page_views), SUM(b.event_count), SUM(b.key_events),
      SUM(b.total_revenue), SUM(b.purchase_revenue), SUM(b.transactions), SUM(b.ecommerce_purchases),
      SUM(b.user_engagement_duration), SUM(b.session_duration_weighted)
      FROM unnest($1, $2, $3) AS g(resource, dimension, month)
      JOIN analytics_dimensions_tenday b
        ON b.analytics_property_id = g.resource AND b.dimension = g.dimension
       AND date_trunc('month', b.block)::date = g.month
       AND b.block >= g.month AND b.block < (g.month + interval '1 month')::date
     GROUP BY b.analytics_property_id, b.dimension, g.month, b.key
  $sql$ USING resources, dimensions, months;
END
$fn$;

CREATE OR REPLACE FUNCTION search_console_dimensions_monthly_refresh(resources UUID[], dimensions "SearchDimension"[], months DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE $sql$
    DELETE FROM search_console_dimensions_tenday b
     USING unnest($1, $2, $3) AS g(resource, dimension, month)
     WHERE b.search_console_site_id = g.resource AND b.dimension = g.dimension
       AND b.block >= g.month AND b.block < (g.month + interval '1 month')::date
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    INSERT INTO search_console_dimensions_tenday (
      search_console_site_id, dimension, block, key, last_day, clicks, impressions, position_weight, position_impressions)
    SELECT t.search_console_site_id, t.dimension, tenday_block(t.date), t.key, MAX(t.date),
      SUM(t.clicks), SUM(t.impressions), SUM(t.position * t.impressions),
      SUM(CASE WHEN t.position IS NOT NULL THEN t.impressions END)
      FROM unnest($1, $2, $3) AS g(resource, dimension, month)
      JOIN search_console_dimensions_daily t
        ON t.search_console_site_id = g.resource AND t.dimension = g.dimension
       AND date_trunc('month', t.date)::date = g.month
       AND t.date >= g.month AND t.date < (g.month + interval '1 month')::date
     GROUP BY t.search_console_site_id, t.dimension, tenday_block(t.date), t.key
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    DELETE FROM search_console_dimensions_monthly m
     USING unnest($1, $2, $3) AS g(resource, dimension, month)
     WHERE m.search_console_site_id = g.resource AND m.dimension = g.dimension AND m.month = g.month
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    INSERT INTO search_console_dimensions_monthly (
      search_console_site_id, dimension, month, key, last_day, clicks, impressions, position_weight, position_impressions)
    SELECT b.search_console_site_id, b.dimension, g.month, b.key, MAX(b.last_day),
      SUM(b.clicks), SUM(b.impressions), SUM(b.position_weight), SUM(b.position_impressions)
      FROM unnest($1, $2, $3) AS g(resource, dimension, month)
      JOIN search_console_dimensions_tenday b
        ON b.search_console_site_id = g.resource AND b.dimension = g.dimension
       AND date_trunc('month', b.block)::date = g.month
       AND b.block >= g.month AND b.block < (g.month + interval '1 month')::date
     GROUP BY b.search_console_site_id, b.dimension, g.month, b.key
  $sql$ USING resources, dimensions, months;
END
$fn$;

CREATE OR REPLACE FUNCTION store_dimensions_monthly_refresh(resources UUID[], dimensions "StoreDimension"[], months DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE $sql$
    DELETE FROM store_dimensions_tenday b
     USING unnest($1, $2, $3) AS g(resource, dimension, month)
     WHERE b.commerce_store_id = g.resource AND b.dimension = g.dimension
       AND b.block >= g.month AND b.block < (g.month + interval '1 month')::date
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    INSERT INTO store_dimensions_tenday (
      commerce_store_id, dimension, block, key, last_day,
      gross_sales, discounts, returns, net_sales, shipping, taxes, duties, tips, total_sales, orders,
      cancelled_orders, refunded_orders, units_sold, customers, customers_days, new_customers,
      returning_customers, returning_customers_days)
    SELECT t.commerce_store_id, t.dimension, tenday_block(t.date), t.key, MAX(t.date),
      SUM(t.gross_sales), SUM(t.discounts), SUM(t.returns), SUM(t.net_sales), SUM(t.shipping), SUM(t.taxes),
      SUM(t.duties), SUM(t.tips), SUM(t.total_sales), SUM(t.orders), SUM(t.cancelled_orders), SUM(t.refunded_orders),
      SUM(t.units_sold), MAX(t.customers), SUM(t.customers), SUM(t.new_customers),
      MAX(t.returning_customers), SUM(t.returning_customers)
      FROM unnest($1, $2, $3) AS g(resource, dimension, month)
      JOIN store_dimensions_daily t
        ON t.commerce_store_id = g.resource AND t.dimension = g.dimension
       AND date_trunc('month', t.date)::date = g.month
       AND t.date >= g.month AND t.date < (g.month + interval '1 month')::date
     GROUP BY t.commerce_store_id, t.dimension, tenday_block(t.date), t.key
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    DELETE FROM store_dimensions_monthly m
     USING unnest($1, $2, $3) AS g(resource, dimension, month)
     WHERE m.commerce_store_id = g.resource AND m.dimension = g.dimension AND m.month = g.month
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    INSERT INTO store_dimensions_monthly (
      commerce_store_id, dimension, month, key, last_day,
      gross_sales, discounts, returns, net_sales, shipping, taxes, duties, tips, total_sales, orders,
      cancelled_orders, refunded_orders, units_sold, customers, customers_days, new_customers,
      returning_customers, returning_customers_days)
    SELECT b.commerce_store_id, b.dimension, g.month, b.key, MAX(b.last_day),
      SUM(b.gross_sales), SUM(b.discounts), SUM(b.returns), SUM(b.net_sales), SUM(b.shipping), SUM(b.taxes),
      SUM(b.duties), SUM(b.tips), SUM(b.total_sales), SUM(b.orders), SUM(b.cancelled_orders), SUM(b.refunded_orders),
      SUM(b.units_sold), MAX(b.customers), SUM(b.customers_days), SUM(b.new_customers),
      MAX(b.returning_customers), SUM(b.returning_customers_days)
      FROM unnest($1, $2, $3) AS g(resource, dimension, month)
      JOIN store_dimensions_tenday b
        ON b.commerce_store_id = g.resource AND b.dimension = g.dimension
       AND date_trunc('month', b.block)::date = g.month
       AND b.block >= g.month AND b.block < (g.month + interval '1 month')::date
     GROUP BY b.commerce_store_id, b.dimension, g.month, b.key
  $sql$ USING resources, dimensions, months;
END
$fn$;

-- TRUNCATE of a daily table empties both rollups.
CREATE TRIGGER analytics_dimensions_tenday_on_truncate AFTER TRUNCATE ON analytics_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('analytics_dimensions_tenday');
CREATE TRIGGER search_console_dimensions_tenday_on_truncate AFTER TRUNCATE ON search_console_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('search_console_dimensions_tenday');
CREATE TRIGGER store_dimensions_tenday_on_truncate AFTER TRUNCATE ON store_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('store_dimensions_tenday');

-- Backfill from the rows already there: every month of every group, blocks and months alike.
SELECT analytics_dimensions_monthly_refresh(array_agg(resource), array_agg(dimension), array_agg(month))
  FROM (SELECT DISTINCT analytics_property_id AS resource, dimension, date_trunc('month', date)::date AS month FROM analytics_dimensions_daily) t;
SELECT search_console_dimensions_monthly_refresh(array_agg(resource), array_agg(dimension), array_agg(month))
  FROM (SELECT DISTINCT search_console_site_id AS resource, dimension, date_trunc('month', date)::date AS month FROM search_console_dimensions_daily) t;
SELECT store_dimensions_monthly_refresh(array_agg(resource), array_agg(dimension), array_agg(month))
  FROM (SELECT DISTINCT commerce_store_id AS resource, dimension, date_trunc('month', date)::date AS month FROM store_dimensions_daily) t;
ANALYZE analytics_dimensions_tenday, search_console_dimensions_tenday, store_dimensions_tenday,
  analytics_dimensions_monthly, search_console_dimensions_monthly, store_dimensions_monthly;
