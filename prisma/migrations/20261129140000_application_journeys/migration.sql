-- The hosted journey's progress on an application (docs/hosted-journey.md).
CREATE TABLE "application_journeys" (
    "application_id" TEXT NOT NULL,
    "form_token" TEXT NOT NULL,
    "caller_state" TEXT,
    "company_confirmed_at" TIMESTAMPTZ(3),
    "people" JSONB NOT NULL DEFAULT '[]',
    "refusal" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "application_journeys_pkey" PRIMARY KEY ("application_id")
);

ALTER TABLE "application_journeys" ADD CONSTRAINT "application_journeys_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;
