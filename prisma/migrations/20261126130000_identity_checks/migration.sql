-- Identity checks (spec 4.4) and project capabilities: `white_label` unlocks the identity endpoints (spec 1),
-- `beta` is kept for the beta constructs (spec 2.5).

-- AlterTable
ALTER TABLE "projects" ADD COLUMN "capabilities" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- Reading identity checks takes the new scope `identity:read`; projects already trusted to run them may read
-- them too (new projects are granted every scope when created).
UPDATE "projects" SET "scopes" = array_append("scopes", 'identity:read')
WHERE 'identity:write' = ANY("scopes") AND NOT 'identity:read' = ANY("scopes");

-- CreateEnum
CREATE TYPE "IdentityCheckStatus" AS ENUM ('verified', 'review_required');

-- CreateTable
CREATE TABLE "identity_checks" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "application_id" TEXT NOT NULL,
    "status" "IdentityCheckStatus" NOT NULL,
    "people" JSONB NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_reference" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "identity_checks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "identity_checks_application_id_id_idx" ON "identity_checks"("application_id", "id");

-- CreateIndex
CREATE INDEX "identity_checks_project_id_environment_id_idx" ON "identity_checks"("project_id", "environment", "id");

-- AddForeignKey
ALTER TABLE "identity_checks" ADD CONSTRAINT "identity_checks_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;
