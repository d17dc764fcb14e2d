-- Companies House's answers by company number (docs/applications.md, "Company lookups"), shared by every app
-- process: a found company for a day, no such company for an hour, so the platform's quota is spent once per
-- company rather than once per application.

-- CreateTable
CREATE TABLE "registry_lookups" (
    "company_number" TEXT NOT NULL,
    "answer" JSONB NOT NULL,
    "looked_up_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "registry_lookups_pkey" PRIMARY KEY ("company_number")
);
