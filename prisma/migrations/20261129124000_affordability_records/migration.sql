-- Affordability records (docs/white-label.md): twelve months of a company's open-banking turnover, sent by a
-- white-label partner or read from the sandbox's simulated bank, for the decision engine's affordability rules.

-- CreateEnum
CREATE TYPE "AffordabilitySource" AS ENUM ('partner', 'sandbox_bank');

-- CreateTable
CREATE TABLE "affordability_records" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "application_id" TEXT NOT NULL,
    "source" "AffordabilitySource" NOT NULL,
    "monthly_turnover_pence" INTEGER[],
    "recorded_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "affordability_records_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "affordability_records_application_id_id_idx" ON "affordability_records"("application_id", "id");

-- CreateIndex
CREATE INDEX "affordability_records_project_id_environment_id_idx" ON "affordability_records"("project_id", "environment", "id");

-- AddForeignKey
ALTER TABLE "affordability_records" ADD CONSTRAINT "affordability_records_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;
