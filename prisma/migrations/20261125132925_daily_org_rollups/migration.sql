-- CreateTable
CREATE TABLE "analytics_org_daily" (
    "org_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "resources" BIGINT NOT NULL,
    "sessions" BIGINT,
    "total_users" BIGINT,
    "active_users" BIGINT,
    "new_users" BIGINT,
    "engaged_sessions" BIGINT,
    "screen_page_views" BIGINT,
    "event_count" BIGINT,
    "key_events" BIGINT,
    "total_revenue" DECIMAL(18,2),
    "purchase_revenue" DECIMAL(18,2),
    "transactions" BIGINT,
    "ecommerce_purchases" BIGINT,
    "user_engagement_duration" BIGINT,
    "session_duration_weighted" DOUBLE PRECISION,

    CONSTRAINT "analytics_org_daily_pkey" PRIMARY KEY ("org_id","date")
);

-- CreateTable
CREATE TABLE "store_org_daily" (
    "org_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "resources" BIGINT NOT NULL,
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
    "customers" BIGINT,
    "new_customers" BIGINT,
    "returning_customers" BIGINT,

    CONSTRAINT "store_org_daily_pkey" PRIMARY KEY ("org_id","date")
);


-- ───────────── daily totals summed over a whole organisation ─────────────
-- The totals and daily series of /website/overview and /store/overview for a whole organisation summed
-- every resource's daily row of both ranges, grouped twice (per day, per resource) with every metric:
-- a year of 60 properties is 44,000 rows and 20 numeric aggregates each way. These tables hold each
-- day's sums over the organisation's resources, so a year is 732 rows; only the people counts' peaks
-- (two MAXes per resource) are still read from the daily rows.
--
-- One generic upkeep for both: a rollup `<source>_org_daily` has `org_id`, `date`, `resources` (the number
-- of resource rows of the day) and, for every other column, the SUM of the column of the same name of
-- `<source>_daily`. Kept by
-- statement triggers of the daily table, which recompute the touched (organisation, date) groups under a
-- transaction-level advisory lock per rollup (two writers to resources of one organisation would
-- otherwise each sum the other's rows as they were before, and the second to insert a group would fail
-- on its primary key; under READ COMMITTED each statement after the lock sees what the writer before it
-- committed). A resource deleted (its daily rows go by cascade after it, when their organisation can no
-- longer be found from them) or moved to another organisation rebuilds its organisations' days from the
-- triggers of the resource table, as the web-analytics dimension rollups do
-- (migration 20261125100000_web_dimensions_org_rollups).

-- The figure columns of a rollup: every column but the given keys, in the table's order.
CREATE FUNCTION rollup_figures(rollup regclass, keys TEXT[]) RETURNS TEXT[] LANGUAGE sql STABLE AS $fn$
  SELECT ARRAY(SELECT attname::text FROM pg_attribute
                WHERE attrelid = rollup AND attnum > 0 AND NOT attisdropped AND attname <> ALL(keys)
                ORDER BY attnum)
$fn$;

-- Recomputes the listed (organisation, date) groups of `<source>_org_daily` from `<source>_daily`, whose
-- rows belong to the rows of `resources` (with `org_id`) by `resource_column`; orgs NULL: nothing to do.
CREATE FUNCTION org_daily_refresh(source TEXT, resource_column TEXT, resources regclass, orgs UUID[], dates DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  rollup regclass := format('%I', source || '_org_daily')::regclass;
  metrics TEXT[] := rollup_figures(rollup, ARRAY['org_id', 'date', 'resources']);
BEGIN
  IF orgs IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext(rollup::text));
  EXECUTE format('DELETE FROM %s o USING unnest($1, $2) AS g(org_id, date) WHERE o.org_id = g.org_id AND o.date = g.date', rollup)
    USING orgs, dates;
  EXECUTE format(
    'INSERT INTO %s (org_id, date, resources, %s)
     SELECT r.org_id, t.date, COUNT(*), %s
       FROM (SELECT DISTINCT org_id, date FROM unnest($1, $2) AS g(org_id, date)) g
       JOIN %s r ON r.org_id = g.org_id
       JOIN %I t ON t.%I = r.id AND t.date = g.date
      GROUP BY r.org_id, t.date',
    rollup,
    (SELECT string_agg(format('%I', m), ', ') FROM unnest(metrics) m),
    (SELECT string_agg(format('SUM(t.%I)', m), ', ') FROM unnest(metrics) m),
    resources, source || '_daily', resource_column)
    USING orgs, dates;
END
$fn$;

-- Every day of the listed organisations: those with daily rows of their resources and those the rollup holds.
CREATE FUNCTION org_daily_rebuild(source TEXT, resource_column TEXT, resources regclass, orgs UUID[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE format(
    'SELECT org_daily_refresh($1, $2, $3, array_agg(org_id), array_agg(date))
       FROM (SELECT r.org_id, t.date FROM %s r JOIN %I t ON t.%I = r.id WHERE r.org_id = ANY($4)
             UNION
             SELECT o.org_id, o.date FROM %I o WHERE o.org_id = ANY($4)) groups',
    resources, source || '_daily', resource_column, source || '_org_daily')
    USING source, resource_column, resources, orgs;
END
$fn$;

-- The statement triggers of a daily table `<source>_daily` (arguments: the source, the resource column,
-- the resource table): the (organisation, date) groups of the changed rows (new rows, old rows or both).
CREATE FUNCTION org_daily_sync() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  resource_column TEXT := TG_ARGV[1];
  resources regclass := TG_ARGV[2]::regclass;
  changed TEXT := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %I AS resource, date FROM new_rows', resource_column)
    WHEN 'DELETE' THEN format('SELECT %I AS resource, date FROM old_rows', resource_column)
    ELSE format('SELECT %1$I AS resource, date FROM new_rows UNION ALL SELECT %1$I, date FROM old_rows', resource_column)
  END;
BEGIN
  EXECUTE format(
    'SELECT org_daily_refresh($1, $2, $3, array_agg(org_id), array_agg(date))
       FROM (SELECT DISTINCT r.org_id, c.date FROM (%s) c JOIN %s r ON r.id = c.resource) groups
      HAVING count(*) > 0',
    changed, resources)
    USING TG_ARGV[0], resource_column, resources;
  RETURN NULL;
END
$fn$;

-- The statement triggers of a resource table, for every rollup per organisation of its rows (arguments:
-- the rollup's rebuild function, called as (source, resource column, resource table, organisations),
-- then its source and resource column): a resource deleted or moved to another organisation rebuilds
-- every row of its organisations.
CREATE FUNCTION org_rollups_on_resource_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  orgs UUID[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT org_id) INTO orgs FROM old_rows;
  ELSE
    SELECT array_agg(DISTINCT moved.org_id) INTO orgs
      FROM (SELECT o.org_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.org_id IS DISTINCT FROM o.org_id
            UNION SELECT n.org_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.org_id IS DISTINCT FROM o.org_id) moved;
  END IF;
  IF orgs IS NOT NULL THEN
    EXECUTE format('SELECT %I($1, $2, $3, $4)', TG_ARGV[0]) USING TG_ARGV[1], TG_ARGV[2], TG_RELID::regclass, orgs;
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER analytics_org_daily_on_insert AFTER INSERT ON analytics_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION org_daily_sync('analytics', 'analytics_property_id', 'analytics_properties');
CREATE TRIGGER analytics_org_daily_on_update AFTER UPDATE ON analytics_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION org_daily_sync('analytics', 'analytics_property_id', 'analytics_properties');
CREATE TRIGGER analytics_org_daily_on_delete AFTER DELETE ON analytics_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION org_daily_sync('analytics', 'analytics_property_id', 'analytics_properties');
CREATE TRIGGER analytics_org_daily_on_truncate AFTER TRUNCATE ON analytics_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('analytics_org_daily');
CREATE TRIGGER analytics_org_daily_on_property_delete AFTER DELETE ON analytics_properties
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION org_rollups_on_resource_change('org_daily_rebuild', 'analytics', 'analytics_property_id');
CREATE TRIGGER analytics_org_daily_on_property_update AFTER UPDATE ON analytics_properties
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION org_rollups_on_resource_change('org_daily_rebuild', 'analytics', 'analytics_property_id');

CREATE TRIGGER store_org_daily_on_insert AFTER INSERT ON store_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION org_daily_sync('store', 'commerce_store_id', 'commerce_stores');
CREATE TRIGGER store_org_daily_on_update AFTER UPDATE ON store_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION org_daily_sync('store', 'commerce_store_id', 'commerce_stores');
CREATE TRIGGER store_org_daily_on_delete AFTER DELETE ON store_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION org_daily_sync('store', 'commerce_store_id', 'commerce_stores');
CREATE TRIGGER store_org_daily_on_truncate AFTER TRUNCATE ON store_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('store_org_daily');
CREATE TRIGGER store_org_daily_on_store_delete AFTER DELETE ON commerce_stores
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION org_rollups_on_resource_change('org_daily_rebuild', 'store', 'commerce_store_id');
CREATE TRIGGER store_org_daily_on_store_update AFTER UPDATE ON commerce_stores
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION org_rollups_on_resource_change('org_daily_rebuild', 'store', 'commerce_store_id');

-- Backfill from the rows already there.
SELECT org_daily_rebuild('analytics', 'analytics_property_id', 'analytics_properties', array_agg(id)) FROM organizations;
SELECT org_daily_rebuild('store', 'commerce_store_id', 'commerce_stores', array_agg(id)) FROM organizations;
ANALYZE analytics_org_daily, store_org_daily;
