-- CreateTable
CREATE TABLE "request_log" (
    "id" BIGSERIAL NOT NULL,
    "org_id" UUID NOT NULL,
    "api_key_id" UUID,
    "grant_id" TEXT,
    "oauth_client_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "tool" TEXT,
    "status" SMALLINT NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "client_address" TEXT,
    "rate_remaining" INTEGER,
    "rate_limited" BOOLEAN NOT NULL,
    "request_id" UUID NOT NULL,

    CONSTRAINT "request_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "request_counts_daily" (
    "org_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "subject" TEXT NOT NULL,
    "oauth_client_id" TEXT,
    "endpoint" TEXT NOT NULL,
    "status_class" TEXT NOT NULL,
    "requests" INTEGER NOT NULL,

    CONSTRAINT "request_counts_daily_pkey" PRIMARY KEY ("org_id","day","subject","endpoint","status_class")
);

-- CreateIndex
CREATE INDEX "request_log_org_id_created_at_id_idx" ON "request_log"("org_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "request_log_api_key_id_created_at_id_idx" ON "request_log"("api_key_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "request_log_grant_id_created_at_id_idx" ON "request_log"("grant_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "request_log_org_id_oauth_client_id_created_at_id_idx" ON "request_log"("org_id", "oauth_client_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "request_log_request_id_idx" ON "request_log"("request_id");

-- CreateIndex
CREATE INDEX "request_log_created_at_idx" ON "request_log"("created_at");

-- CreateIndex
CREATE INDEX "request_counts_daily_subject_day_idx" ON "request_counts_daily"("subject", "day");

-- CreateIndex
CREATE INDEX "request_counts_daily_org_id_oauth_client_id_day_idx" ON "request_counts_daily"("org_id", "oauth_client_id", "day");

-- CreateIndex
CREATE INDEX "request_counts_daily_day_idx" ON "request_counts_daily"("day");

-- AddForeignKey
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "request_counts_daily" ADD CONSTRAINT "request_counts_daily_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

