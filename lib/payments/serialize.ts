// The payment object (spec 2.6, with the fields it leaves to us); its zod schema is in ./schemas.ts.
import { config } from "../env";
import type { Payment } from "../generated/prisma/client";

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
