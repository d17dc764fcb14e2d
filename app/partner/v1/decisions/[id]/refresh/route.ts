// POST /partner/v1/decisions/{id}/refresh — re-run the engine; same id, next version (spec 4.4).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { decisionIdParamsSchema, refreshDecisionBodySchema } from "@/lib/decisions/schemas";
import { refreshDecision } from "@/lib/decisions/service";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/decisions/{id}/refresh", {
  POST: endpoint({
    scope: "applications:write",
    rateLimit: SUB_LIMITS.decisionsRefresh,
    params: decisionIdParamsSchema,
    body: refreshDecisionBodySchema,
    handler: async ({ tenant, params }) => ok(await refreshDecision({ tenant, id: params.id })),
  }),
});
