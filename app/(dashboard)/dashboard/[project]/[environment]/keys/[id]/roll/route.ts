// POST /dashboard/{project}/{environment}/keys/{id}/roll — the keys page's Roll form (docs/dashboard.md): a
// successor through the API's service, the predecessor working for the overlap given, then 303 back to the page,
// which shows the successor's secret once and the predecessor's expiry.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { submitRollKeyForm } from "@/lib/dashboard/key-forms";
import { dashboardKeyParamsSchema, rollKeyFormSchema } from "@/lib/dashboard/schemas";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/keys/{id}/roll", {
  POST: endpoint({
    summary: "Roll an API key from the dashboard",
    params: dashboardKeyParamsSchema,
    body: rollKeyFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "roll_key", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["conflict", "environment_mismatch"],
    handler: async ({ request, member, params, body }) => seeOther(await submitRollKeyForm({ member, params, keyId: params.id, form: body, ...postedFrom(request) })),
  }),
});
