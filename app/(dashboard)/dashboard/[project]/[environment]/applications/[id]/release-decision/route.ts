// POST /dashboard/{project}/{environment}/applications/{id}/release-decision — the application page's Release
// decision button (docs/dashboard.md; spec 2.3: only an owner-level release moves a locked decision): unlocks the
// application's decision, audited as `decision.released`, then 303 back to the application.
import { submitReleaseDecisionForm } from "@/lib/dashboard/decision-forms";
import { dashboardApplicationParamsSchema, releaseDecisionFormSchema } from "@/lib/dashboard/browse-schemas";
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/applications/{id}/release-decision", {
  POST: endpoint({
    summary: "Release a locked decision from the dashboard",
    params: dashboardApplicationParamsSchema,
    body: releaseDecisionFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "release_decision", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["conflict", "environment_mismatch"],
    handler: async ({ request, member, params, body }) =>
      seeOther(await submitReleaseDecisionForm({ member, params, applicationId: params.id, form: body, ...postedFrom(request) })),
  }),
});
