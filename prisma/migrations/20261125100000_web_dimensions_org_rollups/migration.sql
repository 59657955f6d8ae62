-- CreateTable
CREATE TABLE "analytics_dimensions_org_daily" (
    "org_id" UUID NOT NULL,
    "dimension" "AnalyticsDimension" NOT NULL,
    "date" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "detail" TEXT,
    "sessions" BIGINT,
    "total_users_days" BIGINT,
    "active_users_days" BIGINT,
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

    CONSTRAINT "analytics_dimensions_org_daily_pkey" PRIMARY KEY ("org_id","dimension","date","key")
);

-- CreateTable
CREATE TABLE "analytics_dimensions_org_monthly" (
    "org_id" UUID NOT NULL,
    "dimension" "AnalyticsDimension" NOT NULL,
    "month" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "last_day" DATE NOT NULL,
    "sessions" BIGINT,
    "total_users_days" BIGINT,
    "active_users_days" BIGINT,
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

    CONSTRAINT "analytics_dimensions_org_monthly_pkey" PRIMARY KEY ("org_id","dimension","month","key")
);

-- CreateTable
CREATE TABLE "analytics_dimensions_org_tenday" (
    "org_id" UUID NOT NULL,
    "dimension" "AnalyticsDimension" NOT NULL,
    "block" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "last_day" DATE NOT NULL,
    "sessions" BIGINT,
    "total_users_days" BIGINT,
    "active_users_days" BIGINT,
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

    CONSTRAINT "analytics_dimensions_org_tenday_pkey" PRIMARY KEY ("org_id","dimension","block","key")
);

-- ───────────── web-analytics dimension rows summed over a whole organisation ─────────────
-- The dimension tables of /website/overview for a whole organisation sum each key over all its
-- properties: from the per-property rollups that is every property's row of every month (a year of 60
-- properties: 59,000 rows aggregated into 4,600 (property, key) groups with 17 aggregates each), from
-- these 79 keys × 12 months, and the days outside whole blocks (up to ten at each end of a range, 4,500
-- rows a day) from 79 rows a day. Only the additive columns are kept (sums, person-day sums and the
-- latest day): the people counts (total_users, active_users) are each property's peak, summed over the
-- properties, and are still read per property (two columns of the per-property rollups and daily rows,
-- aggregated with MAX only). The daily rows also keep the day's label and detail of the key over the
-- organisation: those of its row with the greatest label (then the greatest detail, a null last), the
-- label the dimension tables show for a key's latest day: one row to read per key instead of one per
-- property.
--
-- Kept by the triggers of analytics_dimensions_daily, under a transaction-level advisory lock: two
-- writers to properties of one organisation would otherwise each sum the other's rows as they were
-- before, and the second to insert a group would fail on its primary key; under READ COMMITTED each
-- statement after the lock sees what the writer before it committed.
-- - months and blocks: analytics_dimensions_monthly_refresh (migrations 20261122110000_web_store_rollups
--   and 20261122120000_web_store_tenday_rollups), after recomputing the per-property blocks and months
--   of the touched (property, dimension, month) groups, recomputes the touched (organisation,
--   dimension, month) groups from them: blocks from the properties' blocks, the month from their months;
-- - days: triggers of their own recompute the touched (organisation, dimension, date) groups from the
--   daily rows of the organisation's properties.
-- The organisation of a property is read from analytics_properties. Deleting a property (its daily rows
-- go by cascade after the property row, when their organisation can no longer be found from them) or
-- moving it to another organisation rebuilds its organisations' rows from the triggers of
-- analytics_properties.

-- Recomputes the listed (organisation, dimension, month) groups; orgs NULL: nothing to do.
CREATE FUNCTION analytics_dimensions_org_refresh(orgs UUID[], dimensions "AnalyticsDimension"[], months DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  IF orgs IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('analytics_dimensions_org'));
  EXECUTE $sql$
    DELETE FROM analytics_dimensions_org_tenday o
     USING unnest($1, $2, $3) AS g(org_id, dimension, month)
     WHERE o.org_id = g.org_id AND o.dimension = g.dimension
       AND o.block >= g.month AND o.block < (g.month + interval '1 month')::date
  $sql$ USING orgs, dimensions, months;
  EXECUTE $sql$
    INSERT INTO analytics_dimensions_org_tenday (
      org_id, dimension, block, key, last_day, sessions, total_users_days, active_users_days, new_users,
      engaged_sessions, screen_page_views, event_count, key_events, total_revenue, purchase_revenue,
      transactions, ecommerce_purchases, user_engagement_duration, session_duration_weighted)
    SELECT p.org_id, b.dimension, b.block, b.key, MAX(b.last_day), SUM(b.sessions), SUM(b.total_users_days),
      SUM(b.active_users_days), SUM(b.new_users), SUM(b.engaged_sessions), SUM(b.screen_page_views),
      SUM(b.event_count), SUM(b.key_events), SUM(b.total_revenue), SUM(b.purchase_revenue), SUM(b.transactions),
      SUM(b.ecommerce_purchases), SUM(b.user_engagement_duration), SUM(b.session_duration_weighted)
      FROM unnest($1, $2, $3) AS g(org_id, dimension, month)
      JOIN analytics_properties p ON p.org_id = g.org_id
      JOIN analytics_dimensions_tenday b
        ON b.analytics_property_id = p.id AND b.dimension = g.dimension
       AND b.block >= g.month AND b.block < (g.month + interval '1 month')::date
     GROUP BY p.org_id, b.dimension, b.block, b.key
  $sql$ USING orgs, dimensions, months;
  EXECUTE $sql$
    DELETE FROM analytics_dimensions_org_monthly o
     USING unnest($1, $2, $3) AS g(org_id, dimension, month)
     WHERE o.org_id = g.org_id AND o.dimension = g.dimension AND o.month = g.month
  $sql$ USING orgs, dimensions, months;
  EXECUTE $sql$
    INSERT INTO analytics_dimensions_org_monthly (
      org_id, dimension, month, key, last_day, sessions, total_users_days, active_users_days, new_users,
      engaged_sessions, screen_page_views, event_count, key_events, total_revenue, purchase_revenue,
      transactions, ecommerce_purchases, user_engagement_duration, session_duration_weighted)
    SELECT p.org_id, m.dimension, m.month, m.key, MAX(m.last_day), SUM(m.sessions), SUM(m.total_users_days),
      SUM(m.active_users_days), SUM(m.new_users), SUM(m.engaged_sessions), SUM(m.screen_page_views),
      SUM(m.event_count), SUM(m.key_events), SUM(m.total_revenue), SUM(m.purchase_revenue), SUM(m.transactions),
      SUM(m.ecommerce_purchases), SUM(m.user_engagement_duration), SUM(m.session_duration_weighted)
      FROM unnest($1, $2, $3) AS g(org_id, dimension, month)
      JOIN analytics_properties p ON p.org_id = g.org_id
      JOIN analytics_dimensions_monthly m
        ON m.analytics_property_id = p.id AND m.dimension = g.dimension AND m.month = g.month
     GROUP BY p.org_id, m.dimension, m.month, m.key
  $sql$ USING orgs, dimensions, months;
END
$fn$;

-- Recomputes the listed (organisation, dimension, date) groups of the daily rollup; orgs NULL: nothing to do.
CREATE FUNCTION analytics_dimensions_org_daily_refresh(orgs UUID[], dimensions "AnalyticsDimension"[], dates DATE[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  IF orgs IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('analytics_dimensions_org'));
  EXECUTE $sql$
    DELETE FROM analytics_dimensions_org_daily o
     USING unnest($1, $2, $3) AS g(org_id, dimension, date)
     WHERE o.org_id = g.org_id AND o.dimension = g.dimension AND o.date = g.date
  $sql$ USING orgs, dimensions, dates;
  EXECUTE $sql$
    INSERT INTO analytics_dimensions_org_daily (
      org_id, dimension, date, key, label, detail, sessions, total_users_days, active_users_days, new_users,
      engaged_sessions, screen_page_views, event_count, key_events, total_revenue, purchase_revenue,
      transactions, ecommerce_purchases, user_engagement_duration, session_duration_weighted)
    SELECT p.org_id, t.dimension, t.date, t.key,
      (array_agg(t.label ORDER BY t.label DESC, t.detail DESC NULLS LAST))[1],
      (array_agg(t.detail ORDER BY t.label DESC, t.detail DESC NULLS LAST))[1], SUM(t.sessions), SUM(t.total_users), SUM(t.active_users),
      SUM(t.new_users), SUM(t.engaged_sessions), SUM(t.screen_page_views), SUM(t.event_count), SUM(t.key_events),
      SUM(t.total_revenue), SUM(t.purchase_revenue), SUM(t.transactions), SUM(t.ecommerce_purchases),
      SUM(t.user_engagement_duration), SUM(t.session_duration_weighted)
      FROM unnest($1, $2, $3) AS g(org_id, dimension, date)
      JOIN analytics_properties p ON p.org_id = g.org_id
      JOIN analytics_dimensions_daily t
        ON t.analytics_property_id = p.id AND t.dimension = g.dimension AND t.date = g.date
     GROUP BY p.org_id, t.dimension, t.date, t.key
  $sql$ USING orgs, dimensions, dates;
END
$fn$;

-- Every row of the listed organisations, from their properties' rows (groups whose rows are all gone
-- are deleted).
CREATE FUNCTION analytics_dimensions_org_rebuild(orgs UUID[])
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM analytics_dimensions_org_refresh(array_agg(org_id), array_agg(dimension), array_agg(month))
     FROM (SELECT p.org_id, m.dimension, m.month FROM analytics_properties p
             JOIN analytics_dimensions_monthly m ON m.analytics_property_id = p.id
            WHERE p.org_id = ANY(orgs)
           UNION
           SELECT o.org_id, o.dimension, o.month FROM analytics_dimensions_org_monthly o WHERE o.org_id = ANY(orgs)) groups;
  PERFORM analytics_dimensions_org_daily_refresh(array_agg(org_id), array_agg(dimension), array_agg(date))
     FROM (SELECT p.org_id, t.dimension, t.date FROM analytics_properties p
             JOIN analytics_dimensions_daily t ON t.analytics_property_id = p.id
            WHERE p.org_id = ANY(orgs)
           UNION
           SELECT o.org_id, o.dimension, o.date FROM analytics_dimensions_org_daily o WHERE o.org_id = ANY(orgs)) groups;
END
$fn$;

-- The statement triggers of the daily table for the daily rollup: the (organisation, dimension, date)
-- groups of the changed rows (new rows, old rows or both, as in dimensions_monthly_sync).
CREATE FUNCTION analytics_dimensions_org_daily_sync() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT analytics_property_id, dimension, date FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT analytics_property_id, dimension, date FROM old_rows'
    ELSE 'SELECT analytics_property_id, dimension, date FROM new_rows UNION ALL SELECT analytics_property_id, dimension, date FROM old_rows'
  END;
BEGIN
  EXECUTE format(
    'SELECT analytics_dimensions_org_daily_refresh(array_agg(org_id), array_agg(dimension), array_agg(date))
       FROM (SELECT DISTINCT p.org_id, c.dimension, c.date FROM (%s) c JOIN analytics_properties p ON p.id = c.analytics_property_id) groups
      HAVING count(*) > 0',
    changed);
  RETURN NULL;
END
$fn$;

CREATE TRIGGER analytics_dimensions_org_daily_on_insert AFTER INSERT ON analytics_dimensions_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_dimensions_org_daily_sync();
CREATE TRIGGER analytics_dimensions_org_daily_on_update AFTER UPDATE ON analytics_dimensions_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_dimensions_org_daily_sync();
CREATE TRIGGER analytics_dimensions_org_daily_on_delete AFTER DELETE ON analytics_dimensions_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_dimensions_org_daily_sync();

-- The per-property refresh of migration 20261122120000_web_store_tenday_rollups (unchanged), then the
-- organisations' groups of the same dimensions and months.
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
  PERFORM analytics_dimensions_org_refresh(array_agg(org_id), array_agg(dimension), array_agg(month))
     FROM (SELECT DISTINCT p.org_id, g.dimension, g.month
             FROM unnest(resources, dimensions, months) AS g(resource, dimension, month)
             JOIN analytics_properties p ON p.id = g.resource) groups;
END
$fn$;

-- A property deleted (its daily rows are deleted by cascade after it, when its organisation can no
-- longer be found from them) or moved to another organisation: every group of its organisations.
CREATE FUNCTION analytics_dimensions_org_on_property_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM analytics_dimensions_org_rebuild(array_agg(DISTINCT org_id)) FROM old_rows HAVING count(*) > 0;
  ELSE
    PERFORM analytics_dimensions_org_rebuild(array_agg(DISTINCT moved.org_id))
       FROM (SELECT o.org_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.org_id IS DISTINCT FROM o.org_id
             UNION SELECT n.org_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.org_id IS DISTINCT FROM o.org_id) moved
     HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER analytics_dimensions_org_on_property_delete AFTER DELETE ON analytics_properties
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION analytics_dimensions_org_on_property_change();
CREATE TRIGGER analytics_dimensions_org_on_property_update AFTER UPDATE ON analytics_properties
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION analytics_dimensions_org_on_property_change();

-- TRUNCATE of the daily table empties these rollups with the per-property ones.
CREATE TRIGGER analytics_dimensions_org_monthly_on_truncate AFTER TRUNCATE ON analytics_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('analytics_dimensions_org_monthly');
CREATE TRIGGER analytics_dimensions_org_tenday_on_truncate AFTER TRUNCATE ON analytics_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('analytics_dimensions_org_tenday');
CREATE TRIGGER analytics_dimensions_org_daily_on_truncate AFTER TRUNCATE ON analytics_dimensions_daily
  FOR EACH STATEMENT EXECUTE FUNCTION dimensions_monthly_truncate('analytics_dimensions_org_daily');

-- Backfill from the rows already there: months and blocks from the per-property rollups, days from the daily rows.
SELECT analytics_dimensions_org_refresh(array_agg(org_id), array_agg(dimension), array_agg(month))
  FROM (SELECT DISTINCT p.org_id, m.dimension, m.month
          FROM analytics_dimensions_monthly m JOIN analytics_properties p ON p.id = m.analytics_property_id) t;
INSERT INTO analytics_dimensions_org_daily (
  org_id, dimension, date, key, label, detail, sessions, total_users_days, active_users_days, new_users,
  engaged_sessions, screen_page_views, event_count, key_events, total_revenue, purchase_revenue,
  transactions, ecommerce_purchases, user_engagement_duration, session_duration_weighted)
SELECT p.org_id, t.dimension, t.date, t.key,
  (array_agg(t.label ORDER BY t.label DESC, t.detail DESC NULLS LAST))[1],
  (array_agg(t.detail ORDER BY t.label DESC, t.detail DESC NULLS LAST))[1], SUM(t.sessions), SUM(t.total_users), SUM(t.active_users),
  SUM(t.new_users), SUM(t.engaged_sessions), SUM(t.screen_page_views), SUM(t.event_count), SUM(t.key_events),
  SUM(t.total_revenue), SUM(t.purchase_revenue), SUM(t.transactions), SUM(t.ecommerce_purchases),
  SUM(t.user_engagement_duration), SUM(t.session_duration_weighted)
  FROM analytics_dimensions_daily t JOIN analytics_properties p ON p.id = t.analytics_property_id
 GROUP BY p.org_id, t.dimension, t.date, t.key;
ANALYZE analytics_dimensions_org_daily, analytics_dimensions_org_tenday, analytics_dimensions_org_monthly;
