// Servicing against the real database (lib/accounts/servicing.ts, ledger.ts, service.ts), driven by a frozen
// clock moved from one due date to the next as a test clock would: collections settle or fail by the sandbox's
// company-number rules, the ledger and balance follow each settled collection, and the account's status moves
// with its events. Far in the future, so other files' real-clock sweeps never collect these accounts.
import { beforeEach, describe, expect, it } from "vitest";
import { balanceAsOf } from "@/lib/accounts/allocation";
import { drawDown, agreeForbearance, endForbearance, settleEarly, writeOffAccount } from "@/lib/accounts/service";
import { runDueServicing } from "@/lib/accounts/servicing";
import { serviceOnItsClock } from "@/lib/accounts/background";
import { termLoanSchedule } from "@/lib/accounts/schedule";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../../helpers/partner";
import { fundedAccount } from "./helpers";
import { tenantNow } from "@/lib/tenant-clock";

const OPENED = "2030-01-15T12:00:00.000Z";

let project: ProjectCredentials;
let tenant: Tenant;
let clock: ReturnType<typeof freezeClock>;

beforeEach(async () => {
  clock = freezeClock(OPENED);
  project = await createTestProject();
  tenant = { projectId: project.project_id, environment: "sandbox" };
});

async function state(id: string) {
  const account = await db().account.findUniqueOrThrow({ where: { id }, include: { instalments: { orderBy: { number: "asc" } } } });
  const ledger = await db().ledgerTransaction.findMany({ where: { accountId: id }, orderBy: { id: "asc" } });
  const payments = await db().payment.findMany({ where: { accountId: id }, orderBy: { id: "asc" } });
  return { account, instalments: account.instalments, ledger, payments };
}

async function eventTypes(since = 0): Promise<string[]> {
  return (await db().event.findMany({ where: { projectId: project.project_id }, orderBy: { id: "asc" }, skip: since })).map((event) => event.type);
}

async function serviceOn(date: string) {
  clock.set(`${date}T06:00:00.000Z`);
  return runDueServicing({ tenant, now: await tenantNow(tenant) });
}

describe("a term loan", () => {
  it("collects each instalment on its due date, interest first, and settles on the last", async () => {
    const opened = await fundedAccount(tenant, { amountPence: 1_000_000, termMonths: 3 });
    const schedule = termLoanSchedule({ principalPence: 1_000_000, aprBps: opened.aprBps, termMonths: 3, openedOn: "2030-01-15" });
    expect(await serviceOn("2030-02-14")).toEqual({ serviced: 0 });

    expect(await serviceOn("2030-02-15")).toEqual({ serviced: 1 });
    let now = await state(opened.id);
    expect(now.ledger.map((row) => [row.type, row.amountPence])).toEqual([["drawdown", -1_000_000], ["collection", schedule[0]!.amountPence]]);
    expect(now.payments.map((payment) => [payment.type, payment.status, payment.amountPence])).toEqual([["disbursement", "settled", 1_000_000], ["collection", "settled", schedule[0]!.amountPence]]);
    expect(now.ledger[1]!.paymentId).toBe(now.payments[1]!.id);
    expect(now.account).toMatchObject({ status: "performing", principalOutstandingPence: 1_000_000 - schedule[0]!.principalPence, interestAccruedPence: 0, nextDueOn: "2030-03-15" });
    expect(now.instalments.map((item) => item.status)).toEqual(["paid", "scheduled", "scheduled"]);
    // Running again the same day collects nothing twice.
    expect(await serviceOn("2030-02-15")).toEqual({ serviced: 0 });

    // Two due dates at once (a scheduler that was down): each is collected as of its own day.
    expect(await serviceOn("2030-04-20")).toEqual({ serviced: 1 });
    now = await state(opened.id);
    expect(now.ledger.slice(2).map((row) => row.amountPence)).toEqual([schedule[1]!.amountPence, schedule[2]!.amountPence]);
    expect(now.account).toMatchObject({ status: "settled", principalOutstandingPence: 0, interestAccruedPence: 0, nextDueOn: null });
    expect(balanceAsOf(now.account, now.instalments, "2030-05-01")).toEqual({ principal_outstanding_pence: 0, interest_accrued_pence: 0, arrears_pence: 0, payoff_pence: 0 });
    expect(now.instalments.map((item) => item.status)).toEqual(["paid", "paid", "paid"]);
    expect((await eventTypes()).slice(-4)).toEqual(["payment.created", "payment.settled", "account.updated", "account.closed"]);
  });

  it("falls into arrears when a collection fails for insufficient funds (0008), and clears them on the next", async () => {
    const opened = await fundedAccount(tenant, { companyNumber: "12340008", amountPence: 1_000_000, termMonths: 3 });
    const before = (await eventTypes()).length;
    await serviceOn("2030-02-15");
    let now = await state(opened.id);
    expect(now.payments[1]).toMatchObject({ type: "collection", status: "failed", failureCode: "insufficient_funds" });
    expect(now.ledger).toHaveLength(1);
    expect(now.account.status).toBe("in_arrears");
    expect(now.instalments.map((item) => item.status)).toEqual(["missed", "scheduled", "scheduled"]);
    const arrears = now.instalments[0]!.amountPence;
    expect(balanceAsOf(now.account, now.instalments, "2030-02-16").arrears_pence).toBe(arrears);
    expect(await eventTypes(before)).toEqual(["payment.created", "payment.failed", "account.updated"]);

    // The funds arrive: the next collection takes the arrears and the instalment falling due.
    await db().account.update({ where: { id: opened.id }, data: { companyNumber: "12340010" } });
    await serviceOn("2030-03-15");
    now = await state(opened.id);
    expect(now.payments[2]).toMatchObject({ status: "settled", amountPence: arrears + now.instalments[1]!.amountPence });
    expect(now.account.status).toBe("performing");
    expect(now.instalments.map((item) => item.status)).toEqual(["paid", "paid", "scheduled"]);
    expect(balanceAsOf(now.account, now.instalments, "2030-03-16").arrears_pence).toBe(0);

    // The last due date takes the payoff, which gathers the interest the missed month added.
    await serviceOn("2030-04-15");
    now = await state(opened.id);
    expect(now.account.status).toBe("settled");
    expect(now.ledger.filter((row) => row.type === "collection").reduce((sum, row) => sum + row.amountPence, 0)).toBeGreaterThan(
      termLoanSchedule({ principalPence: 1_000_000, aprBps: opened.aprBps, termMonths: 3, openedOn: "2030-01-15" }).reduce((sum, item) => sum + item.amountPence, 0),
    );
  });

  it("revokes the mandate of a number ending 0009 before the first collection, which fails mandate_cancelled", async () => {
    const opened = await fundedAccount(tenant, { companyNumber: "12340009" });
    const before = (await eventTypes()).length;
    await serviceOn("2030-02-15");
    const now = await state(opened.id);
    expect(now.account).toMatchObject({ mandateStatus: "revoked", status: "in_arrears" });
    expect(now.payments[1]).toMatchObject({ status: "failed", failureCode: "mandate_cancelled" });
    expect(await eventTypes(before)).toEqual(["mandate.revoked", "payment.created", "payment.failed", "account.updated"]);
    const revoked = await db().event.findFirstOrThrow({ where: { projectId: project.project_id, type: "mandate.revoked" } });
    expect(revoked.object).toMatchObject({ object: "mandate", id: opened.mandateId, account_id: opened.id, status: "revoked" });
  });

  it("settles early at the payoff, with account.closed and a zero balance", async () => {
    const opened = await fundedAccount(tenant, { amountPence: 1_000_000, termMonths: 12 });
    clock.set("2030-01-25T12:00:00.000Z");
    const payoff = balanceAsOf(opened, [], "2030-01-25").payoff_pence;
    expect(payoff).toBeGreaterThan(1_000_000);
    const { account } = await settleEarly({ tenant, now: await tenantNow(tenant), id: opened.id });
    expect(account.status).toBe("settled");
    const now = await state(opened.id);
    expect(now.ledger.at(-1)).toMatchObject({ type: "collection", amountPence: payoff });
    expect(balanceAsOf(now.account, now.instalments, "2030-06-01")).toEqual({ principal_outstanding_pence: 0, interest_accrued_pence: 0, arrears_pence: 0, payoff_pence: 0 });
    expect((await eventTypes()).slice(-2)).toEqual(["account.updated", "account.closed"]);
    await expect(settleEarly({ tenant, now: await tenantNow(tenant), id: opened.id })).rejects.toMatchObject({ code: "conflict" });
    expect(await serviceOn("2030-02-15")).toEqual({ serviced: 0 });
  });

  it("writes off what is owed through an adjustment and closes the account", async () => {
    const opened = await fundedAccount(tenant, { amountPence: 1_000_000, termMonths: 12 });
    clock.set("2030-02-01T12:00:00.000Z");
    const payoff = balanceAsOf(opened, [], "2030-02-01").payoff_pence;
    const closed = await writeOffAccount({ tenant, now: await tenantNow(tenant), id: opened.id });
    expect(closed).toMatchObject({ status: "closed", principalOutstandingPence: 0, interestAccruedPence: 0, nextDueOn: null });
    expect((await state(opened.id)).ledger.at(-1)).toMatchObject({ type: "adjustment", amountPence: payoff, paymentId: null });
    expect((await eventTypes()).slice(-2)).toEqual(["account.updated", "account.closed"]);
    await expect(writeOffAccount({ tenant, now: await tenantNow(tenant), id: opened.id })).rejects.toMatchObject({ code: "conflict" });
  });

  it("refuses a move on the other environment's account, and another project's as unknown, leaving it as it was", async () => {
    const opened = await fundedAccount(tenant, { amountPence: 1_000_000, termMonths: 12 });
    await expect(writeOffAccount({ tenant: { ...tenant, environment: "live" }, now: await tenantNow({ ...tenant, environment: "live" }), id: opened.id })).rejects.toMatchObject({ code: "environment_mismatch" });
    await expect(settleEarly({ tenant: { projectId: "proj_someone_else", environment: "sandbox" }, now: await tenantNow({ projectId: "proj_someone_else", environment: "sandbox" }), id: opened.id })).rejects.toMatchObject({ code: "not_found" });
    expect((await state(opened.id)).account.status).toBe("performing");
  });

  it("stays forborne through a failed collection, and returns to arrears when the arrangement ends with arrears left", async () => {
    const opened = await fundedAccount(tenant, { companyNumber: "12340008" });
    expect((await agreeForbearance({ tenant, now: await tenantNow(tenant), id: opened.id })).status).toBe("forborne");
    await serviceOn("2030-02-15");
    expect((await state(opened.id)).account.status).toBe("forborne");
    const before = (await eventTypes()).length;
    expect((await endForbearance({ tenant, now: await tenantNow(tenant), id: opened.id })).status).toBe("in_arrears");
    expect(await eventTypes(before)).toEqual(["account.updated", "account.updated"]);
  });
});

describe("a Flex facility", () => {
  it("accrues interest daily on what is drawn and collects the monthly minimum repayment", async () => {
    const opened = await fundedAccount(tenant, { product: "flex", amountPence: 1_200_000, termMonths: 12 });
    // Nothing drawn yet: the first month passes with nothing to collect.
    expect(await serviceOn("2030-02-15")).toEqual({ serviced: 0 });
    expect((await state(opened.id)).account.nextDueOn).toBe("2030-03-15");
    await db().$transaction(async (transaction) => drawDown({ tenant, now: await tenantNow(tenant), id: opened.id, input: { amount_pence: 600_000 }, transaction }));
    const drawnOn = (await state(opened.id)).account;
    expect(drawnOn).toMatchObject({ principalOutstandingPence: 600_000, interestAccruedThrough: "2030-02-15", nextDueOn: "2030-03-15" });
    const interest = balanceAsOf(drawnOn, [], "2030-03-15").interest_accrued_pence;
    expect(interest).toBe(Math.round((600_000 * opened.aprBps) / 120_000));

    await serviceOn("2030-03-15");
    const now = await state(opened.id);
    // Period 2 of 12: the interest and a share of the principal over the 11 instalments left.
    const principalPart = Math.ceil(600_000 / 11);
    expect(now.instalments).toEqual([expect.objectContaining({ number: 1, dueDate: "2030-03-15", interestPence: interest, principalPence: principalPart, amountPence: interest + principalPart, status: "paid" })]);
    expect(now.account).toMatchObject({ principalOutstandingPence: 600_000 - principalPart, interestAccruedPence: 0, status: "performing" });
    expect(now.ledger.map((row) => row.type)).toEqual(["drawdown", "collection"]);
  });
});

describe("serviceOnItsClock", () => {
  it("passes over an account another worker holds", async () => {
    const opened = await fundedAccount(tenant);
    clock.set("2030-02-15T06:00:00.000Z");
    await db().$transaction(async (transaction) => {
      await transaction.$queryRaw`SELECT id FROM accounts WHERE id = ${opened.id} FOR UPDATE`;
      expect(await serviceOnItsClock(opened.id)).toBe("busy");
    });
    expect(await serviceOnItsClock(opened.id)).toBe("collected");
  });
});
