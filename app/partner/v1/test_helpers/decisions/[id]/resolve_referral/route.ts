// POST /partner/v1/test_helpers/decisions/{id}/resolve_referral — sandbox test helper: an underwriter's answer.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { decisionIdParamsSchema, resolveReferralBodySchema } from "@/lib/decisions/schemas";
import { resolveReferralAsUnderwriter } from "@/lib/applications/test-helpers";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/test_helpers/decisions/{id}/resolve_referral", {
  POST: endpoint({
    sandboxOnly: true,
    params: decisionIdParamsSchema,
    body: resolveReferralBodySchema,
    handler: async ({ principal, params, body }) => ok(await resolveReferralAsUnderwriter(principal, params.id, body)),
  }),
});
