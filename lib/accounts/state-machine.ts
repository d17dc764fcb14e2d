// The account lifecycle (spec 3.2; the spec leaves the moves to us): the one table of allowed moves and the one
// function that makes them, writing the change and its events in the caller's transaction. Every status change
// fires `account.updated`; settling and closing also fire `account.closed`.
//
//   performing  → in_arrears   a collection fails (arrears_pence above zero)
//   in_arrears  → performing   the arrears are cleared
//   performing, in_arrears → forborne   a hardship arrangement is agreed
//   forborne    → performing   the arrangement ends (then → in_arrears at once if arrears remain)
//   performing, in_arrears, forborne → settled   repaid in full (the last instalment, or early at the payoff)
//   performing, in_arrears, forborne → closed    written off
// An account opens `performing` with `account.activated` (lib/accounts/funding.ts); settled and closed are final.
import type { Account, Prisma } from "../generated/prisma/client";
import { clock } from "../clock";
import { ApiError } from "../errors";
import { recordEvents, type EventType } from "../events/events";
import { lockRow, type LockOptions } from "../row-lock";
import type { AccountStatus } from "./schemas";

export interface AccountTransitionRule {
  from: readonly AccountStatus[];
  to: AccountStatus;
  events: readonly EventType[];
}

const OPEN: readonly AccountStatus[] = ["performing", "in_arrears", "forborne"];

export const ACCOUNT_TRANSITIONS = {
  fall_into_arrears: { from: ["performing"], to: "in_arrears", events: ["account.updated"] },
  clear_arrears: { from: ["in_arrears"], to: "performing", events: ["account.updated"] },
  agree_forbearance: { from: ["performing", "in_arrears"], to: "forborne", events: ["account.updated"] },
  end_forbearance: { from: ["forborne"], to: "performing", events: ["account.updated"] },
  settle: { from: OPEN, to: "settled", events: ["account.updated", "account.closed"] },
  write_off: { from: OPEN, to: "closed", events: ["account.updated", "account.closed"] },
} as const satisfies Record<string, AccountTransitionRule>;

export type AccountTrigger = keyof typeof ACCOUNT_TRANSITIONS;

export function canTransitionAccount(status: AccountStatus, trigger: AccountTrigger): boolean {
  return (ACCOUNT_TRANSITIONS[trigger].from as readonly AccountStatus[]).includes(status);
}

const PROSE: Record<AccountTrigger, string> = {
  fall_into_arrears: "put into arrears",
  clear_arrears: "cleared of arrears",
  agree_forbearance: "put under a forbearance arrangement",
  end_forbearance: "taken out of forbearance",
  settle: "settled",
  write_off: "written off",
};

export class IllegalAccountTransitionError extends ApiError {
  readonly from: AccountStatus;
  readonly trigger: AccountTrigger;

  constructor(from: AccountStatus, trigger: AccountTrigger) {
    super("conflict", { message: `An account that is ${from} cannot be ${PROSE[trigger]}.` });
    this.from = from;
    this.trigger = trigger;
  }
}

/** Reads an account and locks its row until the transaction ends (see lib/row-lock.ts). */
export async function lockAccount(transaction: Prisma.TransactionClient, id: string, options: LockOptions = {}): Promise<Account | null> {
  if (!(await lockRow(transaction, "accounts", id, options))) return null;
  return transaction.account.findUnique({ where: { id } });
}

export interface AccountTransitionOptions {
  now: Date;
  /** Other columns the move sets. */
  changes?: Omit<Prisma.AccountUpdateInput, "status" | "updatedAt">;
  /** The account object as the events carry it, rendered from the moved row (it needs the schedule). */
  render: (account: Account) => Promise<object> | object;
}

/**
 * Moves a locked account by `trigger` inside `transaction`, writing its events. Throws
 * `IllegalAccountTransitionError` (409 `conflict`) when the table does not allow the move.
 */
export async function transitionAccount(transaction: Prisma.TransactionClient, account: Account, trigger: AccountTrigger, options: AccountTransitionOptions): Promise<Account> {
  const rule: AccountTransitionRule = ACCOUNT_TRANSITIONS[trigger];
  if (!canTransitionAccount(account.status, trigger)) throw new IllegalAccountTransitionError(account.status, trigger);
  const updated = await transaction.account.update({
    where: { id: account.id },
    data: { ...options.changes, status: rule.to, updatedAt: options.now },
  });
  if (!OPEN.includes(rule.to)) {
    // The business relationship ends with the account: its application's personal data is kept for the period
    // a lender must keep it from now, in real time (lib/applications/personal-data.ts).
    await transaction.application.update({ where: { id: updated.applicationId }, data: { endedAt: clock.now() } });
  }
  const object = await options.render(updated);
  await recordEvents(
    transaction,
    rule.events.map((type) => ({ projectId: updated.projectId, environment: updated.environment, type, object, createdAt: options.now })),
  );
  return updated;
}
