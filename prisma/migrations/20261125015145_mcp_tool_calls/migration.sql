-- CreateTable
CREATE TABLE "mcp_tool_calls" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "api_key_id" UUID,
    "grant_id" TEXT,
    "tool" TEXT NOT NULL,
    "arguments_hash" TEXT NOT NULL,
    "rows" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_tool_calls_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "mcp_tool_calls_org_id_created_at_idx" ON "mcp_tool_calls"("org_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "mcp_tool_calls_api_key_id_idx" ON "mcp_tool_calls"("api_key_id");

-- CreateIndex
CREATE INDEX "mcp_tool_calls_grant_id_idx" ON "mcp_tool_calls"("grant_id");

-- CreateIndex
CREATE INDEX "mcp_tool_calls_created_at_idx" ON "mcp_tool_calls"("created_at");

-- AddForeignKey
ALTER TABLE "mcp_tool_calls" ADD CONSTRAINT "mcp_tool_calls_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mcp_tool_calls" ADD CONSTRAINT "mcp_tool_calls_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

