// GET /partner/v1/payments — the project's payments, newest first (spec 4.4, 4.11).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { listPaymentsQuerySchema, paymentListSchema } from "@/lib/payments/schemas";
import { listPayments } from "@/lib/payments/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/payments", {
  GET: endpoint({
    summary: "List payments",
    auth: { kind: "bearer", scope: "payments:read" },
    query: listPaymentsQuerySchema,
    responses: { 200: paymentListSchema },
    errors: ["not_found"],
    handler: async ({ tenant, query, context }) => ok(await listPayments({ tenant, query, url: context.url.pathname })),
  }),
});
