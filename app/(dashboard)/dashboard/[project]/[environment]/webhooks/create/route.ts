// POST /dashboard/{project}/{environment}/webhooks/create — the Webhooks page's Add endpoint form (docs/dashboard.md):
// a new endpoint through the API's service, then 303 to its page, which shows its signing secret once. Refused
// answers come back to the form.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { dashboardParamsSchema, webhookEndpointFormSchema } from "@/lib/dashboard/schemas";
import { submitCreateWebhookEndpointForm } from "@/lib/dashboard/webhook-forms";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/webhooks/create", {
  POST: endpoint({
    summary: "Add a webhook endpoint from the dashboard",
    params: dashboardParamsSchema,
    body: webhookEndpointFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "manage_webhooks", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["webhook_endpoint_limit"],
    handler: async ({ request, member, params, body }) => seeOther(await submitCreateWebhookEndpointForm({ member, params, form: body, ...postedFrom(request) })),
  }),
});
