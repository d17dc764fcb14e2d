// POST /partner/v1/decisions/{id}/refresh — re-run the engine; same id, next version (spec 4.4).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { decisionIdParamsSchema, refreshDecisionBodySchema } from "@/lib/decisions/schemas";
import { refreshDecision } from "@/lib/decisions/service";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";
import { decisionSchema } from "@/lib/decisions/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/decisions/{id}/refresh", {
  POST: endpoint({
    summary: "Refresh a decision",
    description: "Re-runs decisioning on the application's current data: the same decision id, the next `version`.",
    responses: { 200: decisionSchema },
    errors: ["conflict", "decision_locked"],
    auth: { kind: "bearer", scope: "applications:write" },
    rateLimit: SUB_LIMITS.decisionsRefresh,
    params: decisionIdParamsSchema,
    body: refreshDecisionBodySchema,
    handler: async ({ tenant, now, params }) => ok(await refreshDecision({ tenant, now, id: params.id })),
  }),
});
