// What the borrower area reads for a signed-in person (lib/accounts/holder-overview.ts): their company's
// applications and accounts in their environment, whichever partner holds them, each account with its next
// instalment and latest ledger entries; nothing of another company's or the other environment's.
import { describe, expect, it } from "vitest";
import { readHolderOverview } from "@/lib/accounts/holder-overview";
import { clock } from "@/lib/clock";
import { createApplication } from "@/lib/applications/create";
import type { Tenant } from "@/lib/tenant";
import { tenantNow } from "@/lib/tenant-clock";
import { createTestProject } from "../../helpers/partner";
import { fundedAccount } from "./helpers";

describe("readHolderOverview", () => {
  it("shows the company's applications and accounts across partners, with next instalments and transactions", async () => {
    const [first, second] = [await createTestProject(), await createTestProject()];
    const tenant: Tenant = { projectId: first.project_id, environment: "sandbox" };
    const mine = await fundedAccount(tenant, { companyNumber: "23450011", termMonths: 3 });
    const atAnotherPartner = await fundedAccount({ projectId: second.project_id, environment: "sandbox" }, { companyNumber: "23450011", termMonths: 6 });
    await fundedAccount(tenant, { companyNumber: "23450012" });
    const started = await createApplication({
      tenant,
      now: await tenantNow(tenant),
      input: { business: { company_number: "23450011" }, amount_pence: 200_000, term_months: 3, applicant: { email: "director@example.co.uk" } },
    });

    const overview = await readHolderOverview({ holder: { companyNumber: "23450011", environment: "sandbox" }, now: clock.now() });
    expect(overview.accounts.map((view) => view.account.id)).toEqual([atAnotherPartner.id, mine.id]);
    expect(overview.applications.map((application) => [application.id, application.status, application.amount_pence])).toEqual([
      [started.id, "created", 200_000],
      [atAnotherPartner.applicationId, "funded", 1_000_000],
      [mine.applicationId, "funded", 1_000_000],
    ]);
    const view = overview.accounts[1]!;
    expect(view.nextInstalment).toEqual(view.account.schedule[0]);
    expect(view.account.schedule).toHaveLength(3);
    expect(view.transactions.map((transaction) => [transaction.type, transaction.amount_pence])).toEqual([["drawdown", -1_000_000]]);

    expect(await readHolderOverview({ holder: { companyNumber: "23450011", environment: "live" }, now: clock.now() })).toEqual({ applications: [], accounts: [] });
    expect(await readHolderOverview({ holder: { companyNumber: null, environment: "sandbox" }, now: clock.now() })).toEqual({ applications: [], accounts: [] });
  });
});
