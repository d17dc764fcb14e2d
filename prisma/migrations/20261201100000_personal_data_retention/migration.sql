-- Retention of applicants' personal data (docs/reliability.md): when an application ended, in real time, and
-- when its personal data was erased. The hourly maintenance finds what is due by the index: not yet erased,
-- ended before the cutoff.
ALTER TABLE "applications" ADD COLUMN "ended_at" TIMESTAMPTZ(3);
ALTER TABLE "applications" ADD COLUMN "personal_data_erased_at" TIMESTAMPTZ(3);

-- Applications that ended before this: their last change (a sandbox's may be stamped ahead by its test clock,
-- so never later than now), and for funded ones their account's closing.
UPDATE "applications" SET "ended_at" = LEAST("updated_at", now())
  WHERE "status" IN ('declined', 'expired', 'withdrawn');
UPDATE "applications" AS a SET "ended_at" = LEAST(acc."closed_at", now())
  FROM "accounts" AS acc
  WHERE acc."application_id" = a."id" AND a."status" = 'funded' AND acc."closed_at" IS NOT NULL;

CREATE INDEX "applications_personal_data_erased_at_ended_at_idx" ON "applications"("personal_data_erased_at", "ended_at");
