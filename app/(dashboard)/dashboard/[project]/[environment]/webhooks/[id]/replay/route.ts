// POST /dashboard/{project}/{environment}/webhooks/{id}/replay — an attempt's Replay button on the endpoint page
// (docs/dashboard.md): the event queued again to this endpoint only through the API's service, then 303 back.
import { signedInUserIdOf } from "@/app/_auth/signed-in-user";
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { dashboardWebhookParamsSchema, replayEventFormSchema } from "@/lib/dashboard/schemas";
import { submitReplayEventForm } from "@/lib/dashboard/webhook-forms";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/webhooks/{id}/replay", {
  POST: endpoint({
    summary: "Replay an event to one webhook endpoint from the dashboard",
    params: dashboardWebhookParamsSchema,
    body: replayEventFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "none", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["csrf_token_invalid", "unauthenticated", "not_found", "role_forbidden", "environment_mismatch", "resource_not_found", "conflict"],
    handler: async ({ request, params, body }) =>
      seeOther(await submitReplayEventForm({ userId: await signedInUserIdOf(request), params, endpointId: params.id, form: body, ...postedFrom(request) })),
  }),
});
