// What a sandbox test clock's advance runs (docs/sandbox.md, "Test clock"; docs/architecture.md): the work that
// falls due as a project's time passes, for that project's sandbox only. The advance moves time one day at a
// time and, at each step, runs every entry below in order, a batch of rows per transaction; an entry runs what
// is due by `to` among a batch of the tenant's rows and stamps what it does with `to` (`from` is where the step
// began, the previous step's `to`). Entries must be idempotent, as the scheduler's operations are: a row done is
// no longer due, and a batch an advance ran before its process died is found done when it is resumed. The entries
// come from the one background catalogue (lib/background/catalogue.ts): a domain whose objects fall due with time
// gives its operation there an `onTestClock`.
import type { Prisma } from "../generated/prisma/client";
import type { Tenant } from "../tenant";

export interface DueWorkStep {
  /** The batch's transaction: it commits the batch's work, and the advance's lease with it. */
  transaction: Prisma.TransactionClient;
  /** The sandbox tenant whose clock moves, carrying the step's offset (lib/tenant-clock.ts gives `to`). */
  tenant: Tenant;
  from: Date;
  to: Date;
  /** The batch: the first `limit` due rows whose id sorts after `after` (null: from the first), in id order. */
  after: string | null;
  limit: number;
}

export interface DueWork {
  name: string;
  /** Runs what fell due in (`from`, `to`] among one batch of rows; returns the ids of the rows it found, in id order. */
  run(step: DueWorkStep): Promise<string[]>;
}
