// POST /dashboard/{project}/{environment}/webhooks/{id}/enable — the endpoint page's Enable button (docs/dashboard.md,
// spec 3.5): enabled again through the API's service, then 303 back.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { dashboardWebhookParamsSchema, webhookEndpointStateFormSchema } from "@/lib/dashboard/schemas";
import { submitWebhookEndpointStateForm } from "@/lib/dashboard/webhook-forms";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/webhooks/{id}/enable", {
  POST: endpoint({
    summary: "Enable a webhook endpoint from the dashboard",
    params: dashboardWebhookParamsSchema,
    body: webhookEndpointStateFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "manage_webhooks", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["environment_mismatch", "validation_failed"],
    handler: async ({ request, member, params, body }) =>
      seeOther(await submitWebhookEndpointStateForm({ member, params, endpointId: params.id, form: body, ...postedFrom(request), enabled: true })),
  }),
});
