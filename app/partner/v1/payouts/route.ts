// GET /partner/v1/payouts — revenue-share payouts owed and paid (beta; spec 2.5, 4.3; docs/beta.md).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { listPayouts } from "@/lib/revenue-share/payouts";
import { listPayoutsQuerySchema, payoutListSchema } from "@/lib/revenue-share/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/payouts", {
  GET: endpoint({
    summary: "List payouts (beta)",
    description: "Newest first, filtered by `status`, `sub_account_id` or `period` (YYYY-MM).",
    responses: { 200: payoutListSchema },
    auth: { kind: "bearer", scope: "accounts.read", capability: "beta" },
    query: listPayoutsQuerySchema,
    handler: async ({ tenant, query, context }) => ok(await listPayouts({ tenant, query, url: context.url.pathname })),
  }),
});
