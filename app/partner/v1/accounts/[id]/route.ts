// GET /partner/v1/accounts/{id} — one account with its balance and repayment schedule (spec 4.3, 2.4).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { accountIdParamsSchema, accountSchema } from "@/lib/accounts/schemas";
import { retrieveAccountFor } from "@/lib/accounts/holder-reads";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/accounts/{id}", {
  GET: endpoint({
    summary: "Retrieve an account with its schedule",
    auth: { kind: "bearer", scope: "accounts.read", person: "accounts.read" },
    params: accountIdParamsSchema,
    responses: { 200: accountSchema },
    errors: ["not_found"],
    handler: async ({ reader, now, params }) => ok(await retrieveAccountFor({ reader, now, id: params.id })),
  }),
});
