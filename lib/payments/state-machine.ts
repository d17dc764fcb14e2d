// The payment lifecycle (spec 3.4), made through lib/lifecycle.ts. A payment is created `pending` (money asked
// of a bank: a disbursement, a direct-debit collection) or `provisioned` (a payment link not yet paid), and
// ends `settled` or `failed`. What a settlement does to an account (the ledger, the balance) is the accounts
// domain's: lib/accounts/ledger.ts `settleAccountPayment` moves the payment through here and posts it.
import type { Payment, Prisma } from "../generated/prisma/client";
import { recordEvents } from "../events/events";
import { newId } from "../ids";
import type { KeyEnvironment } from "../keys/secrets";
import { canMove, transition, type Lifecycle } from "../lifecycle";
import { lockRow } from "../row-lock";
import { serializePayment, type PaymentFailureCode } from "./serialize";

type PaymentStatus = Payment["status"];

export const PAYMENT_TRANSITIONS = {
  /** A provisioned payment link is paid into: the bank now holds the payment. */
  submit: { from: ["provisioned"], to: "pending", events: [] },
  settle: { from: ["pending"], to: "settled", events: ["payment.settled"] },
  fail: { from: ["provisioned", "pending"], to: "failed", events: ["payment.failed"] },
} as const;

export type PaymentTrigger = keyof typeof PAYMENT_TRANSITIONS;

export const PAYMENT_LIFECYCLE: Lifecycle<PaymentStatus, PaymentTrigger> = {
  object: "payment",
  moves: PAYMENT_TRANSITIONS,
  said: { submit: "submitted", settle: "settled", fail: "failed" },
};

export const canTransitionPayment = (status: PaymentStatus, trigger: PaymentTrigger) => canMove(PAYMENT_LIFECYCLE, status, trigger);

export interface NewPayment {
  projectId: string;
  environment: KeyEnvironment;
  accountId: string | null;
  type: Payment["type"];
  amountPence: number;
  reference: string | null;
  /** `pending` for money asked of a bank now; `provisioned` for a link waiting to be paid. */
  status: "pending" | "provisioned";
  /** A payment link's page token, form token, expiry and return address (lib/payments/links.ts). */
  link?: { linkToken: string; formToken: string; expiresAt: Date; redirectUri: string | null };
  metadata?: Record<string, string>;
}

/** Records a new payment with its `payment.created` event. */
export async function createPayment(transaction: Prisma.TransactionClient, data: NewPayment, now: Date): Promise<Payment> {
  const { link, metadata, ...fields } = data;
  const payment = await transaction.payment.create({
    data: { ...fields, ...link, metadata: metadata ?? {}, id: newId("payment"), failureCode: null, createdAt: now, updatedAt: now },
  });
  await recordEvents(transaction, [{ projectId: payment.projectId, environment: payment.environment, type: "payment.created", object: serializePayment(payment), createdAt: now }]);
  return payment;
}

export async function lockPayment(transaction: Prisma.TransactionClient, id: string): Promise<Payment | null> {
  if (!(await lockRow(transaction, "payments", id))) return null;
  return transaction.payment.findUnique({ where: { id } });
}

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
