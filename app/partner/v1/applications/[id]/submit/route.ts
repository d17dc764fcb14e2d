// POST /partner/v1/applications/{id}/submit — submit for decisioning once the applicant has consented (white-label; spec 3.1; docs/white-label.md).
import { submitCompletedApplication } from "@/lib/applications/applicant-actions";
import { applicationIdParamsSchema, applicationSchema, submitApplicationBodySchema } from "@/lib/applications/schemas";
import { defineRoute, endpoint, ok } from "@/lib/http/route";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/applications/{id}/submit", {
  POST: endpoint({
    summary: "Submit an application for decisioning",
    description: "Needs every required consent. The application moves to `submitted` and decisioning follows; `decision.completed` reports the outcome.",
    responses: { 200: applicationSchema },
    errors: ["not_found", "environment_mismatch", "conflict", "consent_required"],
    auth: { kind: "bearer", scope: "applications:write", capability: "white_label" },
    params: applicationIdParamsSchema,
    body: submitApplicationBodySchema,
    idempotent: true,
    handler: async ({ tenant, now, params, body, transaction }) =>
      ok(await submitCompletedApplication({ tenant, now, id: params.id, declaredAnnualTurnoverPence: body?.declared_annual_turnover_pence, transaction })),
  }),
});
