-- The beta partner constructs (docs/beta.md): sub-accounts, the introductions made through them and the monthly
-- payouts of their revenue share. A project's master rate defaults to 100 basis points (1% of principal funded).
ALTER TABLE "projects" ADD COLUMN "revenue_share_bps" INTEGER NOT NULL DEFAULT 100;
ALTER TABLE "applications" ADD COLUMN "sub_account_id" TEXT;

CREATE TYPE "IntroductionStage" AS ENUM ('started', 'decisioned', 'funded', 'declined');
CREATE TYPE "PayoutStatus" AS ENUM ('pending', 'paid');

CREATE TABLE "sub_accounts" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "name" TEXT NOT NULL,
    "revenue_share_bps" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sub_accounts_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "sub_accounts_project_id_environment_id_idx" ON "sub_accounts"("project_id", "environment", "id");
ALTER TABLE "sub_accounts" ADD CONSTRAINT "sub_accounts_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "payouts" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "sub_account_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "status" "PayoutStatus" NOT NULL,
    "gross_pence" BIGINT NOT NULL,
    "introduction_count" INTEGER NOT NULL,
    "paid_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payouts_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "payouts_project_id_environment_id_idx" ON "payouts"("project_id", "environment", "id");
CREATE INDEX "payouts_project_id_environment_sub_account_id_id_idx" ON "payouts"("project_id", "environment", "sub_account_id", "id");
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_sub_account_id_fkey" FOREIGN KEY ("sub_account_id") REFERENCES "sub_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "introductions" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "sub_account_id" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "stage" "IntroductionStage" NOT NULL,
    "account_id" TEXT,
    "revenue_share_bps" INTEGER NOT NULL,
    "principal_pence" INTEGER,
    "share_pence" INTEGER,
    "payout_id" TEXT,
    "introduced_at" TIMESTAMPTZ(3) NOT NULL,
    "funded_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "introductions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "introductions_application_id_key" ON "introductions"("application_id");
CREATE INDEX "introductions_project_id_environment_id_idx" ON "introductions"("project_id", "environment", "id");
CREATE INDEX "introductions_project_id_environment_stage_id_idx" ON "introductions"("project_id", "environment", "stage", "id");
CREATE INDEX "introductions_project_id_environment_sub_account_id_id_idx" ON "introductions"("project_id", "environment", "sub_account_id", "id");
CREATE INDEX "introductions_sub_account_id_payout_id_funded_at_idx" ON "introductions"("sub_account_id", "payout_id", "funded_at");
CREATE INDEX "introductions_payout_id_id_idx" ON "introductions"("payout_id", "id");
ALTER TABLE "introductions" ADD CONSTRAINT "introductions_sub_account_id_fkey" FOREIGN KEY ("sub_account_id") REFERENCES "sub_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "introductions" ADD CONSTRAINT "introductions_payout_id_fkey" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
