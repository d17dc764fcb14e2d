// Forbearance (docs/accounts.md, "Statuses"): a hardship arrangement agreed with the borrower, by an operator
// (`npm run cli -- account forbear`), until a date or until ended by hand. On its end date the daily servicing
// run ends it before collecting anything due that day, so the day's collection is judged as for any account.
import type { Account, Prisma } from "../generated/prisma/client";
import { arrearsPence } from "./allocation";
import { instalmentsOf, renderAccount } from "./ledger";
import { transitionAccount } from "./transition";

/** Ends a locked account's arrangement: back to `performing`, and on to `in_arrears` at once if arrears remain. */
export async function endForbearanceNow(transaction: Prisma.TransactionClient, account: Account, options: { now: Date; asOf: string }): Promise<Account> {
  const render = (moved: Account) => renderAccount(transaction, moved, options.asOf);
  const performing = await transitionAccount(transaction, account, "end_forbearance", { now: options.now, changes: { forborneUntil: null }, render });
  if (arrearsPence(await instalmentsOf(transaction, account.id)) === 0) return performing;
  return transitionAccount(transaction, performing, "fall_into_arrears", { now: options.now, render });
}

/** Whether a forborne account's arrangement has reached its end date by `asOf`. */
export function forbearanceLapsed(account: Pick<Account, "status" | "forborneUntil">, asOf: string): boolean {
  return account.status === "forborne" && account.forborneUntil !== null && account.forborneUntil <= asOf;
}

/** Ends a locked account's arrangement if its end date has come by `asOf`; otherwise leaves it. */
export async function endLapsedForbearance(transaction: Prisma.TransactionClient, account: Account, options: { now: Date; asOf: string }): Promise<Account> {
  if (!forbearanceLapsed(account, options.asOf)) return account;
  return endForbearanceNow(transaction, account, { now: options.now, asOf: account.forborneUntil! });
}
