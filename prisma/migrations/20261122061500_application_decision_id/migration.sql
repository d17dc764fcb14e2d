-- The decision's id on its application, so reads of an application need no second query.
ALTER TABLE "applications" ADD COLUMN "decision_id" TEXT;

UPDATE "applications" AS a SET "decision_id" = d."id" FROM "decisions" AS d WHERE d."application_id" = a."id";

CREATE UNIQUE INDEX "applications_decision_id_key" ON "applications"("decision_id");
