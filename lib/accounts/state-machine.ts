// The account lifecycle (spec 3.2; the spec leaves the moves to us, the choices are docs/accounts.md's
// "Statuses"), made through lib/lifecycle.ts, with the tables of its direct-debit mandate and its instalments.
// An account opens `performing` with `account.activated` (lib/accounts/funding.ts); settled and closed are final.
import type { Account, Instalment, Prisma } from "../generated/prisma/client";
import { clock } from "../clock";
import { canMove, transition, type Lifecycle } from "../lifecycle";
import { lockRow, type LockOptions } from "../row-lock";
import type { AccountStatus } from "./schemas";
import { serializeMandate } from "./serialize";

const OPEN = ["performing", "in_arrears", "forborne"] as const;

export const ACCOUNT_TRANSITIONS = {
  fall_into_arrears: { from: ["performing"], to: "in_arrears", events: ["account.updated"] },
  clear_arrears: { from: ["in_arrears"], to: "performing", events: ["account.updated"] },
  agree_forbearance: { from: ["performing", "in_arrears"], to: "forborne", events: ["account.updated"] },
  end_forbearance: { from: ["forborne"], to: "performing", events: ["account.updated"] },
  settle: { from: OPEN, to: "settled", events: ["account.updated", "account.closed"] },
  write_off: { from: OPEN, to: "closed", events: ["account.updated", "account.closed"] },
} as const;

export type AccountTrigger = keyof typeof ACCOUNT_TRANSITIONS;

export const ACCOUNT_LIFECYCLE: Lifecycle<AccountStatus, AccountTrigger> = {
  object: "account",
  moves: ACCOUNT_TRANSITIONS,
  said: {
    fall_into_arrears: "put into arrears",
    clear_arrears: "cleared of arrears",
    agree_forbearance: "put under a forbearance arrangement",
    end_forbearance: "taken out of forbearance",
    settle: "settled",
    write_off: "written off",
  },
};

export const MANDATE_LIFECYCLE: Lifecycle<Account["mandateStatus"], "revoke"> = {
  object: "mandate",
  moves: { revoke: { from: ["active"], to: "revoked", events: ["mandate.revoked"] } },
  said: { revoke: "revoked" },
};

const UNPAID = ["scheduled", "missed", "partially_paid"] as const;

/** An instalment moves with the money applied to it (lib/accounts/allocation.ts); the account's events carry it. */
export const INSTALMENT_LIFECYCLE: Lifecycle<Instalment["status"], "pay" | "pay_in_part" | "miss"> = {
  object: "instalment",
  moves: {
    pay: { from: UNPAID, to: "paid", events: [] },
    pay_in_part: { from: UNPAID, to: "partially_paid", events: [] },
    miss: { from: ["scheduled"], to: "missed", events: [] },
  },
  said: { pay: "paid", pay_in_part: "paid in part", miss: "missed" },
};

export const canTransitionAccount = (status: AccountStatus, trigger: AccountTrigger) => canMove(ACCOUNT_LIFECYCLE, status, trigger);

/** Reads an account and locks its row until the transaction ends (see lib/row-lock.ts). */
export async function lockAccount(transaction: Prisma.TransactionClient, id: string, options: LockOptions = {}): Promise<Account | null> {
  if (!(await lockRow(transaction, "accounts", id, options))) return null;
  return transaction.account.findUnique({ where: { id } });
}

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
      if (!(OPEN as readonly AccountStatus[]).includes(to)) await transaction.application.update({ where: { id: updated.applicationId }, data: { endedAt: clock.now() } });
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
