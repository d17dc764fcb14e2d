// POST /partner/v1/accounts/{id}/drawdowns — draw funds from a Flex facility; 201 with the disbursement (docs/accounts.md).
import { created, defineRoute, endpoint } from "@/lib/http/route";
import { accountIdParamsSchema, drawdownBodySchema } from "@/lib/accounts/schemas";
import { drawDown } from "@/lib/accounts/service";
import { paymentSchema } from "@/lib/payments/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/accounts/{id}/drawdowns", {
  POST: endpoint({
    summary: "Draw funds from a Flex facility",
    auth: { kind: "bearer", scope: "accounts.manage" },
    params: accountIdParamsSchema,
    body: drawdownBodySchema,
    idempotent: true,
    responses: { 201: paymentSchema },
    errors: ["not_found", "conflict", "validation_failed"],
    handler: async ({ tenant, now, params, body, transaction }) => created(await drawDown({ tenant, now, id: params.id, input: body, transaction })),
  }),
});
