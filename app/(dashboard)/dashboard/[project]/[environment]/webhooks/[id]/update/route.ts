// POST /dashboard/{project}/{environment}/webhooks/{id}/update — the endpoint page's Edit form (docs/dashboard.md):
// its URL, events and description through the API's service, then 303 back to the page; refused answers come back
// to the form.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { dashboardWebhookParamsSchema, webhookEndpointFormSchema } from "@/lib/dashboard/schemas";
import { submitUpdateWebhookEndpointForm } from "@/lib/dashboard/webhook-forms";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/webhooks/{id}/update", {
  POST: endpoint({
    summary: "Edit a webhook endpoint from the dashboard",
    params: dashboardWebhookParamsSchema,
    body: webhookEndpointFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "manage_webhooks", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["environment_mismatch"],
    handler: async ({ request, member, params, body }) =>
      seeOther(await submitUpdateWebhookEndpointForm({ member, params, endpointId: params.id, form: body, ...postedFrom(request) })),
  }),
});
