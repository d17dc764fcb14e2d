// GET /partner/v1/payouts/{id} — one payout with its statement (beta; spec 2.5; docs/beta.md).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { retrievePayout } from "@/lib/revenue-share/payouts";
import { payoutIdParamsSchema, payoutWithStatementSchema } from "@/lib/revenue-share/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/payouts/{id}", {
  GET: endpoint({
    summary: "Retrieve a payout with its statement (beta)",
    description: "The statement has a line per introduction the payout pays for; their `share_pence` sum to `gross_pence`.",
    responses: { 200: payoutWithStatementSchema },
    errors: ["not_found", "environment_mismatch"],
    auth: { kind: "bearer", scope: "accounts.read", capability: "beta" },
    params: payoutIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await retrievePayout({ tenant, id: params.id })),
  }),
});
