// POST /dashboard/{project}/{environment}/webhooks/{id}/roll — the endpoint page's Roll secret form (docs/dashboard.md):
// a new signing secret through the API's service, the old one signing too for the overlap given, then 303 back to the
// page, which shows the new secret once. A refused overlap comes back to the form.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { dashboardWebhookParamsSchema, rollKeyFormSchema } from "@/lib/dashboard/schemas";
import { submitRollWebhookSecretForm } from "@/lib/dashboard/webhook-forms";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/webhooks/{id}/roll", {
  POST: endpoint({
    summary: "Roll a webhook endpoint's signing secret from the dashboard",
    params: dashboardWebhookParamsSchema,
    body: rollKeyFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "manage_webhooks", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["environment_mismatch"],
    handler: async ({ request, member, params, body }) =>
      seeOther(await submitRollWebhookSecretForm({ member, params, endpointId: params.id, form: body, ...postedFrom(request) })),
  }),
});
