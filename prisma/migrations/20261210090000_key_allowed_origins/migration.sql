-- A publishable key's allowed origins (docs/apply-js.md, "Which pages may use a key"): empty means any origin, as
-- before, so existing keys keep working unchanged.
ALTER TABLE "api_keys" ADD COLUMN "allowed_origins" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
