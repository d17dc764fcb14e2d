// Migration 20261221090000_journey_loan_step gives the loan a page of its own ("Your loan", docs/hosted-journey.md):
// a journey whose company was confirmed before then gave its loan on the same page, so the migration marks its loan
// given and it resumes where it was. Its UPDATE is run again here over journeys made as they were before it, and
// only over them: other files' journeys share the database.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { createApplication } from "@/lib/applications/create";
import { db } from "@/lib/db";
import { openJourney } from "@/lib/journey/journey";
import type { Tenant } from "@/lib/tenant";
import { tenantNow } from "@/lib/tenant-clock";
import { createTestProject } from "../helpers/partner";

const migration = readFileSync("prisma/migrations/20261221090000_journey_loan_step/migration.sql", "utf8");
const backfill = /^UPDATE "application_journeys" SET "loan_confirmed_at"[\s\S]*?;$/m.exec(migration)?.[0];

async function journeyOf(tenant: Tenant, companyConfirmedAt: Date | null): Promise<string> {
  const application = await createApplication({ tenant, now: await tenantNow(tenant), input: { business: { company_number: "12990042" }, amount_pence: 2_500_000, term_months: 12 } });
  const { handoffToken } = await db().application.findUniqueOrThrow({ where: { id: application.id } });
  await openJourney(handoffToken);
  await db().applicationJourney.update({ where: { applicationId: application.id }, data: { companyConfirmedAt, loanConfirmedAt: null } });
  return handoffToken;
}

it("marks the loan given on journeys whose company was confirmed before, so they resume past it, and on no other", async () => {
  expect(backfill).toBeDefined();
  const tenant: Tenant = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
  const confirmedAt = new Date("2026-12-01T10:00:00.000Z");
  const underWay = await journeyOf(tenant, confirmedAt);
  const notStarted = await journeyOf(tenant, null);
  expect((await openJourney(underWay))!.current).toBe("loan");

  const ours = (await db().application.findMany({ where: { handoffToken: { in: [underWay, notStarted] } } })).map((application) => application.id);
  await db().$executeRawUnsafe(backfill!.replace(/;$/, ' AND "application_id" = ANY($1::text[])'), ours);

  const underWayJourney = (await openJourney(underWay))!;
  expect(underWayJourney.journey.loanConfirmedAt).toEqual(confirmedAt);
  expect(underWayJourney.current).toBe("about-you");
  const notStartedJourney = (await openJourney(notStarted))!;
  expect(notStartedJourney.journey.loanConfirmedAt).toBeNull();
  expect(notStartedJourney.current).toBe("company");
});
