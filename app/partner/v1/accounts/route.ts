// GET /partner/v1/accounts — the project's servicing accounts, newest first (spec 4.3, 4.11).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { accountListSchema, listAccountsQuerySchema } from "@/lib/accounts/schemas";
import { listAccounts } from "@/lib/accounts/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/accounts", {
  GET: endpoint({
    summary: "List accounts",
    auth: { kind: "bearer", scope: "accounts.read" },
    query: listAccountsQuerySchema,
    responses: { 200: accountListSchema },
    errors: ["not_found"],
    handler: async ({ tenant, now, query, context }) => ok(await listAccounts({ tenant, now, query, url: context.url.pathname })),
  }),
});
