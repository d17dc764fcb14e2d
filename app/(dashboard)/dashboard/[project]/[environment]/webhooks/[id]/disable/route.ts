// POST /dashboard/{project}/{environment}/webhooks/{id}/disable — the endpoint page's Disable button (docs/dashboard.md):
// the endpoint's lifecycle moves to disabled (its pending deliveries stop) through the API's service, then 303 back.
import { signedInUserIdOf } from "@/app/_auth/signed-in-user";
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { dashboardWebhookParamsSchema, webhookEndpointStateFormSchema } from "@/lib/dashboard/schemas";
import { submitWebhookEndpointStateForm } from "@/lib/dashboard/webhook-forms";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/webhooks/{id}/disable", {
  POST: endpoint({
    summary: "Disable a webhook endpoint from the dashboard",
    params: dashboardWebhookParamsSchema,
    body: webhookEndpointStateFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "none", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["csrf_token_invalid", "unauthenticated", "not_found", "role_forbidden", "environment_mismatch"],
    handler: async ({ request, params, body }) =>
      seeOther(await submitWebhookEndpointStateForm({ userId: await signedInUserIdOf(request), params, endpointId: params.id, form: body, ...postedFrom(request), enabled: false })),
  }),
});
