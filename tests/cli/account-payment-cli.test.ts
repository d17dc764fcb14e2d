// The account and payment commands of the admin CLI, run in this process against the test database: an
// account shown with its balance, schedule and payments; forbearance until a date; a write-off; and a bank's
// answer on a payment recorded by an operator. Accounts are funded through the same services as the API.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createPaymentLink } from "@/lib/accounts/payment-links";
import type { Tenant } from "@/lib/tenant";
import { fundedAccount } from "../database/accounts/helpers";
import { runCli } from "../helpers/cli";
import { createTestProject } from "../helpers/partner";
import { tenantNow } from "@/lib/tenant-clock";

const cli = (...args: string[]) => runCli({}, ...args);

async function sandboxTenant(): Promise<Tenant> {
  return { projectId: (await createTestProject()).project_id, environment: "sandbox" };
}

async function link(tenant: Tenant, accountId: string, amountPence: number) {
  return db().$transaction(async (transaction) => createPaymentLink({ tenant, now: await tenantNow(tenant), input: { account_id: accountId, amount_pence: amountPence }, transaction }));
}

function tomorrow(): string {
  return new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

describe("account show", () => {
  it("prints the account with its balance, schedule and payments, as text and as JSON", async () => {
    const tenant = await sandboxTenant();
    const account = await fundedAccount(tenant, { amountPence: 1_000_000, termMonths: 3 });
    const json = await cli("account", "show", account.id, "--json");
    expect(json.code).toBe(0);
    const shown = JSON.parse(json.stdout);
    expect(shown.project_id).toBe(tenant.projectId);
    expect(shown.account).toMatchObject({ id: account.id, object: "account", status: "performing", principal_pence: 1_000_000, balance: { principal_outstanding_pence: 1_000_000, payoff_pence: 1_000_000 } });
    expect(shown.account.schedule).toHaveLength(3);
    expect(shown.payments).toEqual([expect.objectContaining({ object: "payment", type: "disbursement", status: "settled", amount_pence: 1_000_000 })]);

    const text = await cli("account", "show", account.id);
    expect(text.code).toBe(0);
    const lines = text.stdout.split("\n");
    expect(lines[0]).toBe(`${account.id}  performing  (sandbox, project ${tenant.projectId})`);
    expect(text.stdout).toContain(`  borrower     Sandbox Trading 12345678 Ltd (12345678)`);
    expect(text.stdout).toContain(`  balance      principal 1000000, interest 0, arrears 0, payoff 1000000 (pence)`);
    const first = shown.account.schedule[0];
    expect(text.stdout).toContain(`     1  ${first.due_date}  ${first.amount_pence} pence (principal ${first.principal_pence}, interest ${first.interest_pence})  scheduled`);
    expect(text.stdout).toContain(`    ${shown.payments[0].id}  disbursement  settled  1000000 pence`);
  });

  it("fails with exit 1 for an unknown account, and exit 2 without one", async () => {
    const unknown = await cli("account", "show", "acc_nope");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No such account: acc_nope");
    const usage = await cli("account", "show");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage: npm run --silent cli -- account show acc_... [--json]");
  });
});

describe("account forbear", () => {
  it("puts the account under forbearance until the day given, with account.updated", async () => {
    const tenant = await sandboxTenant();
    const account = await fundedAccount(tenant);
    const until = tomorrow();
    const result = await cli("account", "forbear", account.id, "--until", until);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(`Account ${account.id} is forborne until ${until}.`);
    expect(await db().account.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({ status: "forborne", forborneUntil: until });
    const event = await db().event.findFirstOrThrow({ where: { projectId: tenant.projectId, type: "account.updated" }, orderBy: { id: "desc" } });
    expect(event.object).toMatchObject({ id: account.id, status: "forborne", forborne_until: until });
    const shown = await cli("account", "show", account.id);
    expect(shown.stdout.split("\n")[0]).toContain(`forborne until ${until}`);
    // Agreed twice: the account is forborne already.
    const again = await cli("account", "forbear", account.id, "--until", until);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("An account that is forborne cannot be put under a forbearance arrangement.");
  });

  it("refuses a missing, malformed or past end date", async () => {
    const tenant = await sandboxTenant();
    const account = await fundedAccount(tenant);
    for (const [args, message] of [
      [[], "--until: is required"],
      [["--until", "next week"], "--until: must be a date, YYYY-MM-DD"],
      [["--until", "2027-02-30"], "--until: must be a real date"],
    ] as const) {
      const result = await cli("account", "forbear", account.id, ...args);
      expect(result.code).toBe(2);
      expect(result.stderr.split("\n")[0]).toContain(message);
    }
    const past = await cli("account", "forbear", account.id, "--until", "2000-01-01");
    expect(past.code).toBe(1);
    expect(past.stderr).toContain("An arrangement ends after today");
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).status).toBe("performing");
  });
});

describe("account write-off", () => {
  it("closes the account with an adjustment of what was owed, and refuses a second time", async () => {
    const tenant = await sandboxTenant();
    const account = await fundedAccount(tenant);
    const result = await cli("account", "write-off", account.id, "--json");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: account.id, status: "closed", balance: { principal_outstanding_pence: 0, interest_accrued_pence: 0, arrears_pence: 0, payoff_pence: 0 } });
    const ledger = await db().ledgerTransaction.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" } });
    expect(ledger.at(-1)).toMatchObject({ type: "adjustment", amountPence: 1_000_000, paymentId: null });
    const again = await cli("account", "write-off", account.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("An account that is closed cannot be written off.");
  });
});

describe("payment settle and fail", () => {
  it("settles a provisioned link as the bank would: the ledger and balance follow", async () => {
    const tenant = await sandboxTenant();
    const account = await fundedAccount(tenant);
    const payment = await link(tenant, account.id, 40_000);
    const result = await cli("payment", "settle", payment.id);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(`Payment ${payment.id} is settled (payment_link of 40000 pence on ${account.id}, sandbox).`);
    expect((await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe("settled");
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).principalOutstandingPence).toBe(960_000);
    const again = await cli("payment", "settle", payment.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("A payment that is settled cannot be settled");
  });

  it("fails a link with the code given, bank_rejected by default, and as JSON", async () => {
    const tenant = await sandboxTenant();
    const account = await fundedAccount(tenant);
    const first = await link(tenant, account.id, 1_000);
    const second = await link(tenant, account.id, 2_000);
    const coded = await cli("payment", "fail", first.id, "--failure-code", "insufficient_funds", "--json");
    expect(coded.code).toBe(0);
    expect(JSON.parse(coded.stdout)).toMatchObject({ id: first.id, status: "failed", failure_code: "insufficient_funds" });
    const plain = await cli("payment", "fail", second.id);
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim()).toBe(`Payment ${second.id} failed bank_rejected (payment_link of 2000 pence on ${account.id}, sandbox).`);
    expect((await db().payment.findUniqueOrThrow({ where: { id: second.id } })).failureCode).toBe("bank_rejected");
  });

  it("refuses an unknown failure code (exit 2) and an unknown payment (exit 1)", async () => {
    const usage = await cli("payment", "fail", "pay_x", "--failure-code", "lost");
    expect(usage.code).toBe(2);
    expect(usage.stderr.split("\n")[0]).toContain("--failure-code: must be one of bank_rejected");
    const unknown = await cli("payment", "settle", "pay_nope");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No such payment: pay_nope.");
  });
});
