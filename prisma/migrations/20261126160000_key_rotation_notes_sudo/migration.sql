-- Key rotation: a rotated key keeps working until `retires_at`, and its successor names it in
-- `rotated_from_id`. One successor per key (the unique index): a key being retired cannot be rotated
-- again into a second, forked successor.
ALTER TABLE "api_keys" ADD COLUMN "retires_at" TIMESTAMPTZ(3),
                       ADD COLUMN "rotated_from_id" UUID,
                       ADD COLUMN "note" TEXT;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_rotated_from_id_fkey"
  FOREIGN KEY ("rotated_from_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE UNIQUE INDEX "api_keys_rotated_from_id_key" ON "api_keys"("rotated_from_id");

-- Sudo mode: when the session's person last proved the password. Sessions opened before this
-- migration were proved when they began.
ALTER TABLE "dashboard_sessions" ADD COLUMN "authenticated_at" TIMESTAMPTZ(3);
UPDATE "dashboard_sessions" SET "authenticated_at" = "created_at";
ALTER TABLE "dashboard_sessions" ALTER COLUMN "authenticated_at" SET NOT NULL,
                                 ALTER COLUMN "authenticated_at" SET DEFAULT CURRENT_TIMESTAMP;
