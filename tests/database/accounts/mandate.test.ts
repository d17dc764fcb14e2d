// The sandbox's revoked mandate (company numbers ending 0009; docs/sandbox.md, "Payments"): `mandate.revoked`
// fires once, before the first collection, with the mandate as its object; every later collection fails
// `mandate_cancelled` without firing it again; and a payment link, which needs no mandate, still pays.
import { beforeEach, describe, expect, it } from "vitest";
import { runDueServicing } from "@/lib/accounts/servicing";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { createPaymentLink } from "@/lib/accounts/payment-links";
import { recordBankAnswer } from "@/lib/accounts/payment-settlement";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../../helpers/partner";
import { fundedAccount } from "./helpers";
import { tenantNow } from "@/lib/tenant-clock";

const OPENED = "2029-05-20T12:00:00.000Z";

let project: ProjectCredentials;
let tenant: Tenant;
let clock: ReturnType<typeof freezeClock>;

beforeEach(async () => {
  clock = freezeClock(OPENED);
  project = await createTestProject();
  tenant = { projectId: project.project_id, environment: "sandbox" };
});

async function eventsOfType(type: string) {
  return db().event.findMany({ where: { projectId: project.project_id, type }, orderBy: { id: "asc" } });
}

describe("a mandate revoked at the bank", () => {
  it("fires mandate.revoked once, with the mandate, and fails every collection mandate_cancelled", async () => {
    const account = await fundedAccount(tenant, { companyNumber: "12340009", termMonths: 3 });
    clock.set("2029-06-20T06:00:00.000Z");
    await runDueServicing({ tenant, now: await tenantNow(tenant) });
    clock.set("2029-07-20T06:00:00.000Z");
    await runDueServicing({ tenant, now: await tenantNow(tenant) });

    const revoked = await eventsOfType("mandate.revoked");
    expect(revoked).toHaveLength(1);
    expect(revoked[0]!.createdAt.toISOString()).toBe("2029-06-20T06:00:00.000Z");
    expect(revoked[0]!.object).toEqual({
      id: account.mandateId,
      object: "mandate",
      livemode: false,
      account_id: account.id,
      scheme: "bacs_direct_debit",
      status: "revoked",
      reference: account.reference,
      created_at: account.createdAt.toISOString(),
      revoked_at: "2029-06-20T06:00:00.000Z",
    });
    const collections = await db().payment.findMany({ where: { accountId: account.id, type: "collection" }, orderBy: { id: "asc" } });
    expect(collections.map((payment) => [payment.status, payment.failureCode])).toEqual([
      ["failed", "mandate_cancelled"],
      ["failed", "mandate_cancelled"],
    ]);
    const failed = await eventsOfType("payment.failed");
    expect(failed.map((event) => (event.object as { failure_code: string }).failure_code)).toEqual(["mandate_cancelled", "mandate_cancelled"]);
    expect(await db().account.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({ status: "in_arrears", mandateStatus: "revoked" });

    // A payment link needs no mandate: the borrower pays the arrears by bank.
    const arrears = (await db().instalment.findMany({ where: { accountId: account.id, status: "missed" } })).reduce((sum, instalment) => sum + instalment.amountPence, 0);
    const link = await db().$transaction(async (transaction) => createPaymentLink({ tenant, now: await tenantNow(tenant), input: { account_id: account.id, amount_pence: arrears }, transaction }));
    await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: link.id, answer: { outcome: "settled" } });
    expect(await db().account.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({ status: "performing", mandateStatus: "revoked" });
  });

  it("is the sandbox's rule only: a live account ending 0009 keeps its mandate", async () => {
    const account = await fundedAccount(tenant, { companyNumber: "12340009", termMonths: 3 });
    await db().account.update({ where: { id: account.id }, data: { environment: "live" } });
    clock.set("2029-06-20T06:00:00.000Z");
    await runDueServicing({ tenant: { ...tenant, environment: "live" } , now: await tenantNow({ ...tenant, environment: "live" })});
    expect(await eventsOfType("mandate.revoked")).toEqual([]);
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).mandateStatus).toBe("active");
  });
});
