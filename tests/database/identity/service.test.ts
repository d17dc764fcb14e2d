// The identity service as the hosted journey and the decision engine call it, without HTTP: the check and its
// event belong to the caller's transaction (opened once the provider has answered), and latestIdentityCheckFor
// finds an application's newest check; identityOfNamedPeople gives the live engine each named person's newest result.
import { describe, expect, it } from "vitest";
import { createApplication } from "@/lib/applications/create";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { withDeferredTransaction } from "@/lib/deferred-transaction";
import { identityOfNamedPeople, latestIdentityCheckFor, runIdentityCheck } from "@/lib/identity/service";
import { openJourney } from "@/lib/journey/journey";
import type { IdentityPerson } from "@/lib/identity/schemas";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../../helpers/partner";
import { verificationEventOf } from "../../helpers/identity";
import { tenantNow } from "@/lib/tenant-clock";

const ADA: IdentityPerson = { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1985-12-10", role: "director" };
const REVIEWED: IdentityPerson = { first_name: "Alan", last_name: "Review", date_of_birth: "1982-06-23", role: "psc" };

async function sandboxApplication(): Promise<{ tenant: Tenant; applicationId: string }> {
  const project = await createTestProject();
  const tenant: Tenant = { projectId: project.project_id, environment: "sandbox" };
  const application = await createApplication({
    tenant, now: await tenantNow(tenant),
    input: { business: { company_number: "12345678" }, amount_pence: 500_000, term_months: 12, applicant: { email: "director@example.co.uk" } },
  });
  return { tenant, applicationId: application.id };
}

class RolledBack extends Error {}

describe("runIdentityCheck", () => {
  it("writes nothing when the caller's transaction rolls back: neither the check nor its event", async () => {
    const { tenant, applicationId } = await sandboxApplication();
    let checked: { id: string } | undefined;
    await expect(
      withDeferredTransaction(async (deferred) => {
        checked = await runIdentityCheck({ tenant, now: await tenantNow(tenant), applicationId, people: [ADA], transaction: deferred });
        expect(await (await deferred.open()).identityCheck.count({ where: { id: checked.id } })).toBe(1);
        throw new RolledBack();
      }),
    ).rejects.toBeInstanceOf(RolledBack);
    expect(checked?.id).toMatch(/^idv_/);
    expect(await db().identityCheck.count({ where: { applicationId } })).toBe(0);
    expect(await db().event.count({ where: { projectId: tenant.projectId, type: { startsWith: "identity." } } })).toBe(0);
  });

  it("commits the check with its event", async () => {
    const { tenant, applicationId } = await sandboxApplication();
    const check = await withDeferredTransaction(async (transaction) => runIdentityCheck({ tenant, now: await tenantNow(tenant), applicationId, people: [REVIEWED], transaction }));
    const [event] = await db().event.findMany({ where: { projectId: tenant.projectId, type: { startsWith: "identity." } } });
    expect(event).toMatchObject({ type: "identity.review_required", object: verificationEventOf(check) });
  });
});

describe("latestIdentityCheckFor", () => {
  it("is null for an application without checks, and the newest check otherwise", async () => {
    const { tenant, applicationId } = await sandboxApplication();
    expect(await latestIdentityCheckFor(applicationId)).toBeNull();
    const clock = freezeClock("2027-08-01T09:00:00.000Z");
    const first = await withDeferredTransaction(async (transaction) => runIdentityCheck({ tenant, now: await tenantNow(tenant), applicationId, people: [REVIEWED], transaction }));
    clock.advance(60_000);
    const second = await withDeferredTransaction(async (transaction) => runIdentityCheck({ tenant, now: await tenantNow(tenant), applicationId, people: [ADA], transaction }));
    expect(await latestIdentityCheckFor(applicationId)).toEqual(second);
    expect(second).toMatchObject({ status: "verified", created_at: "2027-08-01T09:01:00.000Z" });
    expect(first.status).toBe("review_required");

    const other = await sandboxApplication();
    expect(await latestIdentityCheckFor(other.applicationId)).toBeNull();
  });

  it("reads inside a transaction it is given", async () => {
    const { tenant, applicationId } = await sandboxApplication();
    await withDeferredTransaction(async (deferred) => {
      const check = await runIdentityCheck({ tenant, now: await tenantNow(tenant), applicationId, people: [ADA], transaction: deferred });
      expect(await latestIdentityCheckFor(applicationId, await deferred.open())).toEqual(check);
      expect(await latestIdentityCheckFor(applicationId)).toBeNull();
    });
  });
});

describe("identityOfNamedPeople", () => {
  it("gives each person the journey or any check named the newest result that named them, and null to one never checked", async () => {
    const { tenant, applicationId } = await sandboxApplication();
    expect(await identityOfNamedPeople(applicationId, [])).toEqual([]);
    const clock = freezeClock("2027-08-02T09:00:00.000Z");
    await withDeferredTransaction(async (transaction) => runIdentityCheck({ tenant, now: await tenantNow(tenant), applicationId, people: [ADA, REVIEWED], transaction }));
    clock.advance(60_000);
    await withDeferredTransaction(async (transaction) => runIdentityCheck({ tenant, now: await tenantNow(tenant), applicationId, people: [ADA], transaction }));
    // As the journey keeps them: the applicant as typed (case and spaces aside, the same person) and a director no check named.
    const { handoffToken } = await db().application.findUniqueOrThrow({ where: { id: applicationId } });
    await openJourney(handoffToken);
    const journeyPeople = [
      { first_name: " ADA ", last_name: "lovelace", date_of_birth: ADA.date_of_birth, role: "director" },
      { first_name: "Grace", last_name: "Hopper", date_of_birth: "1976-12-09", role: "director" },
    ];
    await db().applicationJourney.update({ where: { applicationId }, data: { people: journeyPeople } });
    expect(await identityOfNamedPeople(applicationId, journeyPeople)).toEqual(["verified", null, "review_required"]);
  });

  it("names no one by a check whose people were erased to their roles and results", async () => {
    const { tenant, applicationId } = await sandboxApplication();
    const check = await withDeferredTransaction(async (transaction) => runIdentityCheck({ tenant, now: await tenantNow(tenant), applicationId, people: [ADA, REVIEWED], transaction }));
    await db().identityCheck.update({ where: { id: check.id }, data: { people: [{ role: "director", result: "verified" }, { role: "psc", result: "review_required" }] } });
    expect(await identityOfNamedPeople(applicationId, [])).toEqual([]);
  });
});
