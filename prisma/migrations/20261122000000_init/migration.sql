-- CreateEnum
CREATE TYPE "Role" AS ENUM ('admin', 'member');

-- CreateEnum
CREATE TYPE "SyncSource" AS ENUM ('ads', 'social', 'analytics', 'search_console', 'store');

-- CreateEnum
CREATE TYPE "SyncStatus" AS ENUM ('running', 'succeeded', 'failed');

-- CreateEnum
CREATE TYPE "AdLevel" AS ENUM ('account', 'campaign', 'adset', 'ad');

-- CreateEnum
CREATE TYPE "AccountBreakdown" AS ENUM ('age_gender', 'platform', 'placement');

-- CreateEnum
CREATE TYPE "EntityBreakdown" AS ENUM ('age_gender', 'device', 'platform', 'placement', 'region');

-- CreateEnum
CREATE TYPE "SocialPlatform" AS ENUM ('facebook', 'instagram');

-- CreateEnum
CREATE TYPE "AnalyticsDimension" AS ENUM ('channel', 'source', 'landing_page', 'organic_landing_page', 'page', 'event', 'device', 'country', 'new_returning');

-- CreateEnum
CREATE TYPE "SearchDimension" AS ENUM ('query', 'page', 'country', 'device', 'search_appearance');

-- CreateEnum
CREATE TYPE "StoreDimension" AS ENUM ('product', 'channel', 'referrer', 'country', 'discount');

-- CreateTable
CREATE TABLE "organizations" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memberships" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "Role" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "member_client_access" (
    "membership_id" UUID NOT NULL,
    "client_id" UUID NOT NULL,

    CONSTRAINT "member_client_access_pkey" PRIMARY KEY ("membership_id","client_id")
);

-- CreateTable
CREATE TABLE "clients" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sync_runs" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "source" "SyncSource" NOT NULL,
    "resource_id" UUID NOT NULL,
    "status" "SyncStatus" NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),
    "error" TEXT,

    CONSTRAINT "sync_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ad_accounts" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "client_id" UUID,
    "platform_account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "currency" TEXT,
    "timezone" TEXT,
    "balance" DECIMAL(14,2),
    "spend_cap" DECIMAL(14,2),
    "amount_spent" DECIMAL(14,2),
    "low_balance_threshold" DECIMAL(14,2),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ad_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaigns" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "platform_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "objective" TEXT,
    "status" TEXT,
    "effective_status" TEXT,
    "result_type" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaigns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ad_sets" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "platform_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT,
    "effective_status" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ad_sets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ads" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "ad_set_id" UUID NOT NULL,
    "platform_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT,
    "effective_status" TEXT,
    "thumbnail_url" TEXT,
    "image_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ad_insights_daily" (
    "org_id" UUID NOT NULL,
    "level" "AdLevel" NOT NULL,
    "entity_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "campaign_id" UUID,
    "ad_set_id" UUID,
    "ad_id" UUID,
    "date" DATE NOT NULL,
    "spend" DECIMAL(14,2) NOT NULL,
    "impressions" BIGINT NOT NULL,
    "reach" BIGINT NOT NULL,
    "clicks" BIGINT NOT NULL,
    "link_clicks" BIGINT NOT NULL,
    "results" BIGINT,
    "result_type" TEXT,
    "video_views" BIGINT,
    "video_3s_views" BIGINT,
    "thruplays" BIGINT,
    "video_p25" BIGINT,
    "video_p50" BIGINT,
    "video_p75" BIGINT,
    "video_p100" BIGINT,
    "purchase_value" DECIMAL(14,2),

    CONSTRAINT "ad_insights_daily_pkey" PRIMARY KEY ("level","entity_id","date")
);

-- CreateTable
CREATE TABLE "ad_account_breakdowns_daily" (
    "org_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "breakdown" "AccountBreakdown" NOT NULL,
    "date" DATE NOT NULL,
    "key1" TEXT NOT NULL,
    "key2" TEXT NOT NULL,
    "spend" DECIMAL(14,2) NOT NULL,
    "impressions" BIGINT NOT NULL,
    "clicks" BIGINT NOT NULL,
    "reach" BIGINT NOT NULL,

    CONSTRAINT "ad_account_breakdowns_daily_pkey" PRIMARY KEY ("account_id","breakdown","date","key1","key2")
);

-- CreateTable
CREATE TABLE "ad_breakdown_cache" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "level" "AdLevel" NOT NULL,
    "entity_id" UUID NOT NULL,
    "date_from" DATE NOT NULL,
    "date_to" DATE NOT NULL,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ad_breakdown_cache_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ad_breakdown_cache_rows" (
    "cache_id" UUID NOT NULL,
    "breakdown" "EntityBreakdown" NOT NULL,
    "key1" TEXT NOT NULL,
    "key2" TEXT NOT NULL,
    "spend" DECIMAL(14,2) NOT NULL,
    "impressions" BIGINT NOT NULL,
    "clicks" BIGINT NOT NULL,
    "reach" BIGINT NOT NULL,

    CONSTRAINT "ad_breakdown_cache_rows_pkey" PRIMARY KEY ("cache_id","breakdown","key1","key2")
);

-- CreateTable
CREATE TABLE "social_pages" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "client_id" UUID,
    "page_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "ig_user_id" TEXT,
    "ig_username" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "social_pages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "social_daily" (
    "social_page_id" UUID NOT NULL,
    "platform" "SocialPlatform" NOT NULL,
    "date" DATE NOT NULL,
    "reach" BIGINT,
    "impressions" BIGINT,
    "views" BIGINT,
    "profile_views" BIGINT,
    "interactions" BIGINT,
    "new_follows" BIGINT,
    "followers" BIGINT,

    CONSTRAINT "social_daily_pkey" PRIMARY KEY ("social_page_id","platform","date")
);

-- CreateTable
CREATE TABLE "social_posts" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "social_page_id" UUID NOT NULL,
    "platform" "SocialPlatform" NOT NULL,
    "post_id" TEXT NOT NULL,
    "caption" TEXT,
    "media_type" TEXT,
    "permalink" TEXT,
    "thumbnail_href" TEXT,
    "published_at" TIMESTAMPTZ(3) NOT NULL,
    "likes" BIGINT,
    "comments" BIGINT,
    "shares" BIGINT,
    "saves" BIGINT,
    "views" BIGINT,
    "reach" BIGINT,
    "impressions" BIGINT,
    "engagement_rate" DOUBLE PRECISION,

    CONSTRAINT "social_posts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "social_post_thumbnails" (
    "post_id" UUID NOT NULL,
    "content_type" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "sha256" TEXT NOT NULL,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "social_post_thumbnails_pkey" PRIMARY KEY ("post_id")
);

-- CreateTable
CREATE TABLE "analytics_properties" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "client_id" UUID,
    "property_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "timezone" TEXT,
    "currency" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "analytics_properties_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "analytics_daily" (
    "analytics_property_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "sessions" BIGINT,
    "total_users" BIGINT,
    "active_users" BIGINT,
    "new_users" BIGINT,
    "engaged_sessions" BIGINT,
    "screen_page_views" BIGINT,
    "event_count" BIGINT,
    "key_events" BIGINT,
    "total_revenue" DECIMAL(14,2),
    "purchase_revenue" DECIMAL(14,2),
    "transactions" BIGINT,
    "ecommerce_purchases" BIGINT,
    "user_engagement_duration" BIGINT,
    "session_duration_weighted" DOUBLE PRECISION,

    CONSTRAINT "analytics_daily_pkey" PRIMARY KEY ("analytics_property_id","date")
);

-- CreateTable
CREATE TABLE "analytics_dimensions_daily" (
    "analytics_property_id" UUID NOT NULL,
    "dimension" "AnalyticsDimension" NOT NULL,
    "date" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "detail" TEXT,
    "sessions" BIGINT,
    "total_users" BIGINT,
    "active_users" BIGINT,
    "new_users" BIGINT,
    "engaged_sessions" BIGINT,
    "screen_page_views" BIGINT,
    "event_count" BIGINT,
    "key_events" BIGINT,
    "total_revenue" DECIMAL(14,2),
    "purchase_revenue" DECIMAL(14,2),
    "transactions" BIGINT,
    "ecommerce_purchases" BIGINT,
    "user_engagement_duration" BIGINT,
    "session_duration_weighted" DOUBLE PRECISION,

    CONSTRAINT "analytics_dimensions_daily_pkey" PRIMARY KEY ("analytics_property_id","dimension","date","key")
);

-- CreateTable
CREATE TABLE "search_console_sites" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "client_id" UUID,
    "site_url" TEXT NOT NULL,
    "timezone" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "search_console_sites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "search_console_daily" (
    "search_console_site_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "clicks" BIGINT NOT NULL,
    "impressions" BIGINT NOT NULL,
    "position" DOUBLE PRECISION,

    CONSTRAINT "search_console_daily_pkey" PRIMARY KEY ("search_console_site_id","date")
);

-- CreateTable
CREATE TABLE "search_console_dimensions_daily" (
    "search_console_site_id" UUID NOT NULL,
    "dimension" "SearchDimension" NOT NULL,
    "date" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "clicks" BIGINT NOT NULL,
    "impressions" BIGINT NOT NULL,
    "position" DOUBLE PRECISION,

    CONSTRAINT "search_console_dimensions_daily_pkey" PRIMARY KEY ("search_console_site_id","dimension","date","key")
);

-- CreateTable
CREATE TABLE "commerce_stores" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "client_id" UUID,
    "shop_domain" TEXT NOT NULL,
    "name" TEXT,
    "currency" TEXT,
    "timezone" TEXT,
    "has_all_orders_scope" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "commerce_stores_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "store_daily" (
    "commerce_store_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "gross_sales" DECIMAL(14,2),
    "discounts" DECIMAL(14,2),
    "returns" DECIMAL(14,2),
    "net_sales" DECIMAL(14,2),
    "shipping" DECIMAL(14,2),
    "taxes" DECIMAL(14,2),
    "duties" DECIMAL(14,2),
    "tips" DECIMAL(14,2),
    "total_sales" DECIMAL(14,2),
    "orders" BIGINT,
    "cancelled_orders" BIGINT,
    "refunded_orders" BIGINT,
    "units_sold" BIGINT,
    "customers" BIGINT,
    "new_customers" BIGINT,
    "returning_customers" BIGINT,

    CONSTRAINT "store_daily_pkey" PRIMARY KEY ("commerce_store_id","date")
);

-- CreateTable
CREATE TABLE "store_dimensions_daily" (
    "commerce_store_id" UUID NOT NULL,
    "dimension" "StoreDimension" NOT NULL,
    "date" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "detail" TEXT,
    "gross_sales" DECIMAL(14,2),
    "discounts" DECIMAL(14,2),
    "returns" DECIMAL(14,2),
    "net_sales" DECIMAL(14,2),
    "shipping" DECIMAL(14,2),
    "taxes" DECIMAL(14,2),
    "duties" DECIMAL(14,2),
    "tips" DECIMAL(14,2),
    "total_sales" DECIMAL(14,2),
    "orders" BIGINT,
    "cancelled_orders" BIGINT,
    "refunded_orders" BIGINT,
    "units_sold" BIGINT,
    "customers" BIGINT,
    "new_customers" BIGINT,
    "returning_customers" BIGINT,

    CONSTRAINT "store_dimensions_daily_pkey" PRIMARY KEY ("commerce_store_id","dimension","date","key")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" TEXT[],
    "restricted_to_clients" BOOLEAN NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_by_id" UUID,
    "revoked_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key_clients" (
    "api_key_id" UUID NOT NULL,
    "client_id" UUID NOT NULL,

    CONSTRAINT "api_key_clients_pkey" PRIMARY KEY ("api_key_id","client_id")
);

-- CreateTable
CREATE TABLE "dashboard_sessions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dashboard_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "actor_id" UUID,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "details" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_payloads" (
    "model" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" TEXT,
    "user_code" TEXT,
    "uid" TEXT,
    "account_id" TEXT,
    "org_id" UUID,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_payloads_pkey" PRIMARY KEY ("model","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "organizations_slug_key" ON "organizations"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "memberships_user_id_idx" ON "memberships"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "memberships_org_id_user_id_key" ON "memberships"("org_id", "user_id");

-- CreateIndex
CREATE INDEX "member_client_access_client_id_idx" ON "member_client_access"("client_id");

-- CreateIndex
CREATE INDEX "clients_org_id_name_idx" ON "clients"("org_id", "name");

-- CreateIndex
CREATE INDEX "sync_runs_resource_id_status_finished_at_idx" ON "sync_runs"("resource_id", "status", "finished_at" DESC);

-- CreateIndex
CREATE INDEX "sync_runs_org_id_source_idx" ON "sync_runs"("org_id", "source");

-- CreateIndex
CREATE INDEX "ad_accounts_org_id_client_id_idx" ON "ad_accounts"("org_id", "client_id");

-- CreateIndex
CREATE INDEX "ad_accounts_client_id_idx" ON "ad_accounts"("client_id");

-- CreateIndex
CREATE UNIQUE INDEX "ad_accounts_org_id_platform_account_id_key" ON "ad_accounts"("org_id", "platform_account_id");

-- CreateIndex
CREATE INDEX "campaigns_account_id_idx" ON "campaigns"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "campaigns_org_id_platform_id_key" ON "campaigns"("org_id", "platform_id");

-- CreateIndex
CREATE INDEX "ad_sets_campaign_id_idx" ON "ad_sets"("campaign_id");

-- CreateIndex
CREATE INDEX "ad_sets_account_id_idx" ON "ad_sets"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "ad_sets_org_id_platform_id_key" ON "ad_sets"("org_id", "platform_id");

-- CreateIndex
CREATE INDEX "ads_ad_set_id_idx" ON "ads"("ad_set_id");

-- CreateIndex
CREATE INDEX "ads_campaign_id_idx" ON "ads"("campaign_id");

-- CreateIndex
CREATE INDEX "ads_account_id_idx" ON "ads"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "ads_org_id_platform_id_key" ON "ads"("org_id", "platform_id");

-- CreateIndex
CREATE INDEX "ad_insights_daily_org_id_level_date_idx" ON "ad_insights_daily"("org_id", "level", "date");

-- CreateIndex
CREATE INDEX "ad_insights_daily_account_id_level_date_idx" ON "ad_insights_daily"("account_id", "level", "date");

-- CreateIndex
CREATE INDEX "ad_account_breakdowns_daily_org_id_breakdown_date_idx" ON "ad_account_breakdowns_daily"("org_id", "breakdown", "date");

-- CreateIndex
CREATE INDEX "ad_breakdown_cache_org_id_idx" ON "ad_breakdown_cache"("org_id");

-- CreateIndex
CREATE UNIQUE INDEX "ad_breakdown_cache_level_entity_id_date_from_date_to_key" ON "ad_breakdown_cache"("level", "entity_id", "date_from", "date_to");

-- CreateIndex
CREATE INDEX "social_pages_org_id_client_id_idx" ON "social_pages"("org_id", "client_id");

-- CreateIndex
CREATE UNIQUE INDEX "social_pages_org_id_page_id_key" ON "social_pages"("org_id", "page_id");

-- CreateIndex
CREATE INDEX "social_posts_org_id_published_at_idx" ON "social_posts"("org_id", "published_at" DESC);

-- CreateIndex
CREATE INDEX "social_posts_social_page_id_published_at_idx" ON "social_posts"("social_page_id", "published_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "social_posts_social_page_id_platform_post_id_key" ON "social_posts"("social_page_id", "platform", "post_id");

-- CreateIndex
CREATE INDEX "analytics_properties_org_id_client_id_idx" ON "analytics_properties"("org_id", "client_id");

-- CreateIndex
CREATE UNIQUE INDEX "analytics_properties_org_id_property_id_key" ON "analytics_properties"("org_id", "property_id");

-- CreateIndex
CREATE INDEX "search_console_sites_org_id_client_id_idx" ON "search_console_sites"("org_id", "client_id");

-- CreateIndex
CREATE UNIQUE INDEX "search_console_sites_org_id_site_url_key" ON "search_console_sites"("org_id", "site_url");

-- CreateIndex
CREATE INDEX "commerce_stores_org_id_client_id_idx" ON "commerce_stores"("org_id", "client_id");

-- CreateIndex
CREATE UNIQUE INDEX "commerce_stores_org_id_shop_domain_key" ON "commerce_stores"("org_id", "shop_domain");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_org_id_created_at_idx" ON "api_keys"("org_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "api_key_clients_client_id_idx" ON "api_key_clients"("client_id");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_sessions_token_hash_key" ON "dashboard_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "dashboard_sessions_user_id_idx" ON "dashboard_sessions"("user_id");

-- CreateIndex
CREATE INDEX "audit_events_org_id_created_at_idx" ON "audit_events"("org_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "audit_events_target_type_target_id_idx" ON "audit_events"("target_type", "target_id");

-- CreateIndex
CREATE INDEX "oauth_payloads_grant_id_idx" ON "oauth_payloads"("grant_id");

-- CreateIndex
CREATE INDEX "oauth_payloads_uid_idx" ON "oauth_payloads"("uid");

-- CreateIndex
CREATE INDEX "oauth_payloads_user_code_idx" ON "oauth_payloads"("user_code");

-- CreateIndex
CREATE INDEX "oauth_payloads_account_id_model_idx" ON "oauth_payloads"("account_id", "model");

-- CreateIndex
CREATE INDEX "oauth_payloads_expires_at_idx" ON "oauth_payloads"("expires_at");

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "member_client_access" ADD CONSTRAINT "member_client_access_membership_id_fkey" FOREIGN KEY ("membership_id") REFERENCES "memberships"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "member_client_access" ADD CONSTRAINT "member_client_access_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clients" ADD CONSTRAINT "clients_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ad_accounts" ADD CONSTRAINT "ad_accounts_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ad_accounts" ADD CONSTRAINT "ad_accounts_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "ad_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ad_sets" ADD CONSTRAINT "ad_sets_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ads" ADD CONSTRAINT "ads_ad_set_id_fkey" FOREIGN KEY ("ad_set_id") REFERENCES "ad_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ad_breakdown_cache_rows" ADD CONSTRAINT "ad_breakdown_cache_rows_cache_id_fkey" FOREIGN KEY ("cache_id") REFERENCES "ad_breakdown_cache"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "social_pages" ADD CONSTRAINT "social_pages_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "social_pages" ADD CONSTRAINT "social_pages_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "social_daily" ADD CONSTRAINT "social_daily_social_page_id_fkey" FOREIGN KEY ("social_page_id") REFERENCES "social_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "social_posts" ADD CONSTRAINT "social_posts_social_page_id_fkey" FOREIGN KEY ("social_page_id") REFERENCES "social_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "social_post_thumbnails" ADD CONSTRAINT "social_post_thumbnails_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "social_posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "analytics_properties" ADD CONSTRAINT "analytics_properties_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "analytics_properties" ADD CONSTRAINT "analytics_properties_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "analytics_daily" ADD CONSTRAINT "analytics_daily_analytics_property_id_fkey" FOREIGN KEY ("analytics_property_id") REFERENCES "analytics_properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "analytics_dimensions_daily" ADD CONSTRAINT "analytics_dimensions_daily_analytics_property_id_fkey" FOREIGN KEY ("analytics_property_id") REFERENCES "analytics_properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_console_sites" ADD CONSTRAINT "search_console_sites_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_console_sites" ADD CONSTRAINT "search_console_sites_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_console_daily" ADD CONSTRAINT "search_console_daily_search_console_site_id_fkey" FOREIGN KEY ("search_console_site_id") REFERENCES "search_console_sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_console_dimensions_daily" ADD CONSTRAINT "search_console_dimensions_daily_search_console_site_id_fkey" FOREIGN KEY ("search_console_site_id") REFERENCES "search_console_sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "commerce_stores" ADD CONSTRAINT "commerce_stores_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "commerce_stores" ADD CONSTRAINT "commerce_stores_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "store_daily" ADD CONSTRAINT "store_daily_commerce_store_id_fkey" FOREIGN KEY ("commerce_store_id") REFERENCES "commerce_stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "store_dimensions_daily" ADD CONSTRAINT "store_dimensions_daily_commerce_store_id_fkey" FOREIGN KEY ("commerce_store_id") REFERENCES "commerce_stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_revoked_by_id_fkey" FOREIGN KEY ("revoked_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key_clients" ADD CONSTRAINT "api_key_clients_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key_clients" ADD CONSTRAINT "api_key_clients_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

