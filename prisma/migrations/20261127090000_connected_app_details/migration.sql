-- Connected app details (issue 34).
--
-- A grant keeps the redirect URIs its client had when the user approved it: a client identified by a
-- metadata document is stored nowhere else (the provider caches the document in memory only).
-- Grants approved before this migration take them from their registered client's row.
ALTER TABLE "oauth_payloads" ADD COLUMN "redirect_uris" TEXT[];

UPDATE "oauth_payloads" g
   SET "redirect_uris" = ARRAY(SELECT jsonb_array_elements_text(c."payload"->'redirect_uris'))
  FROM "oauth_payloads" c
 WHERE g."model" = 'Grant' AND c."model" = 'Client' AND c."id" = g."payload"->>'clientId'
   AND jsonb_typeof(c."payload"->'redirect_uris') = 'array';

-- A tool call keeps the name of the app that made it, so that the activity still names the app once
-- its grant is revoked (and deleted). Earlier calls take it from their grant, or, when the grant is
-- gone, from the audit event that recorded its approval.
ALTER TABLE "mcp_tool_calls" ADD COLUMN "app_name" TEXT;

UPDATE "mcp_tool_calls" c
   SET "app_name" = g."client_name"
  FROM "oauth_payloads" g
 WHERE c."grant_id" IS NOT NULL AND g."model" = 'Grant' AND g."id" = c."grant_id";

UPDATE "mcp_tool_calls" c
   SET "app_name" = e."details"->>'name'
  FROM "audit_events" e
 WHERE c."grant_id" IS NOT NULL AND c."app_name" IS NULL
   AND e."target_type" = 'oauth_grant' AND e."target_id" = c."grant_id" AND e."action" = 'oauth_grant.connected'
   AND c."org_id" = e."org_id";
