-- CreateTable
CREATE TABLE "data_versions" (
    "org_id" UUID NOT NULL,
    "table_name" TEXT NOT NULL,
    "version" BIGINT NOT NULL,

    CONSTRAINT "data_versions_pkey" PRIMARY KEY ("org_id","table_name")
);

-- AddForeignKey
ALTER TABLE "data_versions" ADD CONSTRAINT "data_versions_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Written by hand (Prisma does not model triggers). Every statement that writes a table the API reads
-- bumps data_versions for each organisation whose rows it touched, in the writer's own transaction:
-- the new version becomes visible exactly when the rows do. The response cache keys its entries by
-- the sum of an organisation's versions (lib/metrics/freshness.ts), so no cached answer outlives a
-- write. Rollup tables are left out: their triggers derive them from the daily tables, which bump.
--
-- Arguments: none when the table has its own org_id; otherwise the parent table and the column of
-- the changed table that references the parent's id (whose org_id is taken). Only organisations that
-- still exist are bumped: deleting an organisation cascades to its tables, whose triggers then fire.
CREATE FUNCTION "data_versions_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT * FROM old_rows'
    ELSE 'SELECT * FROM new_rows UNION ALL SELECT * FROM old_rows' END;
  orgs text := CASE WHEN TG_NARGS = 0
    THEN format('SELECT DISTINCT c.org_id FROM (%s) c', changed)
    ELSE format('SELECT DISTINCT p.org_id FROM %I p WHERE p.id IN (SELECT c.%I FROM (%s) c)', TG_ARGV[0], TG_ARGV[1], changed) END;
BEGIN
  EXECUTE format(
    'INSERT INTO "data_versions" ("org_id", "table_name", "version")
       SELECT g.id, %L, 1 FROM (%s) o JOIN "organizations" g ON g.id = o.org_id
     ON CONFLICT ("org_id", "table_name") DO UPDATE SET "version" = "data_versions"."version" + 1',
    TG_TABLE_NAME, orgs);
  RETURN NULL;
END $$;

-- TRUNCATE names no rows: every organisation's version of the table moves.
CREATE FUNCTION "data_versions_bump_all"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "data_versions" ("org_id", "table_name", "version")
    SELECT id, TG_TABLE_NAME, 1 FROM "organizations"
  ON CONFLICT ("org_id", "table_name") DO UPDATE SET "version" = "data_versions"."version" + 1;
  RETURN NULL;
END $$;

DO $$
DECLARE
  -- table, then the parent and reference column for tables without their own org_id.
  watched text[][] := ARRAY[
    ['clients', '', ''],
    ['sync_runs', '', ''],
    ['ad_accounts', '', ''],
    ['campaigns', '', ''],
    ['ad_sets', '', ''],
    ['ads', '', ''],
    ['ad_insights_daily', '', ''],
    ['ad_account_breakdowns_daily', '', ''],
    ['ad_breakdown_cache', '', ''],
    ['ad_breakdown_cache_rows', 'ad_breakdown_cache', 'cache_id'],
    ['social_pages', '', ''],
    ['social_daily', 'social_pages', 'social_page_id'],
    ['social_posts', '', ''],
    ['social_post_thumbnails', 'social_posts', 'post_id'],
    ['analytics_properties', '', ''],
    ['analytics_daily', 'analytics_properties', 'analytics_property_id'],
    ['analytics_dimensions_daily', 'analytics_properties', 'analytics_property_id'],
    ['search_console_sites', '', ''],
    ['search_console_daily', 'search_console_sites', 'search_console_site_id'],
    ['search_console_dimensions_daily', 'search_console_sites', 'search_console_site_id'],
    ['commerce_stores', '', ''],
    ['store_daily', 'commerce_stores', 'commerce_store_id'],
    ['store_dimensions_daily', 'commerce_stores', 'commerce_store_id']
  ];
  t text[];
  args text;
BEGIN
  FOREACH t SLICE 1 IN ARRAY watched LOOP
    args := CASE WHEN t[2] = '' THEN '' ELSE format('%L, %L', t[2], t[3]) END;
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "data_versions_bump"(%s)', t[1] || '_data_version_on_insert', t[1], args);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "data_versions_bump"(%s)', t[1] || '_data_version_on_update', t[1], args);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "data_versions_bump"(%s)', t[1] || '_data_version_on_delete', t[1], args);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION "data_versions_bump_all"()', t[1] || '_data_version_on_truncate', t[1]);
  END LOOP;
END $$;
