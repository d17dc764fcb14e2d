// The accounts' background operation (lib/background/catalogue.ts lists it): each account's due dates up to
// today, collected in order (servicing.ts). A run that finds nothing due does nothing, so the local driver's
// hourly sweep only catches up after a restart.
import type { RowSweep } from "../background-operation";
import { tenantNow } from "../tenant-clock";
import { accountTenant } from "./service";
import { collectDuePayments, countAccountsDue, findAccountsDue, serviceAccount, type ServicingResult } from "./servicing";

/** One account's collections up to today on its project's clock, read once here for the whole run. */
export async function serviceOnItsClock(id: string): Promise<ServicingResult> {
  const tenant = await accountTenant(id);
  if (!tenant) return "nothing_due";
  return serviceAccount(id, await tenantNow(tenant));
}

export const collectPayments: RowSweep = {
  kind: "rows",
  id: "collect-payments",
  cron: "0 6 * * *",
  localIntervalMs: 60 * 60_000,
  claims: "each account FOR UPDATE SKIP LOCKED in its collection's transaction; next_due_on moves past each due date collected in that transaction",
  batch: 100,
  steps: { find: "find-accounts-due", each: "collect" },
  find: (limit) => findAccountsDue(limit),
  run: async (id) => (await serviceOnItsClock(id)) === "collected",
  counts: "collected",
  countDue: countAccountsDue,
  concurrency: 1,
  drain: false,
  // With what collections bring: settled or failed payments, arrears and the account's status, a company
  // number ending 0009 revoking its mandate (docs/accounts.md, "Collections").
  onTestClock: collectDuePayments,
};
