// A bank's answer on a payment, recorded as the bank would give it: the sandbox test helpers, the payment
// page's simulated bank and an operator's CLI (for a live payment while no provider reports outcomes) all come
// here. One transaction locks the account, then the payment (the order every mover takes), moves the payment
// through its state machine and, for a payment on an account, posts the ledger and the balance with it
// (lib/accounts/ledger.ts).
import { db } from "../db";
import { notFound } from "../errors";
import type { Payment, Prisma } from "../generated/prisma/client";
import { utcDate } from "./calendar";
import { failAccountPayment, settleAccountPayment } from "./ledger";
import { lockAccount } from "./transition";
import { assertMove } from "../lifecycle";
import { tenantObjectOrThrow, type Tenant } from "../tenant";
import { serializePayment } from "../payments/serialize";
import { type PaymentFailureCode } from "../payments/schemas";
import { PAYMENT_LIFECYCLE } from "../payments/state-machine";
import { lockPayment, transitionPayment } from "../payments/transition";

export type BankAnswer = { outcome: "settled" } | { outcome: "failed"; failureCode: PaymentFailureCode };

/**
 * Settles or fails a `provisioned` or `pending` payment in `transaction` (a provisioned link is paid into
 * first: `pending`, then `settled`). Any other status is 409 `conflict`.
 */
export async function answerPayment(transaction: Prisma.TransactionClient, found: Payment, answer: BankAnswer, now: Date): Promise<Payment> {
  const account = found.accountId ? await lockAccount(transaction, found.accountId) : null;
  let payment = (await lockPayment(transaction, found.id))!;
  // Checked before the account is touched: a provisioned link is paid into (`submit`) before it settles.
  assertMove(PAYMENT_LIFECYCLE, payment.status, answer.outcome === "failed" ? "fail" : payment.status === "provisioned" ? "submit" : "settle");
  const asOf = utcDate(now);
  if (answer.outcome === "failed") {
    if (account) return (await failAccountPayment(transaction, account, payment, { now, asOf, failureCode: answer.failureCode })).payment;
    return transitionPayment(transaction, payment, "fail", { now, failureCode: answer.failureCode });
  }
  if (payment.status === "provisioned") payment = await transitionPayment(transaction, payment, "submit", { now });
  if (account) return (await settleAccountPayment(transaction, account, payment, { now, asOf })).payment;
  return transitionPayment(transaction, payment, "settle", { now });
}

/** The project and environment of a payment, or null for an unknown id: whose clock the operator's answer reads. */
export async function paymentTenant(id: string): Promise<Tenant | null> {
  return db().payment.findUnique({ where: { id }, select: { projectId: true, environment: true } });
}

/**
 * Records a bank's answer on one payment, in its own transaction: the caller's (a tenant's, under the one
 * tenancy rule of lib/tenant.ts) or, without a tenant, any payment (the operator's CLI).
 */
export async function recordBankAnswer(options: { id: string; now: Date; tenant?: Tenant; answer: BankAnswer }) {
  return db().$transaction(async (transaction) => {
    const { tenant } = options;
    const found = await transaction.payment.findFirst({ where: { id: options.id, ...(tenant ? { projectId: tenant.projectId } : {}) } });
    const payment = tenant ? tenantObjectOrThrow(tenant, found, () => notFound("payment", options.id)) : found;
    if (!payment) throw notFound("payment", options.id);
    return serializePayment(await answerPayment(transaction, payment, options.answer, options.now));
  });
}
