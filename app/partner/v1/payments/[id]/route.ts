// GET /partner/v1/payments/{id} — one payment and where it stands (spec 4.4, 2.6).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { paymentIdParamsSchema, paymentSchema } from "@/lib/payments/schemas";
import { retrievePayment } from "@/lib/payments/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/payments/{id}", {
  GET: endpoint({
    summary: "Retrieve a payment",
    auth: { kind: "bearer", scope: "payments:read" },
    params: paymentIdParamsSchema,
    responses: { 200: paymentSchema },
    errors: ["not_found"],
    handler: async ({ tenant, params }) => ok(await retrievePayment({ tenant, id: params.id })),
  }),
});
