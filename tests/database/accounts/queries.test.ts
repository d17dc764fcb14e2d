// The account reads on the fast lane (lib/accounts/queries.ts). The account read and the ledger page are
// rendered by PostgreSQL: they must give exactly what serializeAccount and serializeTransaction give, field for
// field and in the same order, for accounts in every state. readOwnAccount's hand-written column list must give
// the row exactly as Prisma does, so a column added to the schema and not to the query fails here.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listTransactions, readOwnAccount, retrieveAccount } from "@/lib/accounts/queries";
import { agreeForbearance, drawDown, writeOffAccount } from "@/lib/accounts/service";
import { runDueServicing } from "@/lib/accounts/servicing";
import { freezeClock, restoreClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { serializeAccount, serializeTransaction } from "@/lib/accounts/serialize";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../../helpers/partner";
import { renderedOrErrorCode } from "../../helpers/rendered-reads";
import { fundedAccount } from "./helpers";
import { tenantNow } from "@/lib/tenant-clock";

let project: ProjectCredentials;
let tenant: Tenant;
let clock: ReturnType<typeof freezeClock>;

beforeEach(async () => {
  clock = freezeClock("2029-04-10T12:00:00.000Z");
  project = await createTestProject();
  tenant = { projectId: project.project_id, environment: "sandbox" };
});

afterEach(() => restoreClock());

async function byPrisma(id: string) {
  return db().account.findUniqueOrThrow({ where: { id }, include: { instalments: { orderBy: { number: "asc" } } } });
}

/** The account read's JSON and serializeAccount's object for the same row, today on the frozen clock. */
async function bothRenderings(id: string, asOf: string) {
  const rendered = (await retrieveAccount({ tenant, now: await tenantNow(tenant), id })).text;
  const row = await byPrisma(id);
  return { rendered: JSON.parse(rendered) as unknown, expected: serializeAccount(row, row.instalments, asOf) };
}

async function expectRenderedAsSerialized(id: string, asOf: string) {
  expect((await retrieveAccount({ tenant, now: await tenantNow(tenant), id })).text).not.toContain("\n");
  const { rendered, expected } = await bothRenderings(id, asOf);
  expect(rendered).toStrictEqual(expected);
  // Key order too: the two renderings must be interchangeable byte for byte once re-serialised.
  expect(JSON.stringify(rendered)).toBe(JSON.stringify(expected));
  return expected;
}

describe("retrieveAccount renders what serializeAccount returns", () => {
  it("for a new term loan, its APR a fraction of a percent", async () => {
    const account = await fundedAccount(tenant, { termMonths: 6 });
    await db().account.update({ where: { id: account.id }, data: { aprBps: 1299 } });
    const object = await expectRenderedAsSerialized(account.id, "2029-04-10");
    expect(object.rate_apr).toBe(12.99);
    expect(object.schedule).toHaveLength(6);
  });

  it("for a forborne account with text JSON must escape, its interest accrued to a later day", async () => {
    const account = await fundedAccount(tenant);
    await agreeForbearance({ tenant, now: await tenantNow(tenant), id: account.id, until: "2029-06-01" });
    await db().account.update({
      where: { id: account.id },
      data: { companyName: 'O\'Brien "Quotes" \\ Back\nslash Ltd', reference: "ref <x> \u2028", metadata: { note: "emoji 🚀 and \" and \\", crm: "C-1" } },
    });
    clock.set("2029-04-25T09:00:00.000Z");
    const object = await expectRenderedAsSerialized(account.id, "2029-04-25");
    expect(object.forborne_until).toBe("2029-06-01");
    expect(object.balance.interest_accrued_pence).toBeGreaterThan(0);
  });

  it("for an account in arrears, a partly paid instalment counting what is unpaid", async () => {
    const account = await fundedAccount(tenant, { termMonths: 3 });
    await db().instalment.update({ where: { accountId_number: { accountId: account.id, number: 1 } }, data: { status: "partially_paid", paidPence: 1_000 } });
    await db().instalment.update({ where: { accountId_number: { accountId: account.id, number: 2 } }, data: { status: "missed" } });
    await db().account.update({ where: { id: account.id }, data: { status: "in_arrears" } });
    const object = await expectRenderedAsSerialized(account.id, "2029-04-10");
    const [first, second] = object.schedule;
    expect(object.balance.arrears_pence).toBe(first!.amount_pence - 1_000 + second!.amount_pence);
  });

  it("for a written-off account and for a Flex facility with drawdowns", async () => {
    const closed = await fundedAccount(tenant);
    await writeOffAccount({ tenant, now: await tenantNow(tenant), id: closed.id });
    expect((await expectRenderedAsSerialized(closed.id, "2029-04-10")).status).toBe("closed");

    const flex = await fundedAccount(tenant, { product: "flex" });
    await db().$transaction(async (transaction) => drawDown({ tenant, now: await tenantNow(tenant), id: flex.id, input: { amount_pence: 5_000 }, transaction }));
    const object = await expectRenderedAsSerialized(flex.id, "2029-04-10");
    expect(object.available_pence).toBe(object.credit_limit_pence! - object.balance.principal_outstanding_pence);
  });

  it("is 404 for another project's account, 401 environment_mismatch for the other environment", async () => {
    const account = await fundedAccount(tenant);
    const other = await createTestProject();
    await expect(retrieveAccount({ tenant: { projectId: other.project_id, environment: "sandbox" }, now: await tenantNow({ projectId: other.project_id, environment: "sandbox" }), id: account.id })).rejects.toMatchObject({ code: "not_found" });
    await expect(retrieveAccount({ tenant: { ...tenant, environment: "live" }, now: await tenantNow({ ...tenant, environment: "live" }), id: account.id })).rejects.toMatchObject({ code: "environment_mismatch" });
  });

  it("answers reads made together (one query) each with its own account, refusing another project's (404) and the other environment's (401)", async () => {
    const [first, second] = [await fundedAccount(tenant, { termMonths: 6 }), await fundedAccount(tenant, { termMonths: 9 })];
    const other = await createTestProject();
    const outcomes = await renderedOrErrorCode([
      retrieveAccount({ tenant, now: await tenantNow(tenant), id: first.id }),
      retrieveAccount({ tenant: { projectId: other.project_id, environment: "sandbox" }, now: await tenantNow({ projectId: other.project_id, environment: "sandbox" }), id: first.id }),
      retrieveAccount({ tenant, now: await tenantNow(tenant), id: second.id }),
      retrieveAccount({ tenant: { ...tenant, environment: "live" }, now: await tenantNow({ ...tenant, environment: "live" }), id: second.id }),
      retrieveAccount({ tenant, now: await tenantNow(tenant), id: first.id }),
    ]);
    expect(outcomes).toEqual([
      expect.objectContaining({ id: first.id, term_months: 6 }),
      "not_found",
      expect.objectContaining({ id: second.id, term_months: 9 }),
      "environment_mismatch",
      expect.objectContaining({ id: first.id, term_months: 6 }),
    ]);
  });
});

describe("readOwnAccount", () => {
  it("gives a term loan exactly as Prisma does, instalments in order", async () => {
    const account = await fundedAccount(tenant, { termMonths: 6 });
    await agreeForbearance({ tenant, now: await tenantNow(tenant), id: account.id, until: "2029-06-01" });
    await db().account.update({ where: { id: account.id }, data: { metadata: { crm: "C-1", note: 'quote " and \\ slash' }, reference: "ref-9" } });
    const read = await readOwnAccount(tenant, account.id);
    expect(read).toStrictEqual(await byPrisma(account.id));
    expect(read!.instalments.map((instalment) => instalment.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(read!.forborneUntil).toBe("2029-06-01");
    expect(read!.disbursedAt).toBeInstanceOf(Date);
  });

  it("gives a Flex facility (a credit limit, no schedule yet) exactly as Prisma does", async () => {
    const account = await fundedAccount(tenant, { product: "flex" });
    const read = await readOwnAccount(tenant, account.id);
    expect(read).toStrictEqual(await byPrisma(account.id));
    expect(read!.creditLimitPence).toBeGreaterThan(0);
  });

  it("is 404 for another project's account and an unknown id, 401 environment_mismatch for the other environment", async () => {
    const account = await fundedAccount(tenant);
    const other = await createTestProject();
    await expect(readOwnAccount({ projectId: other.project_id, environment: "sandbox" }, account.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(readOwnAccount({ ...tenant, environment: "live" }, account.id)).rejects.toMatchObject({ code: "environment_mismatch" });
    await expect(readOwnAccount(tenant, "acc_doesnotexist")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("listTransactions", () => {
  it("gives the ledger exactly as Prisma's rows serialize, newest first, paged by cursor", async () => {
    const account = await fundedAccount(tenant, { product: "flex" });
    for (const amount of [1_000, 2_000, 3_000]) await db().$transaction(async (transaction) => drawDown({ tenant, now: await tenantNow(tenant), id: account.id, input: { amount_pence: amount }, transaction }));
    clock.set("2029-05-10T06:00:00.000Z");
    await runDueServicing({ tenant, now: await tenantNow(tenant) });
    const expected = (await db().ledgerTransaction.findMany({ where: { accountId: account.id }, orderBy: { id: "desc" } })).map(serializeTransaction);
    expect(expected.length).toBeGreaterThanOrEqual(4);

    const url = `/partner/v1/accounts/${account.id}/transactions`;
    const page = async (query: Parameters<typeof listTransactions>[0]["query"]) =>
      JSON.parse((await listTransactions({ tenant, id: account.id, query, url })).text) as { data: unknown[]; has_more: boolean };
    const first = await page({ limit: 2 });
    expect(first.data).toStrictEqual(expected.slice(0, 2));
    expect(JSON.stringify(first.data)).toBe(JSON.stringify(expected.slice(0, 2)));
    expect(first.has_more).toBe(true);
    expect((await page({ limit: 100, starting_after: expected[1]!.id })).data).toStrictEqual(expected.slice(2));
    expect((await page({ limit: 100, ending_before: expected[2]!.id })).data).toStrictEqual(expected.slice(0, 2));
  });

  it("is an empty page, not a 404, past the oldest entry of the caller's account", async () => {
    const account = await fundedAccount(tenant);
    const [oldest] = await db().ledgerTransaction.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" }, take: 1 });
    const query = { limit: 10, starting_after: oldest!.id };
    const body = JSON.parse((await listTransactions({ tenant, id: account.id, query, url: "/x" })).text) as { data: unknown[]; has_more: boolean };
    expect(body).toMatchObject({ data: [], has_more: false });
  });

  it("is 404 for another project's account, and for a cursor from another account's ledger", async () => {
    const account = await fundedAccount(tenant);
    const other = await createTestProject();
    const url = `/partner/v1/accounts/${account.id}/transactions`;
    await expect(listTransactions({ tenant: { projectId: other.project_id, environment: "sandbox" }, id: account.id, query: { limit: 10 }, url })).rejects.toMatchObject({ code: "not_found" });
    const otherAccount = await fundedAccount(tenant, { companyNumber: "87654321" });
    const [foreign] = await db().ledgerTransaction.findMany({ where: { accountId: otherAccount.id } });
    await expect(listTransactions({ tenant, id: account.id, query: { limit: 10, starting_after: foreign!.id }, url })).rejects.toMatchObject({ code: "not_found" });
  });

  it("answers a page from memory while the ledger holds what it held, and reads again once a row is posted", async () => {
    const account = await fundedAccount(tenant, { product: "flex" });
    const url = `/partner/v1/accounts/${account.id}/transactions`;
    const ids = async () => (JSON.parse((await listTransactions({ tenant, id: account.id, query: { limit: 100 }, url })).text) as { data: { id: string }[] }).data.map((row) => row.id);
    const rowsNow = async () => (await db().ledgerTransaction.findMany({ where: { accountId: account.id }, orderBy: { id: "desc" } })).map((row) => row.id);

    const first = await listTransactions({ tenant, id: account.id, query: { limit: 100 }, url });
    expect(await listTransactions({ tenant, id: account.id, query: { limit: 100 }, url })).toBe(first);
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).ledgerVersion).toBe((await rowsNow()).length);

    await db().$transaction(async (transaction) => drawDown({ tenant, now: await tenantNow(tenant), id: account.id, input: { amount_pence: 1_500 }, transaction }));
    const after = await rowsNow();
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).ledgerVersion).toBe(after.length);
    expect(await ids()).toEqual(after);
    // Another page of the same ledger is its own.
    expect(await listTransactions({ tenant, id: account.id, query: { limit: 1 }, url })).not.toBe(await listTransactions({ tenant, id: account.id, query: { limit: 100 }, url }));
  });

  it("refuses the other environment's token with 401 environment_mismatch, a page of the ledger in memory or not", async () => {
    const account = await fundedAccount(tenant);
    const url = `/partner/v1/accounts/${account.id}/transactions`;
    await listTransactions({ tenant, id: account.id, query: { limit: 10 }, url });
    await expect(listTransactions({ tenant: { ...tenant, environment: "live" }, id: account.id, query: { limit: 10 }, url })).rejects.toMatchObject({ code: "environment_mismatch" });
  });
});
