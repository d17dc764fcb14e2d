-- CreateEnum
CREATE TYPE "ApplicationStatus" AS ENUM ('created', 'submitted', 'in_review', 'approved', 'declined', 'funded', 'withdrawn', 'expired');

-- CreateEnum
CREATE TYPE "ApplicationPurpose" AS ENUM ('working_capital', 'asset_finance', 'expansion', 'refinance', 'stock');

-- CreateEnum
CREATE TYPE "CompanyKind" AS ENUM ('private_limited_company', 'llp');

-- CreateEnum
CREATE TYPE "DecisionOutcome" AS ENUM ('approved', 'declined', 'referred');

-- CreateTable
CREATE TABLE "applications" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "status" "ApplicationStatus" NOT NULL,
    "company_number" TEXT NOT NULL,
    "company_name" TEXT NOT NULL,
    "company_kind" "CompanyKind" NOT NULL,
    "incorporated_on" TEXT NOT NULL,
    "amount_pence" INTEGER NOT NULL,
    "term_months" INTEGER NOT NULL,
    "purpose" "ApplicationPurpose",
    "reference" TEXT,
    "applicant_email" TEXT,
    "applicant_first_name" TEXT,
    "redirect_uri" TEXT,
    "introduction_id" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "handoff_token" TEXT NOT NULL,
    "declared_annual_turnover_pence" INTEGER,
    "consented_at" TIMESTAMPTZ(3),
    "submitted_at" TIMESTAMPTZ(3),
    "withdrawn_at" TIMESTAMPTZ(3),
    "withdrawal_reason" TEXT,
    "funded_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "applications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "decisions" (
    "id" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "outcome" "DecisionOutcome" NOT NULL,
    "approved_amount_pence" INTEGER NOT NULL,
    "apr_bps" INTEGER NOT NULL,
    "reasons" TEXT[],
    "conditions" JSONB NOT NULL DEFAULT '[]',
    "offer_terms" JSONB,
    "decided_by" TEXT NOT NULL,
    "locked_at" TIMESTAMPTZ(3),
    "locked_by" TEXT,
    "decided_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "decisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "type" TEXT NOT NULL,
    "api_version" TEXT NOT NULL,
    "object" JSON NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "applications_handoff_token_key" ON "applications"("handoff_token");

-- CreateIndex
CREATE INDEX "applications_project_id_environment_id_idx" ON "applications"("project_id", "environment", "id");

-- CreateIndex
CREATE INDEX "applications_project_id_environment_status_id_idx" ON "applications"("project_id", "environment", "status", "id");

-- CreateIndex
CREATE INDEX "applications_project_id_environment_reference_id_idx" ON "applications"("project_id", "environment", "reference", "id");

-- CreateIndex
CREATE INDEX "applications_status_expires_at_idx" ON "applications"("status", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "decisions_application_id_key" ON "decisions"("application_id");

-- CreateIndex
CREATE INDEX "decisions_project_id_environment_id_idx" ON "decisions"("project_id", "environment", "id");

-- CreateIndex
CREATE INDEX "events_project_id_environment_id_idx" ON "events"("project_id", "environment", "id");

-- CreateIndex
CREATE INDEX "events_project_id_environment_type_id_idx" ON "events"("project_id", "environment", "type", "id");

-- CreateIndex
CREATE INDEX "events_created_at_idx" ON "events"("created_at");

-- AddForeignKey
ALTER TABLE "applications" ADD CONSTRAINT "applications_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
