// GET /partner/v1/accounts/{id}/transactions — the account's immutable ledger, newest first (spec 4.3, 2.4).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { accountIdParamsSchema, listTransactionsQuerySchema, transactionListSchema } from "@/lib/accounts/schemas";
import { listTransactionsFor } from "@/lib/accounts/holder-reads";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/accounts/{id}/transactions", {
  GET: endpoint({
    summary: "List an account's ledger transactions",
    auth: { kind: "bearer", scope: "accounts.read", person: "accounts.read" },
    params: accountIdParamsSchema,
    query: listTransactionsQuerySchema,
    responses: { 200: transactionListSchema },
    errors: ["not_found"],
    handler: async ({ reader, params, query, context }) => ok(await listTransactionsFor({ reader, id: params.id, query, url: context.url.pathname })),
  }),
});
