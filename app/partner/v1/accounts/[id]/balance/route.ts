// GET /partner/v1/accounts/{id}/balance — just the account's balance today (spec 4.3, 2.4).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { accountIdParamsSchema, balanceSchema } from "@/lib/accounts/schemas";
import { retrieveBalanceFor } from "@/lib/accounts/holder-reads";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/accounts/{id}/balance", {
  GET: endpoint({
    summary: "Retrieve an account's balance",
    auth: { kind: "bearer", scope: "accounts.read", person: "accounts.read" },
    params: accountIdParamsSchema,
    responses: { 200: balanceSchema },
    errors: ["not_found"],
    handler: async ({ reader, now, params }) => ok(await retrieveBalanceFor({ reader, now, id: params.id })),
  }),
});
