// POST /partner/v1/test_helpers/payments/{id}/fail — sandbox test helper: the bank fails a provisioned or pending payment.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { failPaymentBodySchema, paymentIdParamsSchema, paymentSchema } from "@/lib/payments/schemas";
import { recordBankAnswer } from "@/lib/accounts/payment-settlement";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/test_helpers/payments/{id}/fail", {
  POST: endpoint({
    summary: "Fail a provisioned or pending payment with a failure code (sandbox)",
    auth: { kind: "bearer", scope: "applications:write", sandboxOnly: true },
    params: paymentIdParamsSchema,
    body: failPaymentBodySchema,
    responses: { 200: paymentSchema },
    errors: ["not_found", "conflict"],
    handler: async ({ tenant, now, params, body }) =>
      ok(await recordBankAnswer({ tenant, now, id: params.id, answer: { outcome: "failed", failureCode: body.failure_code } })),
  }),
});
