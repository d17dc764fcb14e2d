// What a sandbox test clock's advance runs (docs/sandbox.md, "Test clock"; docs/architecture.md): the work that
// falls due as a project's time passes, for that project's sandbox only. The advance moves time one day at a
// time and, at each step, runs every entry below in order, in the advance's transaction; an entry runs what is due by
// `to` among the tenant's rows and stamps what it does with `to` (`from` is where the step began, the
// previous step's `to`). Entries must be idempotent, as the scheduler's operations are: a row done is no longer
// due. A domain whose objects fall due with time adds its entry here.
import type { Prisma } from "../generated/prisma/client";
import { collectDuePayments } from "../accounts/servicing";
import { expireDueApplications } from "../applications/service";
import type { Tenant } from "../tenant";

export interface DueWorkStep {
  /** The advance's transaction: everything an advance does commits with the clock's new offset, or not at all. */
  transaction: Prisma.TransactionClient;
  /** The sandbox tenant whose clock moves, carrying the step's offset (lib/tenant-clock.ts gives `to`). */
  tenant: Tenant;
  from: Date;
  to: Date;
}

export interface DueWork {
  name: string;
  /** Runs what fell due in (`from`, `to`]; returns how many rows it moved. */
  run(step: DueWorkStep): Promise<number>;
}

export const DUE_WORK: readonly DueWork[] = [
  { name: "expire-applications", run: expireDueApplications },
  // Collections, with what they bring: settled or failed payments, arrears and the account's status, a
  // company number ending 0009 revoking its mandate (docs/accounts.md, "Collections").
  { name: "collect-payments", run: collectDuePayments },
];
