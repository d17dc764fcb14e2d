-- A declared annual turnover may be up to £1bn (100,000,000,000 pence), beyond an INTEGER's range.
-- AlterTable
ALTER TABLE "applications" ALTER COLUMN "declared_annual_turnover_pence" SET DATA TYPE BIGINT;
