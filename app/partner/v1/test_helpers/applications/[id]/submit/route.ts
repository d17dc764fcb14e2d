// POST /partner/v1/test_helpers/applications/{id}/submit — sandbox test helper: completes the hosted journey as the applicant would, with consent.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { applicationIdParamsSchema, submitApplicationBodySchema } from "@/lib/applications/schemas";
import { submitAsApplicant } from "@/lib/applications/test-helpers";
import { applicationSchema } from "@/lib/applications/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/test_helpers/applications/{id}/submit", {
  POST: endpoint({
    summary: "Complete the hosted journey as the applicant would (sandbox)",
    description: "Records consent and submits the application; decisioning then runs as for a real applicant.",
    responses: { 200: applicationSchema },
    errors: ["conflict"],
    auth: { kind: "bearer", scope: "applications:write", sandboxOnly: true },
    params: applicationIdParamsSchema,
    body: submitApplicationBodySchema,
    handler: async ({ tenant, now, params, body }) => ok(await submitAsApplicant({ tenant, now, id: params.id, declaredAnnualTurnoverPence: body?.declared_annual_turnover_pence })),
  }),
});
