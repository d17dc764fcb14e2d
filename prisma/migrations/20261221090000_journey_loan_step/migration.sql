-- The hosted journey asks for the loan on a page of its own ("Your loan", after "Your company"). A journey whose
-- company was confirmed before had its loan given on the same page: it keeps its place.
ALTER TABLE "application_journeys" ADD COLUMN "loan_confirmed_at" TIMESTAMPTZ(3);
UPDATE "application_journeys" SET "loan_confirmed_at" = "company_confirmed_at" WHERE "company_confirmed_at" IS NOT NULL;
