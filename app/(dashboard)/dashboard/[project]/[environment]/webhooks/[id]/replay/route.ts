// POST /dashboard/{project}/{environment}/webhooks/{id}/replay — an attempt's Replay button on the endpoint page
// (docs/dashboard.md): the event queued again to this endpoint only through the API's service, then 303 back.
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
    auth: { kind: "dashboard_member", action: "manage_webhooks", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["environment_mismatch", "resource_not_found", "conflict"],
    handler: async ({ request, member, params, body }) => seeOther(await submitReplayEventForm({ member, params, endpointId: params.id, form: body, ...postedFrom(request) })),
  }),
});
