// The revenue share's background operation (lib/background/catalogue.ts lists it): once a month has closed on a
// project's clock, its sub-accounts are paid out for the introductions funded in it; swept hourly on real time,
// and run day by day by a sandbox test clock's advance.
import type { RowSweep } from "../background-operation";
import { tenantNow } from "../tenant-clock";
import { countSubAccountsDuePayout, findSubAccountsDuePayout, payOutClosedMonths, payOutDueOnTestClock, subAccountTenant } from "./payouts";

/** One sub-account's monthly run at its project's time now, read once here for this unit of work. */
export async function payOutOnItsClock(subAccountId: string): Promise<boolean> {
  const tenant = await subAccountTenant(subAccountId);
  if (!tenant) return false;
  return payOutClosedMonths(subAccountId, await tenantNow(tenant));
}

export const payOutRevenueShare: RowSweep = {
  kind: "rows",
  id: "pay-out-revenue-share",
  cron: "20 * * * *",
  localIntervalMs: 60 * 60_000,
  claims: "each sub-account FOR UPDATE SKIP LOCKED while its payouts are made; one held elsewhere is skipped",
  batch: 100,
  steps: { find: "find-due-sub-accounts", each: "pay-out" },
  find: findSubAccountsDuePayout,
  run: payOutOnItsClock,
  counts: "paidOut",
  countDue: countSubAccountsDuePayout,
  concurrency: 1,
  drain: false,
  onTestClock: payOutDueOnTestClock,
};
