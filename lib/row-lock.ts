// The one way to take a row lock: `lockRow` holds the row until the caller's transaction ends, so concurrent
// movers of the same row queue behind each other (or, with `skipLocked`, a background worker passes over a row
// another worker holds; with `noWait`, a caller that must not queue is refused at once). Every lifecycle's mover
// locks through `lockForMove`, which reads the row it then checks against its table and changes.
import { Prisma } from "./generated/prisma/client";

/** The tables whose rows are locked; a fixed list, so the name written into the statement is never input. */
export type LockableTable =
  | "applications"
  | "projects"
  | "api_keys"
  | "webhook_endpoints"
  | "webhook_deliveries"
  | "accounts"
  | "payments"
  | "sandbox_clocks"
  | "sub_accounts";

/** Each table's key is `id`, but for a sandbox clock, which is its project's. */
const KEY_COLUMNS: Partial<Record<LockableTable, string>> = { sandbox_clocks: "project_id" };

export interface LockOptions {
  /** Pass over a row another transaction holds instead of waiting for it: `false` is returned. */
  skipLocked?: boolean;
  /** Fail at once, rather than wait, when another transaction holds the row (SQLSTATE 55P03, `LOCK_NOT_AVAILABLE`). */
  noWait?: boolean;
}

/** The SQLSTATE of a `noWait` lock that another transaction holds. */
export const LOCK_NOT_AVAILABLE = "55P03";

/** Locks the row `id` of `table` in `transaction`; false when there is no such row (or it is held, with `skipLocked`). */
export async function lockRow(transaction: Prisma.TransactionClient, table: LockableTable, id: string, options: LockOptions = {}): Promise<boolean> {
  const key = Prisma.raw(KEY_COLUMNS[table] ?? "id");
  const rows = await transaction.$queryRaw<{ id: string }[]>`SELECT ${key} AS id FROM ${Prisma.raw(table)} WHERE ${key} = ${id} FOR UPDATE ${Prisma.raw(options.skipLocked ? "SKIP LOCKED" : options.noWait ? "NOWAIT" : "")}`;
  return rows.length === 1;
}

type ReadRow = (transaction: Prisma.TransactionClient, id: string) => Promise<unknown>;

/** How each lifecycle's row is read once locked. */
const MOVABLE_ROWS = {
  applications: (transaction, id) => transaction.application.findUnique({ where: { id } }),
  accounts: (transaction, id) => transaction.account.findUnique({ where: { id } }),
  payments: (transaction, id) => transaction.payment.findUnique({ where: { id } }),
  webhook_endpoints: (transaction, id) => transaction.webhookEndpoint.findUnique({ where: { id } }),
} satisfies Partial<Record<LockableTable, ReadRow>>;

type MovableRow<T extends keyof typeof MOVABLE_ROWS> = Awaited<ReturnType<(typeof MOVABLE_ROWS)[T]>>;

/**
 * Locks the row `id` of `table` and reads it, for a mover to check and change: null when there is no such row
 * (or, with `skipLocked`, another transaction holds it). Whose row it is stays the caller's to check.
 */
export async function lockForMove<T extends keyof typeof MOVABLE_ROWS>(transaction: Prisma.TransactionClient, table: T, id: string, options: LockOptions = {}): Promise<MovableRow<T>> {
  if (!(await lockRow(transaction, table, id, options))) return null as MovableRow<T>;
  return (await MOVABLE_ROWS[table](transaction, id)) as MovableRow<T>;
}
