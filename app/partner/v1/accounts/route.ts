// GET /partner/v1/accounts — the project's servicing accounts, or a signed-in person's company's, newest first (spec 4.3, 4.11).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { accountListSchema, listAccountsQuerySchema } from "@/lib/accounts/schemas";
import { listAccountsFor } from "@/lib/accounts/holder-reads";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/accounts", {
  GET: endpoint({
    summary: "List accounts",
    auth: { kind: "bearer", scope: "accounts.read", person: "accounts.read" },
    query: listAccountsQuerySchema,
    responses: { 200: accountListSchema },
    errors: ["not_found"],
    handler: async ({ reader, now, query, context }) => ok(await listAccountsFor({ reader, now, query, url: context.url.pathname })),
  }),
});
