// A bank's answer on a payment (lib/accounts/payment-settlement.ts) against the real database: a paid link is applied
// like a collection (arrears oldest first, interest then principal), a link for the payoff settles the account,
// money beyond what is owed is refunded, a failed link leaves the account alone, and nothing but a provisioned
// or pending payment can be answered.
import { beforeEach, describe, expect, it } from "vitest";
import { balanceAsOf } from "@/lib/accounts/allocation";
import { runDueServicing } from "@/lib/accounts/servicing";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { createPaymentLink } from "@/lib/accounts/payment-links";
import { recordBankAnswer } from "@/lib/accounts/payment-settlement";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../../helpers/partner";
import { fundedAccount } from "./helpers";
import { tenantNow } from "@/lib/tenant-clock";

const OPENED = "2030-03-10T12:00:00.000Z";

let project: ProjectCredentials;
let tenant: Tenant;
let clock: ReturnType<typeof freezeClock>;

beforeEach(async () => {
  clock = freezeClock(OPENED);
  project = await createTestProject();
  tenant = { projectId: project.project_id, environment: "sandbox" };
});

async function link(accountId: string, amountPence: number, extra: { reference?: string } = {}) {
  return db().$transaction(async (transaction) => createPaymentLink({ tenant, now: await tenantNow(tenant), input: { account_id: accountId, amount_pence: amountPence, ...extra }, transaction }));
}

async function eventsSince(before: number) {
  return db().event.findMany({ where: { projectId: project.project_id }, orderBy: { id: "asc" }, skip: before });
}

describe("a paid link", () => {
  it("for the payoff settles the account: one collection, balance all zero, account.closed", async () => {
    const account = await fundedAccount(tenant, { amountPence: 1_000_000, termMonths: 3 });
    clock.set("2030-03-20T09:00:00.000Z");
    const payoff = balanceAsOf(account, await db().instalment.findMany({ where: { accountId: account.id } }), "2030-03-20").payoff_pence;
    expect(payoff).toBeGreaterThan(1_000_000);
    const payment = await link(account.id, payoff);
    expect(payment).toMatchObject({ type: "payment_link", status: "provisioned", amount_pence: payoff, account_id: account.id });
    const before = await db().event.count({ where: { projectId: project.project_id } });

    const settled = await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: payment.id, answer: { outcome: "settled" } });
    expect(settled).toMatchObject({ id: payment.id, status: "settled", settled_at: "2030-03-20T09:00:00.000Z", failure_code: null });

    const now = await db().account.findUniqueOrThrow({ where: { id: account.id }, include: { instalments: true } });
    expect(now).toMatchObject({ status: "settled", principalOutstandingPence: 0, interestAccruedPence: 0, feesOutstandingPence: 0, nextDueOn: null });
    expect(balanceAsOf(now, now.instalments, "2030-03-20")).toEqual({ principal_outstanding_pence: 0, interest_accrued_pence: 0, arrears_pence: 0, payoff_pence: 0 });
    expect(now.instalments.every((instalment) => instalment.status === "paid")).toBe(true);
    const ledger = await db().ledgerTransaction.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" } });
    expect(ledger.map((row) => [row.type, row.amountPence, row.paymentId])).toEqual([["drawdown", -1_000_000, expect.any(String)], ["collection", payoff, payment.id]]);

    const events = await eventsSince(before);
    expect(events.map((event) => [event.type, (event.object as { object: string }).object])).toEqual([
      ["payment.settled", "payment"],
      ["account.updated", "account"],
      ["account.closed", "account"],
    ]);
    expect(events[0]!.object).toMatchObject({ id: payment.id, status: "settled", type: "payment_link" });
    expect(events[2]!.object).toMatchObject({ id: account.id, status: "settled", balance: { payoff_pence: 0 } });
  });

  it("for less is applied to arrears oldest first, then interest before principal", async () => {
    const account = await fundedAccount(tenant, { companyNumber: "12340008", amountPence: 1_000_000, termMonths: 3 });
    // 0008 fails every collection: two instalments fall into arrears.
    clock.set("2030-05-10T06:00:00.000Z");
    await runDueServicing({ tenant, now: await tenantNow(tenant) });
    const behind = await db().account.findUniqueOrThrow({ where: { id: account.id }, include: { instalments: { orderBy: { number: "asc" } } } });
    expect(behind.status).toBe("in_arrears");
    const [first, second] = behind.instalments;
    expect([first!.status, second!.status]).toEqual(["missed", "missed"]);

    clock.set("2030-05-12T09:00:00.000Z");
    const before = balanceAsOf(behind, behind.instalments, "2030-05-12");
    const amount = first!.amountPence + 1_000;
    const payment = await link(account.id, amount);
    await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: payment.id, answer: { outcome: "settled" } });

    const now = await db().account.findUniqueOrThrow({ where: { id: account.id }, include: { instalments: { orderBy: { number: "asc" } } } });
    expect(now.instalments.slice(0, 2).map((instalment) => [instalment.status, instalment.paidPence])).toEqual([["paid", first!.amountPence], ["partially_paid", 1_000]]);
    expect(now.status).toBe("in_arrears");
    const after = balanceAsOf(now, now.instalments, "2030-05-12");
    expect(after.arrears_pence).toBe(before.arrears_pence - amount);
    // Interest accrued to today goes first; the rest reduces the principal.
    expect(after.interest_accrued_pence).toBe(0);
    expect(after.principal_outstanding_pence).toBe(before.principal_outstanding_pence - (amount - before.interest_accrued_pence));
    expect(after.payoff_pence).toBe(before.payoff_pence - amount);
  });

  it("refunds what is more than the account owes when it is paid", async () => {
    const account = await fundedAccount(tenant, { amountPence: 1_000_000, termMonths: 3 });
    const payment = await link(account.id, 1_000_000, { reference: "pay-off" });
    // Before the payer pays, the borrower repays most of it another way.
    const other = await link(account.id, 900_000);
    await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: other.id, answer: { outcome: "settled" } });
    const before = await db().event.count({ where: { projectId: project.project_id } });

    await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: payment.id, answer: { outcome: "settled" } });

    const ledger = await db().ledgerTransaction.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" } });
    expect(ledger.slice(1).map((row) => [row.type, row.amountPence])).toEqual([["collection", 900_000], ["collection", 1_000_000], ["refund", -900_000]]);
    const refund = await db().payment.findFirstOrThrow({ where: { accountId: account.id, type: "refund" } });
    expect(refund).toMatchObject({ status: "settled", amountPence: 900_000, reference: "pay-off" });
    expect(ledger.at(-1)!.paymentId).toBe(refund.id);
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).status).toBe("settled");
    expect((await eventsSince(before)).map((event) => event.type)).toEqual(["payment.settled", "payment.created", "payment.settled", "account.updated", "account.closed"]);
  });

  it("on an account settled since is refunded in full, and the account stays settled", async () => {
    const account = await fundedAccount(tenant, { amountPence: 1_000_000, termMonths: 3 });
    const late = await link(account.id, 50_000);
    const full = await link(account.id, 1_000_000);
    await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: full.id, answer: { outcome: "settled" } });
    const before = await db().event.count({ where: { projectId: project.project_id } });

    await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: late.id, answer: { outcome: "settled" } });
    const ledger = await db().ledgerTransaction.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" } });
    expect(ledger.slice(-2).map((row) => [row.type, row.amountPence])).toEqual([["collection", 50_000], ["refund", -50_000]]);
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).status).toBe("settled");
    expect((await eventsSince(before)).map((event) => event.type)).toEqual(["payment.settled", "payment.created", "payment.settled"]);
  });
});

describe("a failed link", () => {
  it("posts nothing and leaves the account and its schedule alone", async () => {
    const account = await fundedAccount(tenant, { amountPence: 1_000_000, termMonths: 3 });
    const payment = await link(account.id, 10_000);
    const before = await db().event.count({ where: { projectId: project.project_id } });
    const failed = await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: payment.id, answer: { outcome: "failed", failureCode: "insufficient_funds" } });
    expect(failed).toMatchObject({ status: "failed", failure_code: "insufficient_funds", settled_at: null });
    expect(await db().ledgerTransaction.count({ where: { accountId: account.id } })).toBe(1);
    const now = await db().account.findUniqueOrThrow({ where: { id: account.id }, include: { instalments: true } });
    expect(now).toMatchObject({ status: "performing", principalOutstandingPence: 1_000_000 });
    expect(now.instalments.every((instalment) => instalment.status === "scheduled")).toBe(true);
    expect((await eventsSince(before)).map((event) => event.type)).toEqual(["payment.failed"]);
  });
});

describe("what can be answered", () => {
  it.each([
    ["settled", "settled"],
    ["settled", "failed"],
    ["failed", "settled"],
    ["failed", "failed"],
  ] as const)("a %s payment cannot be %s again: 409 conflict, nothing written", async (first, second) => {
    const account = await fundedAccount(tenant);
    const payment = await link(account.id, 10_000);
    await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: payment.id, answer: first === "settled" ? { outcome: "settled" } : { outcome: "failed", failureCode: "bank_rejected" } });
    const before = await db().event.count({ where: { projectId: project.project_id } });
    const ledger = await db().ledgerTransaction.count({ where: { accountId: account.id } });
    const error = await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: payment.id, answer: second === "settled" ? { outcome: "settled" } : { outcome: "failed", failureCode: "technical_error" } }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("conflict");
    expect((await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe(first);
    expect(await db().event.count({ where: { projectId: project.project_id } })).toBe(before);
    expect(await db().ledgerTransaction.count({ where: { accountId: account.id } })).toBe(ledger);
  });

  it("settles a pending payment without submitting it again", async () => {
    const account = await fundedAccount(tenant);
    const payment = await link(account.id, 10_000);
    await db().payment.update({ where: { id: payment.id }, data: { status: "pending" } });
    expect(await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: payment.id, answer: { outcome: "settled" } })).toMatchObject({ status: "settled" });
  });

  it("finds only the tenant's payments (another project's 404, the other environment's 401); without a tenant (the operator), any", async () => {
    const account = await fundedAccount(tenant);
    const payment = await link(account.id, 10_000);
    const outsider = { projectId: (await createTestProject()).project_id, environment: "sandbox" as const };
    for (const [other, code] of [[outsider, "not_found"], [{ ...tenant, environment: "live" as const }, "environment_mismatch"]] as const) {
      const error = await recordBankAnswer({ tenant: other, now: await tenantNow(other), id: payment.id, answer: { outcome: "settled" } }).catch((thrown: unknown) => thrown);
      expect((error as ApiError).code).toBe(code);
    }
    expect(await recordBankAnswer({ id: payment.id, now: await tenantNow(tenant), answer: { outcome: "settled" } })).toMatchObject({ status: "settled" });
  });
});
