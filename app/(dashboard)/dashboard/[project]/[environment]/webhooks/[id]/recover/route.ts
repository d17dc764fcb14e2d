// POST /dashboard/{project}/{environment}/webhooks/{id}/recover — the endpoint page's Recover failed since form
// (docs/dashboard.md): its failed deliveries since the time given queued again through the API's service, then 303
// back saying how many. A refused time comes back to the form.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { dashboardWebhookParamsSchema, recoverDeliveriesFormSchema } from "@/lib/dashboard/schemas";
import { submitRecoverDeliveriesForm } from "@/lib/dashboard/webhook-forms";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/webhooks/{id}/recover", {
  POST: endpoint({
    summary: "Recover a webhook endpoint's failed deliveries from the dashboard",
    params: dashboardWebhookParamsSchema,
    body: recoverDeliveriesFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "manage_webhooks", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["environment_mismatch", "conflict"],
    handler: async ({ request, member, params, body }) =>
      seeOther(await submitRecoverDeliveriesForm({ member, params, endpointId: params.id, form: body, ...postedFrom(request) })),
  }),
});
