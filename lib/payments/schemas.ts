// The payment object's schema (spec 2.6) and the request schemas of the payments API (spec 4.4), its sandbox test
// helpers and the payment page's form.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { listQuerySchema } from "../wire/pagination";
import { metadataSchema } from "../wire/metadata";
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

const REFERENCE_MAX_LENGTH = 255;
const URI_MAX_LENGTH = 2048;

export const paymentIdParamsSchema = z.strictObject({ id: requestString().startsWith("pay_") });

export const listPaymentsQuerySchema = listQuerySchema({
  status: z.enum(PAYMENT_STATUSES).optional(),
  account_id: requestString().regex(/^acc_[0-9a-z]{1,64}$/, "An account id looks like acc_...").optional(),
});

export const createPaymentLinkBodySchema = z.strictObject({
  account_id: requestString().regex(/^acc_[0-9a-z]{1,64}$/, "An account id looks like acc_..."),
  amount_pence: z.int().min(1).meta({ description: "At most the account's `payoff_pence` today." }),
  reference: requestString().min(1).max(REFERENCE_MAX_LENGTH).optional(),
  redirect_uri: requestString().max(URI_MAX_LENGTH).pipe(z.url({ protocol: /^https?$/ })).optional(),
  metadata: metadataSchema.optional(),
});

export type CreatePaymentLinkInput = z.output<typeof createPaymentLinkBodySchema>;

/** The reasons a sandbox bank, or an operator recording a bank's answer, can fail a payment with. */
export const failPaymentBodySchema = z.strictObject({ failure_code: z.enum(PAYMENT_FAILURE_CODES) });

/** The payment page's simulated bank: which button was pressed, and the form's token (CSRF). */
export const bankResponseFormSchema = z.strictObject({
  decision: z.enum(["approve", "fail"]),
  form_token: requestString().min(1).max(128),
});

export const paymentLinkTokenParamsSchema = z.strictObject({ token: requestString().regex(/^[0-9A-Za-z]{32}$/) });
