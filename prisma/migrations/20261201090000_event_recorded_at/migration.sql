-- The real time an event was recorded, beside `created_at` (the tenant's time, ahead of it for an advanced
-- sandbox): the 30-day event retention runs on it. Rows written before it existed take the earlier of the two,
-- so an advanced sandbox's old events fall due now rather than in the sandbox's future.
ALTER TABLE "events" ADD COLUMN "recorded_at" TIMESTAMPTZ(3);
UPDATE "events" SET "recorded_at" = LEAST("created_at", now());
ALTER TABLE "events" ALTER COLUMN "recorded_at" SET NOT NULL;

DROP INDEX "events_created_at_idx";
CREATE INDEX "events_recorded_at_idx" ON "events"("recorded_at");
