-- Servicing accounts (spec 2.4, 2.6): funding opens an account with its schedule, a payment moves money, and
-- a settled payment posts to the account's ledger. Applications gain their product and their account's id.

-- CreateEnum
CREATE TYPE "ApplicationProduct" AS ENUM ('business_loan', 'flex');

-- CreateEnum
CREATE TYPE "AccountProduct" AS ENUM ('business_term_loan', 'flex_facility');

-- CreateEnum
CREATE TYPE "AccountStatus" AS ENUM ('performing', 'in_arrears', 'forborne', 'settled', 'closed');

-- CreateEnum
CREATE TYPE "MandateStatus" AS ENUM ('active', 'revoked');

-- CreateEnum
CREATE TYPE "InstalmentStatus" AS ENUM ('scheduled', 'paid', 'missed', 'partially_paid');

-- CreateEnum
CREATE TYPE "PaymentType" AS ENUM ('disbursement', 'collection', 'payment_link', 'refund');

-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('provisioned', 'pending', 'settled', 'failed');

-- CreateEnum
CREATE TYPE "PaymentFailureCode" AS ENUM ('bank_rejected', 'disputed_by_customer', 'insufficient_funds', 'mandate_cancelled', 'technical_error');

-- CreateEnum
CREATE TYPE "LedgerTransactionType" AS ENUM ('collection', 'drawdown', 'refund', 'adjustment');

-- AlterTable
ALTER TABLE "applications" ADD COLUMN     "account_id" TEXT,
ADD COLUMN     "product" "ApplicationProduct" NOT NULL DEFAULT 'business_loan';

-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "application_id" TEXT NOT NULL,
    "status" "AccountStatus" NOT NULL,
    "product" "AccountProduct" NOT NULL,
    "company_number" TEXT NOT NULL,
    "company_name" TEXT NOT NULL,
    "principal_pence" INTEGER NOT NULL,
    "credit_limit_pence" INTEGER,
    "term_months" INTEGER NOT NULL,
    "apr_bps" INTEGER NOT NULL,
    "sub_account_id" TEXT,
    "reference" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "opened_on" TEXT NOT NULL,
    "disbursed_at" TIMESTAMPTZ(3),
    "principal_outstanding_pence" INTEGER NOT NULL,
    "interest_accrued_pence" INTEGER NOT NULL,
    "fees_outstanding_pence" INTEGER NOT NULL DEFAULT 0,
    "interest_accrued_through" TEXT NOT NULL,
    "next_due_on" TEXT,
    "mandate_id" TEXT NOT NULL,
    "mandate_status" "MandateStatus" NOT NULL DEFAULT 'active',
    "mandate_revoked_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "instalments" (
    "account_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "due_date" TEXT NOT NULL,
    "principal_pence" INTEGER NOT NULL,
    "interest_pence" INTEGER NOT NULL,
    "amount_pence" INTEGER NOT NULL,
    "paid_pence" INTEGER NOT NULL DEFAULT 0,
    "status" "InstalmentStatus" NOT NULL DEFAULT 'scheduled',

    CONSTRAINT "instalments_pkey" PRIMARY KEY ("account_id","number")
);

-- CreateTable
CREATE TABLE "payments" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "account_id" TEXT,
    "type" "PaymentType" NOT NULL,
    "status" "PaymentStatus" NOT NULL,
    "failure_code" "PaymentFailureCode",
    "amount_pence" INTEGER NOT NULL,
    "reference" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "settled_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_transactions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "type" "LedgerTransactionType" NOT NULL,
    "amount_pence" INTEGER NOT NULL,
    "payment_id" TEXT,
    "posted_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ledger_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_application_id_key" ON "accounts"("application_id");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_mandate_id_key" ON "accounts"("mandate_id");

-- CreateIndex
CREATE INDEX "accounts_project_id_environment_id_idx" ON "accounts"("project_id", "environment", "id");

-- CreateIndex
CREATE INDEX "accounts_project_id_environment_status_id_idx" ON "accounts"("project_id", "environment", "status", "id");

-- CreateIndex
CREATE INDEX "accounts_project_id_environment_sub_account_id_id_idx" ON "accounts"("project_id", "environment", "sub_account_id", "id");

-- CreateIndex
CREATE INDEX "accounts_next_due_on_idx" ON "accounts"("next_due_on");

-- CreateIndex
CREATE INDEX "instalments_status_due_date_idx" ON "instalments"("status", "due_date");

-- CreateIndex
CREATE INDEX "payments_project_id_environment_id_idx" ON "payments"("project_id", "environment", "id");

-- CreateIndex
CREATE INDEX "payments_project_id_environment_status_id_idx" ON "payments"("project_id", "environment", "status", "id");

-- CreateIndex
CREATE INDEX "payments_account_id_id_idx" ON "payments"("account_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_transactions_payment_id_key" ON "ledger_transactions"("payment_id");

-- CreateIndex
CREATE INDEX "ledger_transactions_account_id_id_idx" ON "ledger_transactions"("account_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "applications_account_id_key" ON "applications"("account_id");

-- AddForeignKey
ALTER TABLE "instalments" ADD CONSTRAINT "instalments_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- The ledger is immutable (spec 2.4): rows are only ever inserted. Enforced here too, so no code path, CLI or
-- operator's psql can rewrite an account's history; a correction is a new `adjustment` row.
CREATE FUNCTION refuse_ledger_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_transactions is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER ledger_transactions_append_only
  BEFORE UPDATE OR DELETE ON "ledger_transactions"
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();

CREATE TRIGGER ledger_transactions_no_truncate
  BEFORE TRUNCATE ON "ledger_transactions"
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();
