// How an account row changes (its tables: lib/accounts/state-machine.ts): read under its row lock, then moved by
// the account's table or its mandate's, with the move's events in the caller's transaction.
import type { Account, Prisma } from "../generated/prisma/client";
import { clock } from "../clock";
import { transition } from "../lifecycle";
import { lockForMove, type LockOptions } from "../row-lock";
import type { AccountStatus } from "./schemas";
import { serializeMandate } from "./serialize";
import { ACCOUNT_LIFECYCLE, MANDATE_LIFECYCLE, OPEN_ACCOUNT_STATUSES, type AccountTrigger } from "./state-machine";

/** Reads an account and locks its row until the transaction ends (see lib/row-lock.ts). */
export const lockAccount = (transaction: Prisma.TransactionClient, id: string, options?: LockOptions) => lockForMove(transaction, "accounts", id, options);

export interface AccountTransitionOptions {
  now: Date;
  /** Other columns the move sets. */
  changes?: Omit<Prisma.AccountUpdateInput, "status" | "updatedAt">;
  /** The account object as the events carry it, rendered once from the moved row (it needs the schedule). */
  render: (account: Account) => Promise<object> | object;
}

/** Moves a locked account by `trigger` in `transaction`, writing its events; an illegal move is 409 `conflict`. */
export async function transitionAccount(transaction: Prisma.TransactionClient, account: Account, trigger: AccountTrigger, options: AccountTransitionOptions): Promise<Account> {
  let rendered: Promise<object> | object | undefined;
  return transition(transaction, ACCOUNT_LIFECYCLE, trigger, {
    status: account.status,
    now: options.now,
    write: async (to) => {
      const updated = await transaction.account.update({ where: { id: account.id }, data: { ...options.changes, status: to, updatedAt: options.now } });
      // The business relationship ends with the account: its application's personal data is kept for the period
      // a lender must keep it from now, in real time (lib/applications/personal-data.ts).
      if (!(OPEN_ACCOUNT_STATUSES as readonly AccountStatus[]).includes(to)) await transaction.application.update({ where: { id: updated.applicationId }, data: { endedAt: clock.now() } });
      return updated;
    },
    object: (moved) => (rendered ??= options.render(moved)),
  });
}

/** Revokes a locked account's direct-debit mandate, with `mandate.revoked`. */
export function revokeMandate(transaction: Prisma.TransactionClient, account: Account, now: Date): Promise<Account> {
  return transition(transaction, MANDATE_LIFECYCLE, "revoke", {
    status: account.mandateStatus,
    now,
    write: (to) => transaction.account.update({ where: { id: account.id }, data: { mandateStatus: to, mandateRevokedAt: now, updatedAt: now } }),
    object: serializeMandate,
  });
}
