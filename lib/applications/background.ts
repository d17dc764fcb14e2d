// The applications' background operation (lib/background/catalogue.ts lists it): a `created` application past
// `expires_at` on its project's clock expires, swept on real time and run day by day by a sandbox test clock's advance.
import type { RowSweep } from "../background-operation";
import { countExpiredApplications, expireApplication, expireDueApplications, findExpiredApplications } from "./service";

export const expireApplications: RowSweep = {
  kind: "rows",
  id: "expire-applications",
  cron: "*/5 * * * *",
  localIntervalMs: 30_000,
  claims: "each application FOR UPDATE SKIP LOCKED in the expiry's transaction; one held elsewhere is skipped",
  batch: 100,
  steps: { find: "find-expired", each: "expire" },
  find: findExpiredApplications,
  run: async (id) => (await expireApplication(id)) !== null,
  counts: "expired",
  countDue: countExpiredApplications,
  concurrency: 1,
  drain: false,
  onTestClock: expireDueApplications,
};
