// Forbearance agreed until a date (lib/accounts/forbearance.ts, servicing.ts): the daily servicing run ends the
// arrangement on its end date, before collecting anything due that day, and the account goes back to
// `performing` (or on to `in_arrears` when arrears remain); by hand, it ends at once. Far in the future, so other
// files' real-clock sweeps never meet these rows.
import { beforeEach, describe, expect, it } from "vitest";
import { agreeForbearance, endForbearance } from "@/lib/accounts/service";
import { runDueServicing } from "@/lib/accounts/servicing";
import { serviceOnItsClock } from "@/lib/accounts/background";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../../helpers/partner";
import { fundedAccount } from "./helpers";
import { tenantNow } from "@/lib/tenant-clock";

const OPENED = "2028-01-10T12:00:00.000Z";

let project: ProjectCredentials;
let tenant: Tenant;
let clock: ReturnType<typeof freezeClock>;

beforeEach(async () => {
  clock = freezeClock(OPENED);
  project = await createTestProject();
  tenant = { projectId: project.project_id, environment: "sandbox" };
});

async function statusEvents(since: number) {
  const events = await db().event.findMany({ where: { projectId: project.project_id }, orderBy: { id: "asc" }, skip: since });
  return events.map((event) => [event.type, (event.object as { status?: string }).status, event.createdAt.toISOString()]);
}

describe("an arrangement until a date", () => {
  it("lasts through a failed collection, then ends on its day into arrears, before that day's collection", async () => {
    // 0008: every collection fails insufficient_funds.
    const account = await fundedAccount(tenant, { companyNumber: "12340008", termMonths: 6 });
    const forborne = await agreeForbearance({ tenant, now: await tenantNow(tenant), id: account.id, until: "2028-03-10" });
    expect(forborne).toMatchObject({ status: "forborne", forborneUntil: "2028-03-10" });

    clock.set("2028-02-10T06:00:00.000Z");
    await runDueServicing({ tenant, now: await tenantNow(tenant) });
    expect(await db().account.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({ status: "forborne", forborneUntil: "2028-03-10" });

    const before = await db().event.count({ where: { projectId: project.project_id } });
    clock.set("2028-03-10T06:00:00.000Z");
    await runDueServicing({ tenant, now: await tenantNow(tenant) });
    const now = await db().account.findUniqueOrThrow({ where: { id: account.id } });
    expect(now).toMatchObject({ status: "in_arrears", forborneUntil: null });
    // The arrangement ends first (performing, then in arrears for February), then March's collection fails.
    expect(await statusEvents(before)).toEqual([
      ["account.updated", "performing", "2028-03-10T06:00:00.000Z"],
      ["account.updated", "in_arrears", "2028-03-10T06:00:00.000Z"],
      ["payment.created", "pending", "2028-03-10T06:00:00.000Z"],
      ["payment.failed", "failed", "2028-03-10T06:00:00.000Z"],
    ]);
  });

  it("ends on a day with nothing due, back to performing when nothing is in arrears", async () => {
    const account = await fundedAccount(tenant, { termMonths: 6 });
    await agreeForbearance({ tenant, now: await tenantNow(tenant), id: account.id, until: "2028-01-20" });
    clock.set("2028-01-19T06:00:00.000Z");
    expect(await serviceOnItsClock(account.id)).toBe("nothing_due");
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).status).toBe("forborne");
    clock.set("2028-01-20T06:00:00.000Z");
    expect(await runDueServicing({ tenant, now: await tenantNow(tenant) })).toEqual({ serviced: 0 });
    const ended = await db().account.findUniqueOrThrow({ where: { id: account.id } });
    expect(ended).toMatchObject({ status: "performing", forborneUntil: null, nextDueOn: "2028-02-10" });
    const event = await db().event.findFirstOrThrow({ where: { projectId: project.project_id, type: "account.updated" }, orderBy: { id: "desc" } });
    expect(event.object).toMatchObject({ id: account.id, status: "performing", forborne_until: null });
    expect(await serviceOnItsClock(account.id)).toBe("nothing_due");
  });

  it("is refused unless it ends after today", async () => {
    const account = await fundedAccount(tenant);
    for (const until of ["2028-01-10", "2028-01-09"]) {
      const error = await agreeForbearance({ tenant, now: await tenantNow(tenant), id: account.id, until }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).detail).toEqual([{ field: "until", reason: "not_in_future", message: "An arrangement ends after today (2028-01-10)." }]);
    }
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).status).toBe("performing");
  });

  it("ends at once by hand, forgetting its date", async () => {
    const account = await fundedAccount(tenant);
    await agreeForbearance({ tenant, now: await tenantNow(tenant), id: account.id, until: "2028-06-01" });
    expect(await endForbearance({ tenant, now: await tenantNow(tenant), id: account.id })).toMatchObject({ status: "performing", forborneUntil: null });
  });
});
