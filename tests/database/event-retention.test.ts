// The 30-day event retention runs on real time (docs/architecture.md, "Time"): an advanced sandbox's events carry
// the sandbox's time in `created_at`, weeks or years ahead, yet are deleted 30 days after they were recorded.
// Runs in a database of its own: maintenance deletes across the platform, so its counts here are exact.
import { beforeEach, describe, expect, it } from "vitest";
import { createApplication } from "@/lib/applications/create";
import { withdrawApplication } from "@/lib/applications/service";
import { DAY_MS, freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { EVENT_RETENTION_MS } from "@/lib/events/service";
import { BACKGROUND_OPERATIONS } from "@/lib/background/catalogue";
import type { Pass } from "@/lib/background-operation";
import { forgetProjectState } from "@/lib/projects/project-state";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../helpers/partner";
import { tenantNow } from "@/lib/tenant-clock";


const T0 = new Date("2031-02-01T09:00:00.000Z");
const maintenance = BACKGROUND_OPERATIONS.find((operation): operation is Pass => operation.id === "maintenance")!;

/** The sandbox's clock moved `offsetDays` on and at rest, as a finished advance with nothing due leaves it. */
async function advanceSandboxClock(projectId: string, offsetDays: number) {
  await db().sandboxClock.upsert({ where: { projectId }, create: { projectId, offsetDays, targetOffsetDays: offsetDays, createdAt: T0, updatedAt: T0 }, update: { offsetDays, targetOffsetDays: offsetDays } });
  forgetProjectState(projectId);
}

async function openAndWithdraw(tenant: Tenant): Promise<string> {
  const application = await createApplication({
    tenant, now: await tenantNow(tenant),
    input: { business: { company_number: "12345678" }, amount_pence: 1_000_000, term_months: 12, applicant: { email: "director@example.co.uk" } },
  });
  await withdrawApplication({ tenant, now: await tenantNow(tenant), id: application.id });
  return application.id;
}

async function eventsOf(projectId: string) {
  const rows = await db().event.findMany({ where: { projectId }, orderBy: { id: "asc" }, select: { type: true, object: true, createdAt: true } });
  return rows.map((row) => ({ type: row.type, application: (row.object as { id: string }).id, created_at: row.createdAt.toISOString() }));
}

beforeEach(async () => {
  await db().event.deleteMany();
});

describe("the event retention", () => {
  it("deletes an advanced sandbox's events 30 days after they were recorded, whatever time they carry", async () => {
    const time = freezeClock(T0);
    const project = await createTestProject();
    const sandbox: Tenant = { projectId: project.project_id, environment: "sandbox" };
    const live: Tenant = { projectId: project.project_id, environment: "live" };
    await advanceSandboxClock(sandbox.projectId, 400);
    const advanced = await openAndWithdraw(sandbox);
    const recordedLater = T0.getTime() + DAY_MS;
    time.set(new Date(recordedLater));
    const kept = await openAndWithdraw(live);
    const sandboxTime = new Date(T0.getTime() + 400 * DAY_MS).toISOString();
    expect(await eventsOf(project.project_id)).toEqual([
      { type: "application.created", application: advanced, created_at: sandboxTime },
      { type: "application.withdrawn", application: advanced, created_at: sandboxTime },
      { type: "application.created", application: kept, created_at: new Date(recordedLater).toISOString() },
      { type: "application.withdrawn", application: kept, created_at: new Date(recordedLater).toISOString() },
    ]);

    time.set(new Date(T0.getTime() + EVENT_RETENTION_MS + 1));
    const report = await maintenance.run();

    expect(report).toMatchObject({ eventsPruned: 2 });
    expect((await eventsOf(project.project_id)).map((event) => event.application)).toEqual([kept, kept]);
  });

  it("keeps an event recorded exactly 30 days ago, and deletes it a millisecond later", async () => {
    const time = freezeClock(new Date(T0.getTime() + 2 * DAY_MS));
    const project = await createTestProject();
    const sandbox: Tenant = { projectId: project.project_id, environment: "sandbox" };
    await advanceSandboxClock(sandbox.projectId, 3);
    await openAndWithdraw(sandbox);

    time.advance(EVENT_RETENTION_MS);
    expect(await maintenance.run()).toMatchObject({ eventsPruned: 0 });
    expect(await eventsOf(project.project_id)).toHaveLength(2);

    time.advance(1);
    expect(await maintenance.run()).toMatchObject({ eventsPruned: 2 });
    expect(await eventsOf(project.project_id)).toEqual([]);
  });
});
