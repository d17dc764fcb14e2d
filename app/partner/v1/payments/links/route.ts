// POST /partner/v1/payments/links — provision an open-banking payment link on an account (spec 4.4; docs/payments.md).
import { created, defineRoute, endpoint } from "@/lib/http/route";
import { createPaymentLink } from "@/lib/accounts/payment-links";
import { createPaymentLinkBodySchema, paymentSchema } from "@/lib/payments/schemas";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/payments/links", {
  POST: endpoint({
    summary: "Create a payment link",
    description: "A page where the payer pays `amount_pence` (at most the account's payoff today) from their bank; it takes payment for 24 hours.",
    auth: { kind: "bearer", scope: "payments:write" },
    rateLimit: SUB_LIMITS.paymentLinksCreate,
    body: createPaymentLinkBodySchema,
    idempotent: true,
    responses: { 201: paymentSchema },
    errors: ["not_found", "conflict", "validation_failed", "service_unavailable"],
    handler: async ({ tenant, now, body, transaction }) => created(await createPaymentLink({ tenant, now, input: body, transaction })),
  }),
});
