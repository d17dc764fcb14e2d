// The payment object (spec 2.6, with the fields it leaves to us) and its zod schema.
import { z } from "zod";
import { config } from "../env";
import type { Payment } from "../generated/prisma/client";
import { absoluteUrl, idOf, listEnvelopeSchema, metadataObject, pence, text, timestamp } from "../wire/response-schema";

export const PAYMENT_TYPES = ["disbursement", "collection", "payment_link", "refund"] as const;
export const PAYMENT_STATUSES = ["provisioned", "pending", "settled", "failed"] as const;
export const PAYMENT_FAILURE_CODES = ["bank_rejected", "disputed_by_customer", "insufficient_funds", "mandate_cancelled", "technical_error"] as const;
export type PaymentFailureCode = (typeof PAYMENT_FAILURE_CODES)[number];

export const paymentSchema = z
  .strictObject({
    id: idOf("pay"),
    object: z.literal("payment"),
    livemode: z.boolean(),
    type: z.enum(PAYMENT_TYPES),
    status: z.enum(PAYMENT_STATUSES),
    failure_code: z.enum(PAYMENT_FAILURE_CODES).nullable(),
    account_id: idOf("acc").nullable(),
    amount_pence: pence().min(0),
    currency: z.literal("gbp"),
    reference: text().nullable(),
    url: absoluteUrl().nullable().meta({ description: "A payment link's page, where the payer pays; null for other types." }),
    expires_at: timestamp().nullable().meta({ description: "When a payment link stops taking payment; null for other types." }),
    redirect_uri: text().nullable().meta({ description: "Where a payment link's page sends the payer back, with `payment_id` appended." }),
    metadata: metadataObject,
    created_at: timestamp(),
    settled_at: timestamp().nullable(),
  })
  .meta({ id: "Payment", description: "Money moving to or from an account (spec 2.6)." });

export const paymentListSchema = listEnvelopeSchema(paymentSchema);

/** A payment link's page on the hosted site. */
export function paymentLinkUrl(linkToken: string): string {
  return `${config().APPLY_URL}/pay/${linkToken}`;
}

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
    url: payment.linkToken ? paymentLinkUrl(payment.linkToken) : null,
    expires_at: payment.expiresAt?.toISOString() ?? null,
    redirect_uri: payment.redirectUri,
    metadata: payment.metadata as Record<string, string>,
    created_at: payment.createdAt.toISOString(),
    settled_at: payment.settledAt?.toISOString() ?? null,
  };
}

export type PaymentObject = ReturnType<typeof serializePayment>;
