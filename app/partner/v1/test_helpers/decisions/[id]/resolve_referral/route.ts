// POST /partner/v1/test_helpers/decisions/{id}/resolve_referral — sandbox test helper: an underwriter's answer.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { decisionIdParamsSchema, resolveReferralBodySchema } from "@/lib/decisions/schemas";
import { resolveReferralAsUnderwriter } from "@/lib/applications/test-helpers";
import { decisionSchema } from "@/lib/decisions/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/test_helpers/decisions/{id}/resolve_referral", {
  POST: endpoint({
    summary: "Answer a referred decision as an underwriter (sandbox)",
    responses: { 200: decisionSchema },
    errors: ["conflict"],
    auth: { kind: "bearer", scope: "applications:write", sandboxOnly: true },
    params: decisionIdParamsSchema,
    body: resolveReferralBodySchema,
    handler: async ({ tenant, now, params, body }) => ok(await resolveReferralAsUnderwriter({ tenant, now, decisionId: params.id, ...body })),
  }),
});
