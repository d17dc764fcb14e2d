// The project's sandbox test clock (docs/sandbox.md, "Test clock"): reading it, and advancing it by whole days
// with everything that falls due on the way run before the advance answers (due-work.ts). The offset lives in
// `sandbox_clocks`; lib/tenant-clock.ts turns it into the time the project's sandbox objects carry.
import { clock, DAY_MS } from "../clock";
import { db, type TransactionKind } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { forgetProjectState } from "../projects/project-state";
import { lockRow } from "../row-lock";
import type { Tenant } from "../tenant";
import { DUE_WORK } from "./due-work";
import { serializeTestClock } from "./serialize";

/**
 * An advance is one transaction, allowed well past Prisma's default 5 s: a year of a busy sandbox's collections,
 * and the wait for another advance of the same project that holds the clock.
 */
const ADVANCE_TIMEOUT_MS = 120_000;

export const advanceTransaction: TransactionKind<Prisma.TransactionClient> = {
  run: (work) => db().$transaction(work, { timeout: ADVANCE_TIMEOUT_MS }),
  write: async (transaction, statement) => {
    await transaction.$executeRaw(statement);
  },
};

/** The clock as it stands: read from its row rather than the cache, so it names the committed offset exactly. */
export async function retrieveTestClock({ tenant }: { tenant: Tenant }) {
  const row = await db().sandboxClock.findUnique({ where: { projectId: tenant.projectId }, select: { offsetDays: true } });
  const offsetDays = row?.offsetDays ?? 0;
  return serializeTestClock(new Date(clock.now().getTime() + offsetDays * DAY_MS), offsetDays);
}

/** The clock's row, made on the first advance and locked until `transaction` ends; returns its offset. */
async function lockSandboxClock(transaction: Prisma.TransactionClient, projectId: string, now: Date): Promise<number> {
  // A second first advance waits here for the first to commit, then finds its row.
  await transaction.$executeRaw`INSERT INTO sandbox_clocks (project_id, offset_days, created_at, updated_at)
    VALUES (${projectId}, 0, ${now}, ${now}) ON CONFLICT (project_id) DO NOTHING`;
  await lockRow(transaction, "sandbox_clocks", projectId);
  return (await transaction.sandboxClock.findUniqueOrThrow({ where: { projectId }, select: { offsetDays: true } })).offsetDays;
}

/**
 * Moves the tenant's sandbox clock `days` days on, one day at a time: at each step every due-work entry runs
 * what fell due by then, stamped with that step's time. All of it commits with the new offset in `transaction`
 * (advanceTransaction), or none of it. The clock's row lock makes two advances of one project run one after the
 * other: the second starts from where the first left the clock, and finds its work done.
 */
export async function advanceTestClock({ tenant, days, transaction }: { tenant: Tenant; days: number; transaction: Prisma.TransactionClient }) {
  const started = clock.now();
  const offsetDays = await lockSandboxClock(transaction, tenant.projectId, started);
  const from = started.getTime() + offsetDays * DAY_MS;
  for (let day = 1; day <= days; day += 1) {
    const step = {
      transaction,
      tenant: { ...tenant, sandboxClockOffsetDays: offsetDays + day },
      from: new Date(from + (day - 1) * DAY_MS),
      to: new Date(from + day * DAY_MS),
    };
    for (const work of DUE_WORK) await work.run(step);
  }
  await transaction.sandboxClock.update({ where: { projectId: tenant.projectId }, data: { offsetDays: offsetDays + days, updatedAt: started } });
  // This process stops serving the old offset at once; the others hear of it when the transaction commits.
  forgetProjectState(tenant.projectId);
  return serializeTestClock(new Date(from + days * DAY_MS), offsetDays + days);
}
