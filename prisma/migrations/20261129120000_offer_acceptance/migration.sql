-- The offer's acceptance on its decision: when the borrower accepted (funding) and the name typed to sign it.
-- AlterTable
ALTER TABLE "decisions" ADD COLUMN "accepted_at" TIMESTAMPTZ(3),
ADD COLUMN "signatory_name" TEXT;
