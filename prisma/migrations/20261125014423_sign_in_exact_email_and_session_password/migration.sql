-- Sign-in looks an email up with a plain `=` (no pattern, no case folding), so every stored email is
-- made trimmed and lower-case here, as the app normalises what a user types. Two rows that differ only
-- in case or surrounding spaces would become one address: that needs a person to decide, so the
-- migration stops and names it instead of guessing.
DO $$
DECLARE
  clash TEXT;
BEGIN
  SELECT lower(btrim(email)) INTO clash FROM "users" GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
  IF clash IS NOT NULL THEN
    RAISE EXCEPTION 'users: several rows have the email % once trimmed and lower-cased; merge or rename them, then migrate again', clash;
  END IF;
END $$;

UPDATE "users" SET "email" = lower(btrim("email")) WHERE "email" <> lower(btrim("email"));

-- A session records a fingerprint (SHA-256, hex) of its user's password hash; a session whose
-- fingerprint no longer matches ended when the password changed. Sessions that exist now get the
-- fingerprint of the current hash, so nobody is signed out by this migration.
ALTER TABLE "dashboard_sessions" ADD COLUMN     "password_fingerprint" TEXT;

UPDATE "dashboard_sessions" s
   SET "password_fingerprint" = encode(sha256(convert_to(u."password_hash", 'UTF8')), 'hex')
  FROM "users" u
 WHERE u."id" = s."user_id";

ALTER TABLE "dashboard_sessions" ALTER COLUMN "password_fingerprint" SET NOT NULL;
