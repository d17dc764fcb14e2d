-- Signing keys the platform generates are sealed under OAUTH_KEY_ENCRYPTION_KEY when one is configured (a key
-- kept in the clear is sealed in place the first time a process with the encryption key loads it), and every
-- change to them reaches every app process through the change feed, so a rotation needs no restart.
ALTER TABLE "oauth_signing_keys" ALTER COLUMN "private_jwk" DROP NOT NULL;
ALTER TABLE "oauth_signing_keys" ADD COLUMN "sealed_private_jwk" TEXT;
ALTER TABLE "oauth_signing_keys" ADD CONSTRAINT "oauth_signing_keys_private_part"
  CHECK ("private_jwk" IS NOT NULL OR "sealed_private_jwk" IS NOT NULL);

CREATE TRIGGER oauth_signing_keys_cached_row_change
  AFTER INSERT OR UPDATE OR DELETE ON oauth_signing_keys
  FOR EACH ROW EXECUTE FUNCTION notify_cached_row_change();
