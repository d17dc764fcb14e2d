// The background operations on each project's time (lib/tenant-clock.ts): the scheduler's expiry and collection
// sweeps find an advanced sandbox's rows due on that sandbox's clock, stamp them with it, and leave the same
// project's live rows and other projects on real time. The clock's offset is set directly here, as if advanced
// with nothing run, so what the scheduler does is all that happens.
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { createApplication } from "@/lib/applications/create";
import { countExpiredApplications, findExpiredApplications } from "@/lib/applications/service";
import { expireOnItsClock } from "@/lib/applications/background";
import { countAccountsDue, findAccountsDue } from "@/lib/accounts/servicing";
import { serviceOnItsClock } from "@/lib/accounts/background";
import { DAY_MS, freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { forgetProjectState } from "@/lib/projects/project-state";
import { tenantNow } from "@/lib/tenant-clock";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../helpers/partner";
import { fundedAccount } from "./accounts/helpers";

const T0 = new Date("2027-03-10T09:00:00.000Z");
const EVERYTHING = 100_000;
const at = (days: number) => new Date(T0.getTime() + days * DAY_MS);

let sandbox: Tenant;
let live: Tenant;

beforeEach(async () => {
  freezeClock(T0);
  const project = await createTestProject();
  sandbox = { projectId: project.project_id, environment: "sandbox" };
  live = { projectId: project.project_id, environment: "live" };
});

async function setOffset(projectId: string, offsetDays: number) {
  await db().sandboxClock.upsert({ where: { projectId }, create: { projectId, offsetDays, targetOffsetDays: offsetDays, createdAt: T0, updatedAt: T0 }, update: { offsetDays, targetOffsetDays: offsetDays } });
  forgetProjectState(projectId);
}

async function newApplication(tenant: Tenant) {
  return createApplication({ tenant, now: await tenantNow(tenant), input: { business: { company_number: "12345678" }, amount_pence: 1_000_000, term_months: 12, applicant: { email: "director@example.co.uk" } } });
}

describe("a tenant's clock", () => {
  it("is real time in live and for a sandbox never advanced, and real time plus the offset once advanced", async () => {
    expect(await tenantNow(sandbox)).toEqual(T0);
    await setOffset(sandbox.projectId, 40);
    expect(await tenantNow(sandbox)).toEqual(at(40));
    expect(await tenantNow(live)).toEqual(T0);
    // An offset the request's admission already read is used as it is, with no lookup.
    expect(await tenantNow({ ...sandbox, sandboxClockOffsetDays: 3 })).toEqual(at(3));
  });
});

describe("the expiry sweep", () => {
  it("expires an advanced sandbox's application on the sandbox's time, and leaves the project's live one alone", async () => {
    const sandboxApplication = await newApplication(sandbox);
    const liveApplication = await newApplication(live);
    expect(await findExpiredApplications(EVERYTHING)).not.toContain(sandboxApplication.id);
    const countBefore = await countExpiredApplications();

    await setOffset(sandbox.projectId, 20);
    const due = await findExpiredApplications(EVERYTHING);
    expect(due).toContain(sandboxApplication.id);
    expect(due).not.toContain(liveApplication.id);
    expect(await countExpiredApplications()).toBe(countBefore + 1);

    expect(await expireOnItsClock(liveApplication.id)).toBeNull();
    const expired = await expireOnItsClock(sandboxApplication.id);
    expect(expired).toMatchObject({ status: "expired", updatedAt: at(20), expiresAt: at(14) });
    const event = await db().event.findFirstOrThrow({ where: { type: "application.expired", object: { path: ["id"], equals: sandboxApplication.id } } });
    expect(event.createdAt).toEqual(at(20));
  });
});

describe("the collection sweep", () => {
  it("collects an advanced sandbox's account on the sandbox's today, stamped with its time", async () => {
    const account = await fundedAccount(sandbox, { termMonths: 12 });
    expect(account.nextDueOn).toBe("2027-04-10");
    expect(await findAccountsDue(EVERYTHING)).not.toContain(account.id);
    const countBefore = await countAccountsDue();

    await setOffset(sandbox.projectId, 31);
    expect(await findAccountsDue(EVERYTHING)).toContain(account.id);
    expect(await countAccountsDue()).toBe(countBefore + 1);
    expect(await serviceOnItsClock(account.id)).toBe("collected");

    const [collection] = await db().payment.findMany({ where: { accountId: account.id, type: "collection" } });
    expect(collection).toMatchObject({ status: "settled", createdAt: at(31), settledAt: at(31) });
    const serviced = await db().account.findUniqueOrThrow({ where: { id: account.id } });
    expect(serviced.nextDueOn).toBe("2027-05-10");
    expect(await findAccountsDue(EVERYTHING)).not.toContain(account.id);
  });

  it("leaves another project's account on real time", async () => {
    const other = await createTestProject();
    const otherTenant: Tenant = { projectId: other.project_id, environment: "sandbox" };
    const account = await fundedAccount(otherTenant, { termMonths: 12 });
    await setOffset(sandbox.projectId, 60);
    expect(await findAccountsDue(EVERYTHING)).not.toContain(account.id);
    expect(await serviceOnItsClock(account.id)).toBe("nothing_due");
  });
});

describe("what a clock's change announces", () => {
  it("announces its project when the offset moves, and nothing when only an advance's lease is renewed", async () => {
    await setOffset(sandbox.projectId, 0);
    const listener = new pg.Client({ connectionString: config().DATABASE_URL });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (message) => {
      if (message.payload === `projects:${sandbox.projectId}`) heard.push(message.payload);
    });
    try {
      await listener.query("LISTEN cached_row_changes");
      const where = { projectId: sandbox.projectId };
      await db().sandboxClock.update({ where, data: { targetOffsetDays: 2, advanceLeaseUntil: at(0) } });
      await db().sandboxClock.update({ where, data: { advanceLeaseUntil: at(1) } });
      // A round trip on the listening connection delivers whatever was announced before it.
      await listener.query("SELECT 1");
      expect(heard).toEqual([]);
      await db().sandboxClock.update({ where, data: { offsetDays: 1 } });
      await listener.query("SELECT 1");
      expect(heard).toEqual([`projects:${sandbox.projectId}`]);
    } finally {
      await listener.end();
    }
  });
});
