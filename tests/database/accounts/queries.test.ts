// The account read and the ledger page read on the fast lane (lib/accounts/queries.ts) with hand-written
// column lists. They must give rows exactly as Prisma gives them, field for field and type for type, so the
// one serializer renders both; a column added to the schema and not to the query fails here.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readOwnAccount, listTransactions } from "@/lib/accounts/queries";
import { agreeForbearance, drawDown } from "@/lib/accounts/service";
import { runDueServicing } from "@/lib/accounts/servicing";
import { freezeClock, restoreClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { serializeTransaction } from "@/lib/accounts/serialize";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../../helpers/partner";
import { fundedAccount } from "./helpers";

let project: ProjectCredentials;
let tenant: Tenant;
let clock: ReturnType<typeof freezeClock>;

beforeEach(async () => {
  clock = freezeClock("2097-04-10T12:00:00.000Z");
  project = await createTestProject();
  tenant = { projectId: project.project_id, environment: "sandbox" };
});

afterEach(() => restoreClock());

async function byPrisma(id: string) {
  return db().account.findUniqueOrThrow({ where: { id }, include: { instalments: { orderBy: { number: "asc" } } } });
}

describe("readOwnAccount", () => {
  it("gives a term loan exactly as Prisma does, instalments in order", async () => {
    const account = await fundedAccount(tenant, { termMonths: 6 });
    await agreeForbearance({ projectId: project.project_id, id: account.id, until: "2097-06-01" });
    await db().account.update({ where: { id: account.id }, data: { metadata: { crm: "C-1", note: 'quote " and \\ slash' }, reference: "ref-9" } });
    const read = await readOwnAccount(tenant, account.id);
    expect(read).toStrictEqual(await byPrisma(account.id));
    expect(read!.instalments.map((instalment) => instalment.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(read!.forborneUntil).toBe("2097-06-01");
    expect(read!.disbursedAt).toBeInstanceOf(Date);
  });

  it("gives a Flex facility (a credit limit, no schedule yet) exactly as Prisma does", async () => {
    const account = await fundedAccount(tenant, { product: "flex" });
    const read = await readOwnAccount(tenant, account.id);
    expect(read).toStrictEqual(await byPrisma(account.id));
    expect(read!.creditLimitPence).toBeGreaterThan(0);
  });

  it("is null for another project's account and for the other environment", async () => {
    const account = await fundedAccount(tenant);
    const other = await createTestProject();
    expect(await readOwnAccount({ projectId: other.project_id, environment: "sandbox" }, account.id)).toBeNull();
    expect(await readOwnAccount({ ...tenant, environment: "live" }, account.id)).toBeNull();
    expect(await readOwnAccount(tenant, "acc_doesnotexist")).toBeNull();
  });
});

describe("listTransactions", () => {
  it("gives the ledger exactly as Prisma's rows serialize, newest first, paged by cursor", async () => {
    const account = await fundedAccount(tenant, { product: "flex" });
    for (const amount of [1_000, 2_000, 3_000]) await db().$transaction((transaction) => drawDown({ tenant, id: account.id, input: { amount_pence: amount }, transaction }));
    clock.set("2097-05-10T06:00:00.000Z");
    await runDueServicing({ tenant });
    const expected = (await db().ledgerTransaction.findMany({ where: { accountId: account.id }, orderBy: { id: "desc" } })).map(serializeTransaction);
    expect(expected.length).toBeGreaterThanOrEqual(4);

    const url = `/partner/v1/accounts/${account.id}/transactions`;
    const first = await listTransactions({ tenant, id: account.id, query: { limit: 2 }, url });
    expect(first.data).toStrictEqual(expected.slice(0, 2));
    expect(first.has_more).toBe(true);
    const rest = await listTransactions({ tenant, id: account.id, query: { limit: 100, starting_after: expected[1]!.id }, url });
    expect(rest.data).toStrictEqual(expected.slice(2));
    const back = await listTransactions({ tenant, id: account.id, query: { limit: 100, ending_before: expected[2]!.id }, url });
    expect(back.data).toStrictEqual(expected.slice(0, 2));
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
});
