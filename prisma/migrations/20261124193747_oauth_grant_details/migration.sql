-- AlterTable
ALTER TABLE "oauth_payloads" ADD COLUMN     "client_name" TEXT,
ADD COLUMN     "last_used_at" TIMESTAMPTZ(3);

