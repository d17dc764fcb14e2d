// The moves the test helpers, the hosted journey, the seed and the CLI make on an application (submit, expire,
// fund, resolve a referral) act for a Tenant under the one tenancy rule (lib/tenant.ts): another project's
// application or decision is unknown, the other environment's is refused, and neither is moved.
import { beforeAll, describe, expect, it } from "vitest";
import { fundApplication } from "@/lib/accounts/funding";
import { createApplication } from "@/lib/applications/create";
import { expireApplicationNow, submitApplication } from "@/lib/applications/service";
import { db } from "@/lib/db";
import { resolveReferral } from "@/lib/decisions/service";
import { decideOnItsClock } from "@/lib/decisions/background";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../../helpers/partner";
import { tenantNow } from "@/lib/tenant-clock";

let tenant: Tenant;
let live: Tenant;
let stranger: Tenant;

beforeAll(async () => {
  tenant = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
  live = { ...tenant, environment: "live" };
  stranger = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
});

/** A sandbox application, taken as far as `until`: created, or submitted and decided by the sandbox engine. */
async function application(companyNumber: string, until: "created" | "decided"): Promise<string> {
  const created = await createApplication({
    tenant, now: await tenantNow(tenant),
    input: { business: { company_number: companyNumber }, amount_pence: 1_000_000, term_months: 12, applicant: { email: "director@example.co.uk" } },
  });
  if (until === "decided") {
    await submitApplication({ tenant, now: await tenantNow(tenant), id: created.id, declaredAnnualTurnoverPence: 100_000_000, queueDecisioning: false });
    await decideOnItsClock(created.id);
  }
  return created.id;
}

const statusOf = async (id: string) => (await db().application.findUniqueOrThrow({ where: { id } })).status;

describe("an application's moves", () => {
  it("submit and expire refuse the other environment's application and another project's, and leave it created", async () => {
    const id = await application("12340001", "created");
    await expect(submitApplication({ tenant: live, now: await tenantNow(live), id, queueDecisioning: false })).rejects.toMatchObject({ code: "environment_mismatch" });
    await expect(submitApplication({ tenant: stranger, now: await tenantNow(stranger), id, queueDecisioning: false })).rejects.toMatchObject({ code: "not_found" });
    await expect(expireApplicationNow({ tenant: live, now: await tenantNow(live), id })).rejects.toMatchObject({ code: "environment_mismatch" });
    await expect(expireApplicationNow({ tenant: stranger, now: await tenantNow(stranger), id })).rejects.toMatchObject({ code: "not_found" });
    expect(await statusOf(id)).toBe("created");
  });

  it("fund refuses the other environment's approved application and another project's, and leaves it approved", async () => {
    const id = await application("12340042", "decided");
    expect(await statusOf(id)).toBe("approved");
    await expect(fundApplication({ tenant: live, now: await tenantNow(live), applicationId: id })).rejects.toMatchObject({ code: "environment_mismatch" });
    await expect(fundApplication({ tenant: stranger, now: await tenantNow(stranger), applicationId: id })).rejects.toMatchObject({ code: "not_found" });
    expect(await statusOf(id)).toBe("approved");
  });

  it("resolving a referral refuses the other environment's decision and another project's, and leaves it in review", async () => {
    const id = await application("12340006", "decided");
    const { id: decisionId } = await db().decision.findUniqueOrThrow({ where: { applicationId: id } });
    expect(await statusOf(id)).toBe("in_review");
    await expect(resolveReferral({ tenant: live, now: await tenantNow(live), decisionId, outcome: "approved" })).rejects.toMatchObject({ code: "environment_mismatch" });
    await expect(resolveReferral({ tenant: stranger, now: await tenantNow(stranger), decisionId, outcome: "approved" })).rejects.toMatchObject({ code: "not_found" });
    expect(await statusOf(id)).toBe("in_review");
    expect(await resolveReferral({ decisionId, now: await tenantNow(tenant), outcome: "approved" })).toMatchObject({ outcome: "approved" });
  });
});
