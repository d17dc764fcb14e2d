// POST /partner/v1/decisions/{id}/refresh — re-run the engine; same id, next version (spec 4.4). 1 req/s.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { decisionIdParamsSchema, refreshDecisionBodySchema } from "@/lib/decisions/schemas";
import { refreshDecision } from "@/lib/decisions/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/decisions/{id}/refresh", {
  POST: endpoint({
    params: decisionIdParamsSchema,
    body: refreshDecisionBodySchema,
    handler: async ({ principal, params }) => ok(await refreshDecision(principal, params.id)),
  }),
});
