-- Where each API key was minted: the settings page or a command-line program (`npm run key:create`,
-- `npm run demo`), which has no person behind it.

-- CreateEnum
CREATE TYPE "ApiKeyOrigin" AS ENUM ('settings', 'cli');

-- AlterTable: every existing key starts as 'cli' ...
ALTER TABLE "api_keys" ADD COLUMN     "created_via" "ApiKeyOrigin" NOT NULL DEFAULT 'cli';

-- ... except those the settings page minted: it always named their creator and recorded an
-- `api_key.created` event (a key whose creator has left keeps its event).
UPDATE "api_keys" k
   SET "created_via" = 'settings'
 WHERE k."created_by_id" IS NOT NULL
    OR EXISTS (SELECT 1 FROM "audit_events" e
                WHERE e."target_type" = 'api_key' AND e."target_id" = k."id"::text AND e."action" = 'api_key.created');

-- Command-line keys got no creation event until now: give each one, at the key's own creation time
-- and with no actor, so that the settings page's Activity lists every key.
INSERT INTO "audit_events" ("id", "org_id", "actor_id", "action", "target_type", "target_id", "details", "created_at")
SELECT gen_random_uuid(), k."org_id", NULL, 'api_key.created', 'api_key', k."id"::text,
       jsonb_build_object('name', k."name", 'prefix', k."prefix", 'createdVia', 'cli'), k."created_at"
  FROM "api_keys" k
 WHERE k."created_via" = 'cli';
