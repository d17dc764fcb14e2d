-- Identity checks per application per day are capped (docs/identity.md, "How many checks"): each call to the
-- provider is recorded here, under the application's row lock, before it is made.

-- CreateTable
CREATE TABLE "identity_check_attempts" (
    "id" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "identity_check_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "identity_check_attempts_application_id_attempted_at_idx" ON "identity_check_attempts"("application_id", "attempted_at");

-- AddForeignKey
ALTER TABLE "identity_check_attempts" ADD CONSTRAINT "identity_check_attempts_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;
