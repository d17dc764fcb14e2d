// GET /partner/v1/accounts/{id}/transactions — the account's immutable ledger, newest first (spec 4.3, 2.4).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { accountIdParamsSchema, listTransactionsQuerySchema, transactionListSchema } from "@/lib/accounts/schemas";
import { listTransactions } from "@/lib/accounts/queries";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/accounts/{id}/transactions", {
  GET: endpoint({
    summary: "List an account's ledger transactions",
    auth: { kind: "bearer", scope: "accounts.read" },
    params: accountIdParamsSchema,
    query: listTransactionsQuerySchema,
    responses: { 200: transactionListSchema },
    errors: ["not_found"],
    handler: async ({ tenant, params, query, context }) => ok(await listTransactions({ tenant, id: params.id, query, url: context.url.pathname })),
  }),
});
