// How a payment row moves (its table: lib/payments/state-machine.ts): read under its row lock, then moved with
// its timestamps and its event in the caller's transaction. What a settlement does to an account (the ledger,
// the balance) is the accounts domain's: lib/accounts/ledger.ts `settleAccountPayment` moves the payment here.
import type { Payment, Prisma } from "../generated/prisma/client";
import { transition } from "../lifecycle";
import { lockForMove, type LockOptions } from "../row-lock";
import { serializePayment } from "./serialize";
import { type PaymentFailureCode } from "./schemas";
import { PAYMENT_LIFECYCLE, type PaymentTrigger } from "./state-machine";

/** Reads a payment and locks its row until the transaction ends (see lib/row-lock.ts). */
export const lockPayment = (transaction: Prisma.TransactionClient, id: string, options?: LockOptions) => lockForMove(transaction, "payments", id, options);

/** Moves a locked payment by `trigger` in `transaction`, with its event; a failure needs its `failureCode`. */
export async function transitionPayment(
  transaction: Prisma.TransactionClient,
  payment: Payment,
  trigger: PaymentTrigger,
  options: { now: Date; failureCode?: PaymentFailureCode },
): Promise<Payment> {
  if (trigger === "fail" && !options.failureCode) throw new Error("A payment fails with a failure code");
  const stamps = { settle: { settledAt: options.now }, fail: { failedAt: options.now, failureCode: options.failureCode }, submit: {} }[trigger];
  return transition(transaction, PAYMENT_LIFECYCLE, trigger, {
    status: payment.status,
    now: options.now,
    write: (to) => transaction.payment.update({ where: { id: payment.id }, data: { ...stamps, status: to, updatedAt: options.now } }),
    object: serializePayment,
  });
}
