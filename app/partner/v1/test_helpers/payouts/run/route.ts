// POST /partner/v1/test_helpers/payouts/run — sandbox test helper: pays every sub-account now for what has been
// funded through it so far, without waiting for the month to close (beta; docs/beta.md, "Payouts").
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { payOutNow } from "@/lib/revenue-share/payouts";
import { payoutListSchema } from "@/lib/revenue-share/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/test_helpers/payouts/run", {
  POST: endpoint({
    summary: "Run the month's payouts now (sandbox, beta)",
    description: "Returns the payouts made, paid at once; a sub-account with nothing funded since its last payout gets none.",
    responses: { 200: payoutListSchema },
    auth: { kind: "bearer", scope: "accounts.manage", capability: "beta", sandboxOnly: true },
    idempotent: true,
    handler: async ({ tenant, now, transaction }) => ok(await payOutNow({ tenant, now, transaction })),
  }),
});
