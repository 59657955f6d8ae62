-- CreateTable
CREATE TABLE "analytics_dimensions_monthly" (
    "analytics_property_id" UUID NOT NULL,
    "dimension" "AnalyticsDimension" NOT NULL,
    "month" DATE NOT NULL,
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

    CONSTRAINT "analytics_dimensions_monthly_pkey" PRIMARY KEY ("analytics_property_id","dimension","month","key")
);

-- CreateTable
CREATE TABLE "search_console_dimensions_monthly" (
    "search_console_site_id" UUID NOT NULL,
    "dimension" "SearchDimension" NOT NULL,
    "month" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "last_day" DATE NOT NULL,
    "clicks" BIGINT NOT NULL,
    "impressions" BIGINT NOT NULL,
    "position_weight" DOUBLE PRECISION,
    "position_impressions" BIGINT,

    CONSTRAINT "search_console_dimensions_monthly_pkey" PRIMARY KEY ("search_console_site_id","dimension","month","key")
);

-- CreateTable
CREATE TABLE "store_dimensions_monthly" (
    "commerce_store_id" UUID NOT NULL,
    "dimension" "StoreDimension" NOT NULL,
    "month" DATE NOT NULL,
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

    CONSTRAINT "store_dimensions_monthly_pkey" PRIMARY KEY ("commerce_store_id","dimension","month","key")
);


-- ───────────────────────── keeping the monthly rollups equal to the daily rows ─────────────────────────
--
-- Each *_monthly_refresh(resources, dimensions, months) recomputes the listed (resource, dimension,
-- month) groups whole from the daily rows: it deletes the group's monthly rows and inserts them again
-- (a group whose daily rows are all gone keeps none). It runs its statements through EXECUTE … USING so
-- that each is planned with the actual lists: a few groups use the daily table's primary key (resource,
-- dimension, date range); a bulk load (one COPY of every row, possibly before the primary key is
-- rebuilt) gets a hash join. It is also the rebuild: call it with every group of the daily table.

CREATE FUNCTION analytics_dimensions_monthly_refresh(resources UUID[], dimensions "AnalyticsDimension"[], months DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
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
    SELECT t.analytics_property_id, t.dimension, g.month, t.key, MAX(t.date),
      SUM(t.sessions), MAX(t.total_users), SUM(t.total_users), MAX(t.active_users), SUM(t.active_users), SUM(t.new_users),
      SUM(t.engaged_sessions), SUM(t.screen_page_views), SUM(t.event_count), SUM(t.key_events), SUM(t.total_revenue),
      SUM(t.purchase_revenue), SUM(t.transactions), SUM(t.ecommerce_purchases), SUM(t.user_engagement_duration),
      SUM(t.session_duration_weighted)
      FROM unnest($1, $2, $3) AS g(resource, dimension, month)
      JOIN analytics_dimensions_daily t
        ON t.analytics_property_id = g.resource AND t.dimension = g.dimension
       AND date_trunc('month', t.date)::date = g.month
       AND t.date >= g.month AND t.date < (g.month + interval '1 month')::date
     GROUP BY t.analytics_property_id, t.dimension, g.month, t.key
  $sql$ USING resources, dimensions, months;
END
$fn$;

CREATE FUNCTION search_console_dimensions_monthly_refresh(resources UUID[], dimensions "SearchDimension"[], months DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE $sql$
    DELETE FROM search_console_dimensions_monthly m
     USING unnest($1, $2, $3) AS g(resource, dimension, month)
     WHERE m.search_console_site_id = g.resource AND m.dimension = g.dimension AND m.month = g.month
  $sql$ USING resources, dimensions, months;
  EXECUTE $sql$
    INSERT INTO search_console_dimensions_monthly (
      search_console_site_id, dimension, month, key, last_day, clicks, impressions, position_weight, position_impressions)
    SELECT t.search_console_site_id, t.dimension, g.month, t.key, MAX(t.date),
      SUM(t.clicks), SUM(t.impressions), SUM(t.position * t.impressions),
      SUM(CASE WHEN t.position IS NOT NULL THEN t.impressions END)
      FROM unnest($1, $2, $3) AS g(resource, dimension, month)
      JOIN search_console_dimensions_daily t
        ON t.search_console_site_id = g.resource AND t.dimension = g.dimension
       AND date_trunc('month', t.date)::date = g.month
       AND t.date >= g.month AND t.date < (g.month + interval '1 month')::date
     GROUP BY t.search_console_site_id, t.dimension, g.month, t.key
  $sql$ USING resources, dimensions, months;
END
$fn$;

CREATE FUNCTION store_dimensions_monthly_refresh(resources UUID[], dimensions "StoreDimension"[], months DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
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
    SELECT t.commerce_store_id, t.dimension, g.month, t.key, MAX(t.date),
      SUM(t.gross_sales), SUM(t.discounts), SUM(t.returns), SUM(t.net_sales), SUM(t.shipping), SUM(t.taxes),
      SUM(t.duties), SUM(t.tips), SUM(t.total_sales), SUM(t.orders), SUM(t.cancelled_orders), SUM(t.refunded_orders),
      SUM(t.units_sold), MAX(t.customers), SUM(t.customers), SUM(t.new_customers),
      MAX(t.returning_customers), SUM(t.returning_customers)
      FROM unnest($1, $2, $3) AS g(resource, dimension, month)
      JOIN store_dimensions_daily t
        ON t.commerce_store_id = g.resource AND t.dimension = g.dimension
       AND date_trunc('month', t.date)::date = g.month
       AND t.date >= g.month AND t.date < (g.month + interval '1 month')::date
     GROUP BY t.commerce_store_id, t.dimension, g.month, t.key
  $sql$ USING resources, dimensions, months;
END
$fn$;

-- The statement trigger of a daily table: the groups its changed rows fall in (the new rows of an
-- INSERT or COPY, the old rows of a DELETE, both of an UPDATE, so that a row moved to another key,
-- month or resource leaves its old group right too), passed to the table's refresh function.
-- Arguments: the resource column, the refresh function. PostgreSQL allows transition tables only on
-- single-event triggers, hence three triggers per table on this one function.
CREATE FUNCTION dimensions_monthly_sync() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT * FROM old_rows'
    ELSE 'SELECT * FROM new_rows UNION ALL SELECT * FROM old_rows'
  END;
BEGIN
  EXECUTE format(
    'SELECT %I(array_agg(resource), array_agg(dimension), array_agg(month))
       FROM (SELECT DISTINCT %I AS resource, dimension, date_trunc(''month'', date)::date AS month FROM (%s) changed) groups
      HAVING count(*) > 0',
    TG_ARGV[1], TG_ARGV[0], changed);
  RETURN NULL;
END
$fn$;

-- TRUNCATE fires no row events: it empties the rollup with the daily table.
CREATE FUNCTION dimensions_monthly_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE format('TRUNCATE %I', TG_ARGV[0]);
  RETURN NULL;
END
$fn$;

CREATE TRIGGER analytics_dimensions_monthly_on_insert AFTER INSERT ON analytics_dimensions_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('analytics_property_id', 'analytics_dimensions_monthly_refresh');
CREATE TRIGGER analytics_dimensions_monthly_on_update AFTER UPDATE ON analytics_dimensions_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('analytics_property_id', 'analytics_dimensions_monthly_refresh');
CREATE TRIGGER analytics_dimensions_monthly_on_delete AFTER DELETE ON analytics_dimensions_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('analytics_property_id', 'analytics_dimensions_monthly_refresh');
CREATE TRIGGER analytics_dimensions_monthly_on_truncate AFTER TRUNCATE ON analytics_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('analytics_dimensions_monthly');

CREATE TRIGGER search_console_dimensions_monthly_on_insert AFTER INSERT ON search_console_dimensions_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('search_console_site_id', 'search_console_dimensions_monthly_refresh');
CREATE TRIGGER search_console_dimensions_monthly_on_update AFTER UPDATE ON search_console_dimensions_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('search_console_site_id', 'search_console_dimensions_monthly_refresh');
CREATE TRIGGER search_console_dimensions_monthly_on_delete AFTER DELETE ON search_console_dimensions_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('search_console_site_id', 'search_console_dimensions_monthly_refresh');
CREATE TRIGGER search_console_dimensions_monthly_on_truncate AFTER TRUNCATE ON search_console_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('search_console_dimensions_monthly');

CREATE TRIGGER store_dimensions_monthly_on_insert AFTER INSERT ON store_dimensions_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('commerce_store_id', 'store_dimensions_monthly_refresh');
CREATE TRIGGER store_dimensions_monthly_on_update AFTER UPDATE ON store_dimensions_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('commerce_store_id', 'store_dimensions_monthly_refresh');
CREATE TRIGGER store_dimensions_monthly_on_delete AFTER DELETE ON store_dimensions_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('commerce_store_id', 'store_dimensions_monthly_refresh');
CREATE TRIGGER store_dimensions_monthly_on_truncate AFTER TRUNCATE ON store_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('store_dimensions_monthly');

-- Backfill from the rows already there (a database migrated with data in it).
SELECT analytics_dimensions_monthly_refresh(array_agg(resource), array_agg(dimension), array_agg(month))
  FROM (SELECT DISTINCT analytics_property_id AS resource, dimension, date_trunc('month', date)::date AS month FROM analytics_dimensions_daily) t;
SELECT search_console_dimensions_monthly_refresh(array_agg(resource), array_agg(dimension), array_agg(month))
  FROM (SELECT DISTINCT search_console_site_id AS resource, dimension, date_trunc('month', date)::date AS month FROM search_console_dimensions_daily) t;
SELECT store_dimensions_monthly_refresh(array_agg(resource), array_agg(dimension), array_agg(month))
  FROM (SELECT DISTINCT commerce_store_id AS resource, dimension, date_trunc('month', date)::date AS month FROM store_dimensions_daily) t;
ANALYZE analytics_dimensions_monthly, search_console_dimensions_monthly, store_dimensions_monthly;
