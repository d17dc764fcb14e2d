-- Idempotency-Key records no longer keep the secret a create or roll showed once (spec 5.1: only a hash is
-- stored; lib/http/idempotent-handler.ts leaves out the fields an endpoint declares in `secretFields`). This
-- drops it from the records written before, which would otherwise keep full secrets for up to 24 hours. Only
-- successes carried one, always as the top-level `secret` (POST /keys, /keys/{id}/roll, /webhook_endpoints).
UPDATE "idempotency_keys"
SET "response_body" = ("response_body"::jsonb - 'secret')::json
WHERE "status" = 'completed' AND "response_status" < 400 AND "response_body"::jsonb ? 'secret';
