-- Application consents (docs/white-label.md): the applicant's agreement to each consent text, by version, as the
-- white-label API or the hosted journey records it. Submission needs every required type.

-- CreateEnum
CREATE TYPE "ConsentType" AS ENUM ('credit_search', 'data_sharing', 'terms');

-- CreateEnum
CREATE TYPE "ConsentSource" AS ENUM ('api', 'hosted');

-- CreateTable
CREATE TABLE "application_consents" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "application_id" TEXT NOT NULL,
    "type" "ConsentType" NOT NULL,
    "text_version" TEXT NOT NULL,
    "source" "ConsentSource" NOT NULL,
    "granted_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "application_consents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "application_consents_application_id_type_text_version_key" ON "application_consents"("application_id", "type", "text_version");

-- CreateIndex
CREATE INDEX "application_consents_project_id_environment_id_idx" ON "application_consents"("project_id", "environment", "id");

-- AddForeignKey
ALTER TABLE "application_consents" ADD CONSTRAINT "application_consents_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;
