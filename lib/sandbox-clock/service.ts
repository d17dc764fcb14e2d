// The project's sandbox test clock (docs/sandbox.md, "Test clock"): reading it, and advancing it by whole days
// with everything that falls due on the way (the due work its callers pass, from lib/background/catalogue.ts). The offset lives in `sandbox_clocks`;
// lib/tenant-clock.ts turns it into the time the project's sandbox objects carry.
//
// An advance is claimed in one short transaction that records its target (`target_offset_days`) and a lease, and
// is refused at once while another runs. The work then runs in short transactions, one per batch of rows of
// each due-work entry and day, each renewing the lease; the offset moves on as each day completes. So no
// transaction holds locks across days, readers see the clock `advancing` at the last whole day done, and an
// advance whose process died (its lease lapsed) is resumed by the `resume-clock-advances` sweep from that day:
// the batches of a day half done are found done or redone, as every due-work entry is idempotent.
import type { DueWork } from "../background-operation";
import { clock, DAY_MS } from "../clock";
import { db, sqlState, transact, type TransactionKind } from "../db";
import { config, type Config } from "../env";
import { ApiError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { describeError, log } from "../log";
import { runForProject } from "../pool-bulkhead";
import { forgetProjectState } from "../projects/project-state";
import { LOCK_NOT_AVAILABLE, lockRow } from "../row-lock";
import { Semaphore } from "../semaphore";
import type { Tenant } from "../tenant";
import { withTimeout } from "../with-timeout";
import { serializeTestClock } from "./serialize";

/**
 * How long an advance's process is trusted without news: each batch it commits renews the lease. An advance kept
 * waiting longer for its turn (many sandboxes advancing at once) may be taken over by another process meanwhile;
 * that costs only work, as every batch is idempotent and each day is moved past once.
 */
const ADVANCE_LEASE_MS = 60_000;

/**
 * The advance commits as it goes (per batch and per day), so there is no one transaction for the endpoint's
 * Idempotency-Key outcome to share: it is recorded by a statement of its own once the advance answers.
 */
export const advanceOutcome: TransactionKind<undefined> = {
  run: (work) => work(undefined),
  write: async (_none, statement) => {
    await db().$executeRaw(statement);
  },
};

function advanceRunning(): ApiError {
  return new ApiError("conflict", { message: "An advance of this project's test clock is running: wait until GET /test_helpers/clock reads status ready." });
}

const leaseFrom = (now: Date) => new Date(now.getTime() + ADVANCE_LEASE_MS);

/** The clock as it stands: read from its row rather than the cache, so it names the committed offset exactly. */
export async function retrieveTestClock({ tenant }: { tenant: Tenant }) {
  const row = await db().sandboxClock.findUnique({ where: { projectId: tenant.projectId }, select: { offsetDays: true, targetOffsetDays: true } });
  const offsetDays = row?.offsetDays ?? 0;
  return serializeTestClock(new Date(clock.now().getTime() + offsetDays * DAY_MS), offsetDays, Math.max(offsetDays, row?.targetOffsetDays ?? 0));
}

/** Records an advance of `days` from where the clock stands; 409 `conflict` at once while another runs. */
async function claimAdvance(projectId: string, days: number): Promise<void> {
  const now = clock.now();
  try {
    await transact(async (transaction) => {
      await transaction.$executeRaw`INSERT INTO sandbox_clocks (project_id, offset_days, target_offset_days, created_at, updated_at)
        VALUES (${projectId}, 0, 0, ${now}, ${now}) ON CONFLICT (project_id) DO NOTHING`;
      await lockRow(transaction, "sandbox_clocks", projectId, { noWait: true });
      const current = await transaction.sandboxClock.findUniqueOrThrow({ where: { projectId }, select: { offsetDays: true, targetOffsetDays: true } });
      if (current.targetOffsetDays > current.offsetDays) throw advanceRunning();
      await transaction.sandboxClock.update({ where: { projectId }, data: { targetOffsetDays: current.offsetDays + days, advanceLeaseUntil: leaseFrom(now), updatedAt: now } });
    });
  } catch (error) {
    if (sqlState(error) === LOCK_NOT_AVAILABLE) throw advanceRunning();
    throw error;
  }
}

/**
 * Moves the tenant's sandbox clock `days` days on, one day at a time: at each step every due-work entry runs
 * what fell due by then, stamped with that step's time. Answers with the clock once the advance is done, or,
 * when it is not done within `answerWithinMs`, with the clock `advancing` while it goes on in the background.
 */
export async function advanceTestClock({
  tenant,
  days,
  dueWork,
  answerWithinMs = config().SANDBOX_CLOCK_ANSWER_WITHIN_MS,
}: {
  tenant: Tenant;
  days: number;
  dueWork: readonly DueWork[];
  answerWithinMs?: number;
}) {
  await claimAdvance(tenant.projectId, days);
  const advance = runClockAdvance(tenant.projectId, dueWork).catch((error: unknown) => {
    // Its lease lapses and the resume sweep tries again.
    log.error("test clock advance failed", { project_id: tenant.projectId, ...describeError(error) });
  });
  if (answerWithinMs > 0) await withTimeout(advance, answerWithinMs).catch(() => undefined);
  return retrieveTestClock({ tenant });
}

/** The advances this process runs, by project. */
const running = new Map<string, Promise<void>>();

/**
 * Advances' transactions a process runs at once: a quarter of the pool (at least 1), so however many sandboxes
 * advance together, the rest of the pool is left to other work.
 */
export function advanceLaneSize(settings: Pick<Config, "DATABASE_POOL_SIZE">): number {
  return Math.max(1, Math.floor(settings.DATABASE_POOL_SIZE / 4));
}

let advanceLane: Semaphore | undefined;

function inAdvanceLane<T>(work: () => Promise<T>): Promise<T> {
  const lane = (advanceLane ??= new Semaphore(advanceLaneSize(config())));
  return lane.take().then(() => work().finally(() => lane.give()));
}

/**
 * Runs the project's claimed advance to its target, in the project's share of the pool. One run per project in
 * this process: asked again while one runs (a new advance claimed as the last finishes), it runs again after.
 */
function runClockAdvance(projectId: string, dueWork: readonly DueWork[]): Promise<void> {
  const current = running.get(projectId);
  if (current) return current.then(
    () => runClockAdvance(projectId, dueWork),
    () => runClockAdvance(projectId, dueWork),
  );
  const advance = runForProject(projectId, () => advanceToTarget({ projectId, environment: "sandbox" }, dueWork)).finally(() => running.delete(projectId));
  running.set(projectId, advance);
  return advance;
}

async function advanceToTarget(tenant: Tenant, dueWork: readonly DueWork[]): Promise<void> {
  const where = { projectId: tenant.projectId };
  let clockRow = await db().sandboxClock.findUnique({ where, select: { offsetDays: true, targetOffsetDays: true } });
  while (clockRow && clockRow.offsetDays < clockRow.targetOffsetDays) {
    const day = clockRow.offsetDays + 1;
    // Another process that took the advance over has moved the clock meanwhile: go on from where it stands.
    if (await advanceOneDay(tenant, day, clockRow.targetOffsetDays, dueWork)) clockRow = { ...clockRow, offsetDays: day };
    else clockRow = await db().sandboxClock.findUnique({ where, select: { offsetDays: true, targetOffsetDays: true } });
  }
}

/**
 * Runs day `day` of the advance and moves the clock to it. Each transaction runs the next batch of every entry
 * not yet done with the day; the one in which all are done moves the offset (a quiet day is one transaction), the
 * others renew the lease. False when the clock had already moved past the day before.
 */
async function advanceOneDay(tenant: Tenant, day: number, target: number, dueWork: readonly DueWork[]): Promise<boolean> {
  const real = clock.now().getTime();
  const step = { tenant: { ...tenant, sandboxClockOffsetDays: day }, from: new Date(real + (day - 1) * DAY_MS), to: new Date(real + day * DAY_MS) };
  const limit = config().SANDBOX_CLOCK_BATCH_SIZE;
  const cursors = dueWork.map((work) => ({ work, after: null as string | null, done: false }));
  for (;;) {
    const outcome = await inAdvanceLane(() =>
      transact(async (transaction) => {
        for (const cursor of cursors.filter((candidate) => !candidate.done)) {
          const found = await cursor.work.run({ ...step, transaction, after: cursor.after, limit });
          cursor.done = found.length < limit;
          cursor.after = found.at(-1) ?? cursor.after;
        }
        const now = clock.now();
        if (cursors.some((cursor) => !cursor.done)) {
          await transaction.sandboxClock.update({ where: { projectId: tenant.projectId }, data: { advanceLeaseUntil: leaseFrom(now) } });
          return "more";
        }
        // Only from the day before, so a day is moved past once whoever runs it.
        const moved = await transaction.sandboxClock.updateMany({
          where: { projectId: tenant.projectId, offsetDays: day - 1 },
          data: { offsetDays: day, advanceLeaseUntil: day === target ? null : leaseFrom(now), updatedAt: now },
        });
        return moved.count === 1 ? "moved" : "passed";
      }),
    );
    if (outcome === "more") continue;
    // This process stops serving the old offset at once; the others hear of it as the update commits.
    forgetProjectState(tenant.projectId);
    return outcome === "moved";
  }
}

const stalledSql = (now: Date) => Prisma.sql`target_offset_days > offset_days AND advance_lease_until <= ${now}`;

/** Projects whose advance's lease has lapsed (its process died or gave up), longest lapsed first. */
async function findStalledAdvances(limit: number): Promise<string[]> {
  const rows = await db().$queryRaw<{ project_id: string }[]>`SELECT project_id FROM sandbox_clocks WHERE ${stalledSql(clock.now())}
    ORDER BY advance_lease_until LIMIT ${limit}`;
  return rows.map((row) => row.project_id);
}

/** Takes over a stalled advance (its lease, so no other process does) and runs it to its target; false if not stalled. */
async function resumeClockAdvance(projectId: string, dueWork: readonly DueWork[]): Promise<boolean> {
  const now = clock.now();
  const taken = await db().$executeRaw`UPDATE sandbox_clocks SET advance_lease_until = ${leaseFrom(now)}
    WHERE project_id = ${projectId} AND ${stalledSql(now)}`;
  if (taken === 0) return false;
  await runClockAdvance(projectId, dueWork);
  return true;
}

/**
 * The `resume-clock-advances` pass (lib/background/catalogue.ts): runs up to `limit` stalled advances to their
 * targets, one after another; returns how many it took over.
 */
export async function resumeStalledAdvances(dueWork: readonly DueWork[], limit = 10): Promise<number> {
  let resumed = 0;
  for (const projectId of await findStalledAdvances(limit)) if (await resumeClockAdvance(projectId, dueWork)) resumed += 1;
  return resumed;
}
