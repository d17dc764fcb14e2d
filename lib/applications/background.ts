// The applications' background operation (lib/background/catalogue.ts lists it): a `created` application past
// `expires_at` on its project's clock expires, swept on real time and run day by day by a sandbox test clock's advance.
import type { RowSweep } from "../background-operation";
import type { Application } from "../generated/prisma/client";
import { tenantNow } from "../tenant-clock";
import { applicationTenant, countExpiredApplications, expireApplication, expireDueApplications, findExpiredApplications } from "./service";

/** One application's expiry at its project's time now, read once here for this unit of work: null when nothing expired. */
export async function expireOnItsClock(id: string): Promise<Application | null> {
  const tenant = await applicationTenant(id);
  if (!tenant) return null;
  return expireApplication(id, { now: await tenantNow(tenant) });
}

export const expireApplications: RowSweep = {
  kind: "rows",
  id: "expire-applications",
  cron: "*/5 * * * *",
  localIntervalMs: 30_000,
  claims: "each application FOR UPDATE SKIP LOCKED in the expiry's transaction; one held elsewhere is skipped",
  batch: 100,
  steps: { find: "find-expired", each: "expire" },
  find: findExpiredApplications,
  run: async (id) => (await expireOnItsClock(id)) !== null,
  counts: "expired",
  countDue: countExpiredApplications,
  concurrency: 1,
  drain: false,
  onTestClock: expireDueApplications,
};
