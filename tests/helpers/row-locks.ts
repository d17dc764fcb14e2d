// Holding a row lock from a test, as a slow transaction elsewhere would, so concurrent requests that need the
// row can be stopped at a known point and let go together.
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { lockRow, type LockableTable } from "@/lib/row-lock";
import { eventually } from "./eventually";

/** Sessions waiting, directly or behind another waiter, on the session `pid`. */
export async function sessionsWaitingOn(pid: number): Promise<number> {
  const [row] = await db().$queryRaw<{ waiting: number }[]>`
    WITH RECURSIVE waiting(pid) AS (
      SELECT activity.pid FROM pg_stat_activity activity WHERE ${pid}::int = ANY(pg_blocking_pids(activity.pid))
      UNION
      SELECT activity.pid FROM pg_stat_activity activity JOIN waiting ON waiting.pid = ANY(pg_blocking_pids(activity.pid))
    )
    SELECT count(*)::int AS waiting FROM waiting`;
  return row!.waiting;
}

/** Resolves once `count` sessions wait on the session `pid` (see `sessionsWaitingOn`). */
export async function untilSessionsWaitOn(pid: number, count: number): Promise<void> {
  await eventually(() => sessionsWaitingOn(pid), (waiting) => waiting >= count);
}

/** The session of the transaction it runs in. */
export async function sessionPid(transaction: Prisma.TransactionClient): Promise<number> {
  const [row] = await transaction.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  return row!.pid;
}

export interface HeldRowLock {
  /** Resolves once `count` sessions queue behind the lock. */
  untilWaiting(count: number): Promise<void>;
  /** Ends the holding transaction, letting the queue go. */
  release(): Promise<void>;
}

/** Locks the row `id` of `table` (through lib/row-lock.ts) in a transaction of its own until released. */
export async function holdRowLock(table: LockableTable, id: string): Promise<HeldRowLock> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding!: (pid: number) => void;
  const held = new Promise<number>((resolve) => (holding = resolve));
  const transaction = db().$transaction(
    async (inside) => {
      if (!(await lockRow(inside, table, id))) throw new Error(`no row ${id} in ${table}`);
      holding(await sessionPid(inside));
      await released;
    },
    { timeout: 30_000 },
  );
  const pid = await Promise.race([held, transaction.then(() => Promise.reject(new Error("the lock was given up early")))]);
  return {
    untilWaiting: (count) => untilSessionsWaitOn(pid, count),
    release: async () => {
      release();
      await transaction;
    },
  };
}
