// GET, POST /partner/v1/sub-accounts — list and create sub-accounts (beta; spec 2.5, 4.3; docs/beta.md).
import { created, defineRoute, endpoint, ok } from "@/lib/http/route";
import { createSubAccountBodySchema, listSubAccountsQuerySchema, subAccountListSchema, subAccountSchema } from "@/lib/revenue-share/schemas";
import { createSubAccount, listSubAccounts } from "@/lib/revenue-share/sub-accounts";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/sub-accounts", {
  GET: endpoint({
    summary: "List sub-accounts (beta)",
    responses: { 200: subAccountListSchema },
    auth: { kind: "bearer", scope: "accounts.read", capability: "beta" },
    query: listSubAccountsQuerySchema,
    handler: async ({ tenant, query, context }) => ok(await listSubAccounts({ tenant, query, url: context.url.pathname })),
  }),
  POST: endpoint({
    summary: "Create a sub-account (beta)",
    description:
      "A distributor you originate applications through (send its id as `sub_account_id` when you create one). `revenue_share_bps` " +
      "defaults to your project's master rate, which is also the most it may be.",
    responses: { 201: subAccountSchema },
    auth: { kind: "bearer", scope: "accounts.manage", capability: "beta" },
    body: createSubAccountBodySchema,
    idempotent: true,
    handler: async ({ tenant, now, body, transaction }) => created(await createSubAccount({ tenant, now, input: body, transaction })),
  }),
});
