// The payment object (spec 2.6, with the fields it leaves to us) and its zod schema.
import { z } from "zod";
import type { Payment } from "../generated/prisma/client";
import { requestString } from "../http/request-string";

export const PAYMENT_TYPES = ["disbursement", "collection", "payment_link", "refund"] as const;
export const PAYMENT_STATUSES = ["provisioned", "pending", "settled", "failed"] as const;
export const PAYMENT_FAILURE_CODES = ["bank_rejected", "disputed_by_customer", "insufficient_funds", "mandate_cancelled", "technical_error"] as const;
export type PaymentFailureCode = (typeof PAYMENT_FAILURE_CODES)[number];

export const paymentSchema = z.strictObject({
  id: requestString(),
  object: z.literal("payment"),
  livemode: z.boolean(),
  type: z.enum(PAYMENT_TYPES),
  status: z.enum(PAYMENT_STATUSES),
  failure_code: z.enum(PAYMENT_FAILURE_CODES).nullable(),
  account_id: requestString().nullable(),
  amount_pence: z.int().min(0),
  currency: z.literal("gbp"),
  reference: requestString().nullable(),
  created_at: z.iso.datetime(),
  settled_at: z.iso.datetime().nullable(),
});

export function serializePayment(payment: Payment) {
  return {
    id: payment.id,
    object: "payment" as const,
    livemode: payment.environment === "live",
    type: payment.type,
    status: payment.status,
    failure_code: payment.failureCode,
    account_id: payment.accountId,
    amount_pence: payment.amountPence,
    currency: "gbp" as const,
    reference: payment.reference,
    created_at: payment.createdAt.toISOString(),
    settled_at: payment.settledAt?.toISOString() ?? null,
  };
}

export type PaymentObject = ReturnType<typeof serializePayment>;
