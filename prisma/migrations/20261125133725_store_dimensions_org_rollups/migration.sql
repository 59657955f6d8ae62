-- CreateTable
CREATE TABLE "store_dimensions_org_daily" (
    "org_id" UUID NOT NULL,
    "dimension" "StoreDimension" NOT NULL,
    "date" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "detail" TEXT,
    "gross_sales" DECIMAL(18,2),
    "discounts" DECIMAL(18,2),
    "returns" DECIMAL(18,2),
    "net_sales" DECIMAL(18,2),
    "shipping" DECIMAL(18,2),
    "taxes" DECIMAL(18,2),
    "duties" DECIMAL(18,2),
    "tips" DECIMAL(18,2),
    "total_sales" DECIMAL(18,2),
    "orders" BIGINT,
    "cancelled_orders" BIGINT,
    "refunded_orders" BIGINT,
    "units_sold" BIGINT,
    "customers_days" BIGINT,
    "new_customers" BIGINT,
    "returning_customers_days" BIGINT,

    CONSTRAINT "store_dimensions_org_daily_pkey" PRIMARY KEY ("org_id","dimension","date","key")
);

-- CreateTable
CREATE TABLE "store_dimensions_org_monthly" (
    "org_id" UUID NOT NULL,
    "dimension" "StoreDimension" NOT NULL,
    "month" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "last_day" DATE NOT NULL,
    "gross_sales" DECIMAL(18,2),
    "discounts" DECIMAL(18,2),
    "returns" DECIMAL(18,2),
    "net_sales" DECIMAL(18,2),
    "shipping" DECIMAL(18,2),
    "taxes" DECIMAL(18,2),
    "duties" DECIMAL(18,2),
    "tips" DECIMAL(18,2),
    "total_sales" DECIMAL(18,2),
    "orders" BIGINT,
    "cancelled_orders" BIGINT,
    "refunded_orders" BIGINT,
    "units_sold" BIGINT,
    "customers_days" BIGINT,
    "new_customers" BIGINT,
    "returning_customers_days" BIGINT,

    CONSTRAINT "store_dimensions_org_monthly_pkey" PRIMARY KEY ("org_id","dimension","month","key")
);

-- CreateTable
CREATE TABLE "store_dimensions_org_tenday" (
    "org_id" UUID NOT NULL,
    "dimension" "StoreDimension" NOT NULL,
    "block" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "last_day" DATE NOT NULL,
    "gross_sales" DECIMAL(18,2),
    "discounts" DECIMAL(18,2),
    "returns" DECIMAL(18,2),
    "net_sales" DECIMAL(18,2),
    "shipping" DECIMAL(18,2),
    "taxes" DECIMAL(18,2),
    "duties" DECIMAL(18,2),
    "tips" DECIMAL(18,2),
    "total_sales" DECIMAL(18,2),
    "orders" BIGINT,
    "cancelled_orders" BIGINT,
    "refunded_orders" BIGINT,
    "units_sold" BIGINT,
    "customers_days" BIGINT,
    "new_customers" BIGINT,
    "returning_customers_days" BIGINT,

    CONSTRAINT "store_dimensions_org_tenday_pkey" PRIMARY KEY ("org_id","dimension","block","key")
);


-- ───────────── store dimension rows summed over a whole organisation ─────────────
-- The dimension tables of /store/overview for a whole organisation summed each key over all its stores:
-- from the per-store rollups that is every store's row of every month and block, aggregated per (store,
-- key) with 16 sums and 2 peaks, then per key. These tables hold the additive figures per organisation
-- (a month is one row per key), as the web-analytics ones do (migration
-- 20261125100000_web_dimensions_org_rollups); only the people counts (customers, returning_customers:
-- each store's peak, summed over the stores) are still read per store, two MAXes over its rollup rows.
-- The daily rows also keep each key's label and detail of the day over the organisation: those of its
-- row with the greatest label (then the greatest detail, a null last).
--
-- The functions are written for any dimension source `<source>` (here `store_dimensions`) with the tables
-- `<source>_daily`, `_monthly`, `_tenday` and their organisation rollups `_org_daily`, `_org_monthly`,
-- `_org_tenday`: an organisation rollup's figure is the SUM of the per-resource column of the same name
-- (from the daily rows, a `<people>_days` column sums the day's `<people>`). Kept under a transaction-level
-- advisory lock per source, for the reason the web-analytics ones give:
-- - months and blocks: statement triggers of the daily table (through dimensions_monthly_sync, migration
--   20261122110000_web_store_rollups), fired after the per-store rollups' own by name, recompute the
--   touched (organisation, dimension, month) groups from the per-store months and blocks;
-- - days: triggers of their own recompute the touched (organisation, dimension, date) groups from the
--   daily rows of the organisation's stores.
-- A store deleted (its daily rows go by cascade after it, when their organisation can no longer be found
-- from them) or moved to another organisation rebuilds its organisations' rows from the triggers of
-- commerce_stores (org_rollups_on_resource_change, migration 20261125132925_daily_org_rollups).

-- The enum type of a source's `dimension` column.
CREATE FUNCTION dimensions_type(source TEXT) RETURNS TEXT LANGUAGE sql STABLE AS $fn$
  SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = format('%I', source || '_daily')::regclass AND attname = 'dimension'
$fn$;

-- Recomputes the listed (organisation, dimension, month) groups of `<source>_org_tenday` and
-- `<source>_org_monthly` from the per-resource blocks and months; orgs NULL: nothing to do.
CREATE FUNCTION dimensions_org_refresh(source TEXT, resource_column TEXT, resources regclass, orgs UUID[], dimensions TEXT[], months DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  figures TEXT[] := rollup_figures(format('%I', source || '_org_monthly')::regclass, ARRAY['org_id', 'dimension', 'month', 'key', 'last_day']);
  columns TEXT := (SELECT string_agg(format('%I', f), ', ') FROM unnest(figures) f);
  sums TEXT := (SELECT string_agg(format('SUM(r.%I)', f), ', ') FROM unnest(figures) f);
  groups TEXT := format('(SELECT DISTINCT * FROM unnest($1, $2::%s[], $3) AS g(org_id, dimension, month)) g', dimensions_type(source));
BEGIN
  IF orgs IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext(source || '_org'));
  EXECUTE format(
    'DELETE FROM %I o USING %s WHERE o.org_id = g.org_id AND o.dimension = g.dimension
        AND o.block >= g.month AND o.block < (g.month + interval ''1 month'')::date',
    source || '_org_tenday', groups)
    USING orgs, dimensions, months;
  EXECUTE format(
    'INSERT INTO %I (org_id, dimension, block, key, last_day, %s)
     SELECT p.org_id, r.dimension, r.block, r.key, MAX(r.last_day), %s
       FROM %s JOIN %s p ON p.org_id = g.org_id
       JOIN %I r ON r.%I = p.id AND r.dimension = g.dimension
        AND r.block >= g.month AND r.block < (g.month + interval ''1 month'')::date
      GROUP BY p.org_id, r.dimension, r.block, r.key',
    source || '_org_tenday', columns, sums, groups, resources, source || '_tenday', resource_column)
    USING orgs, dimensions, months;
  EXECUTE format(
    'DELETE FROM %I o USING %s WHERE o.org_id = g.org_id AND o.dimension = g.dimension AND o.month = g.month',
    source || '_org_monthly', groups)
    USING orgs, dimensions, months;
  EXECUTE format(
    'INSERT INTO %I (org_id, dimension, month, key, last_day, %s)
     SELECT p.org_id, r.dimension, r.month, r.key, MAX(r.last_day), %s
       FROM %s JOIN %s p ON p.org_id = g.org_id
       JOIN %I r ON r.%I = p.id AND r.dimension = g.dimension AND r.month = g.month
      GROUP BY p.org_id, r.dimension, r.month, r.key',
    source || '_org_monthly', columns, sums, groups, resources, source || '_monthly', resource_column)
    USING orgs, dimensions, months;
END
$fn$;

-- Recomputes the listed (organisation, dimension, date) groups of `<source>_org_daily` from the daily
-- rows; orgs NULL: nothing to do.
CREATE FUNCTION dimensions_org_daily_refresh(source TEXT, resource_column TEXT, resources regclass, orgs UUID[], dimensions TEXT[], dates DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  figures TEXT[] := rollup_figures(format('%I', source || '_org_daily')::regclass, ARRAY['org_id', 'dimension', 'date', 'key', 'label', 'detail']);
  columns TEXT := (SELECT string_agg(format('%I', f), ', ') FROM unnest(figures) f);
  sums TEXT := (SELECT string_agg(format('SUM(t.%I)', regexp_replace(f, '_days$', '')), ', ') FROM unnest(figures) f);
  groups TEXT := format('(SELECT DISTINCT * FROM unnest($1, $2::%s[], $3) AS g(org_id, dimension, date)) g', dimensions_type(source));
BEGIN
  IF orgs IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext(source || '_org'));
  EXECUTE format(
    'DELETE FROM %I o USING %s WHERE o.org_id = g.org_id AND o.dimension = g.dimension AND o.date = g.date',
    source || '_org_daily', groups)
    USING orgs, dimensions, dates;
  EXECUTE format(
    'INSERT INTO %I (org_id, dimension, date, key, label, detail, %s)
     SELECT p.org_id, t.dimension, t.date, t.key,
       (array_agg(t.label ORDER BY t.label DESC, t.detail DESC NULLS LAST))[1],
       (array_agg(t.detail ORDER BY t.label DESC, t.detail DESC NULLS LAST))[1], %s
       FROM %s JOIN %s p ON p.org_id = g.org_id
       JOIN %I t ON t.%I = p.id AND t.dimension = g.dimension AND t.date = g.date
      GROUP BY p.org_id, t.dimension, t.date, t.key',
    source || '_org_daily', columns, sums, groups, resources, source || '_daily', resource_column)
    USING orgs, dimensions, dates;
END
$fn$;

-- Every row of the listed organisations, from their resources' rows (groups whose rows are all gone are deleted).
CREATE FUNCTION dimensions_org_rebuild(source TEXT, resource_column TEXT, resources regclass, orgs UUID[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE format(
    'SELECT dimensions_org_refresh($1, $2, $3, array_agg(org_id), array_agg(dimension::text), array_agg(month))
       FROM (SELECT p.org_id, m.dimension, m.month FROM %1$s p JOIN %2$I m ON m.%3$I = p.id WHERE p.org_id = ANY($4)
             UNION
             SELECT o.org_id, o.dimension, o.month FROM %4$I o WHERE o.org_id = ANY($4)) groups',
    resources, source || '_monthly', resource_column, source || '_org_monthly')
    USING source, resource_column, resources, orgs;
  EXECUTE format(
    'SELECT dimensions_org_daily_refresh($1, $2, $3, array_agg(org_id), array_agg(dimension::text), array_agg(date))
       FROM (SELECT p.org_id, t.dimension, t.date FROM %1$s p JOIN %2$I t ON t.%3$I = p.id WHERE p.org_id = ANY($4)
             UNION
             SELECT o.org_id, o.dimension, o.date FROM %4$I o WHERE o.org_id = ANY($4)) groups',
    resources, source || '_daily', resource_column, source || '_org_daily')
    USING source, resource_column, resources, orgs;
END
$fn$;

-- The months and blocks: called by dimensions_monthly_sync with the per-store groups a statement touched.
CREATE FUNCTION store_dimensions_org_months_refresh(resources UUID[], dimensions "StoreDimension"[], months DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM dimensions_org_refresh('store_dimensions', 'commerce_store_id', 'commerce_stores', array_agg(s.org_id), array_agg(g.dimension::text), array_agg(g.month))
     FROM unnest(resources, dimensions, months) AS g(resource, dimension, month)
     JOIN commerce_stores s ON s.id = g.resource;
END
$fn$;

-- The statement triggers of a daily table for its organisations' daily rollup (arguments: the source,
-- the resource column, the resource table): the (organisation, dimension, date) groups of the changed rows.
CREATE FUNCTION dimensions_org_daily_sync() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  changed TEXT := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %I AS resource, dimension, date FROM new_rows', TG_ARGV[1])
    WHEN 'DELETE' THEN format('SELECT %I AS resource, dimension, date FROM old_rows', TG_ARGV[1])
    ELSE format('SELECT %1$I AS resource, dimension, date FROM new_rows UNION ALL SELECT %1$I, dimension, date FROM old_rows', TG_ARGV[1])
  END;
BEGIN
  EXECUTE format(
    'SELECT dimensions_org_daily_refresh($1, $2, $3, array_agg(org_id), array_agg(dimension::text), array_agg(date))
       FROM (SELECT DISTINCT p.org_id, c.dimension, c.date FROM (%s) c JOIN %s p ON p.id = c.resource) groups
      HAVING count(*) > 0',
    changed, TG_ARGV[2]::regclass)
    USING TG_ARGV[0], TG_ARGV[1], TG_ARGV[2]::regclass;
  RETURN NULL;
END
$fn$;

-- PostgreSQL fires the triggers of one event in the order of their names: these (`..._org_on_...`) run
-- after `store_dimensions_monthly_on_...`, so they read the per-store months and blocks as the same
-- statement left them.
CREATE TRIGGER store_dimensions_org_on_insert AFTER INSERT ON store_dimensions_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('commerce_store_id', 'store_dimensions_org_months_refresh');
CREATE TRIGGER store_dimensions_org_on_update AFTER UPDATE ON store_dimensions_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('commerce_store_id', 'store_dimensions_org_months_refresh');
CREATE TRIGGER store_dimensions_org_on_delete AFTER DELETE ON store_dimensions_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_monthly_sync('commerce_store_id', 'store_dimensions_org_months_refresh');
CREATE TRIGGER store_dimensions_org_daily_on_insert AFTER INSERT ON store_dimensions_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_org_daily_sync('store_dimensions', 'commerce_store_id', 'commerce_stores');
CREATE TRIGGER store_dimensions_org_daily_on_update AFTER UPDATE ON store_dimensions_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_org_daily_sync('store_dimensions', 'commerce_store_id', 'commerce_stores');
CREATE TRIGGER store_dimensions_org_daily_on_delete AFTER DELETE ON store_dimensions_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION dimensions_org_daily_sync('store_dimensions', 'commerce_store_id', 'commerce_stores');
CREATE TRIGGER store_dimensions_org_on_store_delete AFTER DELETE ON commerce_stores
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION org_rollups_on_resource_change('dimensions_org_rebuild', 'store_dimensions', 'commerce_store_id');
CREATE TRIGGER store_dimensions_org_on_store_update AFTER UPDATE ON commerce_stores
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION org_rollups_on_resource_change('dimensions_org_rebuild', 'store_dimensions', 'commerce_store_id');

-- TRUNCATE of the daily table empties these rollups with the per-store ones.
CREATE TRIGGER store_dimensions_org_monthly_on_truncate AFTER TRUNCATE ON store_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('store_dimensions_org_monthly');
CREATE TRIGGER store_dimensions_org_tenday_on_truncate AFTER TRUNCATE ON store_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('store_dimensions_org_tenday');
CREATE TRIGGER store_dimensions_org_daily_on_truncate AFTER TRUNCATE ON store_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('store_dimensions_org_daily');

-- Backfill from the rows already there.
SELECT dimensions_org_rebuild('store_dimensions', 'commerce_store_id', 'commerce_stores', array_agg(id)) FROM organizations;
ANALYZE store_dimensions_org_daily, store_dimensions_org_monthly, store_dimensions_org_tenday;
