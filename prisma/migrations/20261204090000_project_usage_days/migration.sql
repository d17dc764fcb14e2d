-- Requests per project, environment and UTC day, and the 429s among them (lib/usage/counter.ts adds to each row
-- once per flush). No foreign key: the rows outlive nothing they describe and the flush stays one statement.
CREATE TABLE "project_usage_days" (
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "day" DATE NOT NULL,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "rate_limited" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "project_usage_days_pkey" PRIMARY KEY ("project_id","environment","day")
);

CREATE INDEX "project_usage_days_day_idx" ON "project_usage_days"("day");
