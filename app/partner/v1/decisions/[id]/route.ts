// GET /partner/v1/decisions/{id} — outcome, conditions and offer terms (spec 4.4, 2.3).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { decisionIdParamsSchema } from "@/lib/decisions/schemas";
import { retrieveDecision } from "@/lib/decisions/service";
import { decisionSchema } from "@/lib/decisions/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/decisions/{id}", {
  GET: endpoint({
    summary: "Retrieve a decision",
    description: "The outcome, decline reasons, conditions and, on approval, the offer with its first repayments.",
    responses: { 200: decisionSchema },
    auth: { kind: "bearer", scope: "decisions:read" },
    params: decisionIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await retrieveDecision({ tenant, id: params.id })),
  }),
});
