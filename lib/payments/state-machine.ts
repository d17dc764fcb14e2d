// The payment lifecycle (spec 3.4). A payment is created `pending` (money asked of a bank: a disbursement, a
// direct-debit collection) or `provisioned` (a payment link not yet paid) by lib/payments/create.ts, and ends
// `settled` or `failed`. Rows move through lib/payments/transition.ts.
import type { Payment } from "../generated/prisma/client";
import type { Lifecycle } from "../lifecycle";

const MOVES = {
  /** A provisioned payment link is paid into: the bank now holds the payment. */
  submit: { from: ["provisioned"], to: "pending", events: [] },
  settle: { from: ["pending"], to: "settled", events: ["payment.settled"] },
  fail: { from: ["provisioned", "pending"], to: "failed", events: ["payment.failed"] },
} as const;
export type PaymentTrigger = keyof typeof MOVES;

export const PAYMENT_LIFECYCLE: Lifecycle<Payment["status"], PaymentTrigger> = {
  object: "payment",
  moves: MOVES,
  said: { submit: "submitted", settle: "settled", fail: "failed" },
};
