// POST /partner/v1/test_helpers/payments/{id}/settle — sandbox test helper: the bank settles a provisioned or pending payment.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { paymentIdParamsSchema, paymentSchema } from "@/lib/payments/schemas";
import { recordBankAnswer } from "@/lib/accounts/payment-settlement";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/test_helpers/payments/{id}/settle", {
  POST: endpoint({
    summary: "Settle a provisioned or pending payment (sandbox)",
    auth: { kind: "bearer", scope: "applications:write", sandboxOnly: true },
    params: paymentIdParamsSchema,
    responses: { 200: paymentSchema },
    errors: ["not_found", "conflict"],
    handler: async ({ tenant, now, params }) => ok(await recordBankAnswer({ tenant, now, id: params.id, answer: { outcome: "settled" } })),
  }),
});
