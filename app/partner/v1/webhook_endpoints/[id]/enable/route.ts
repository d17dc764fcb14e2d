// POST /partner/v1/webhook_endpoints/{id}/enable — re-enable a disabled endpoint (spec 4.6, 3.5).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { webhookEndpointIdParamsSchema } from "@/lib/webhooks/schemas";
import { enableWebhookEndpoint } from "@/lib/webhooks/service";
import { webhookEndpointSchema } from "@/lib/webhooks/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/webhook_endpoints/{id}/enable", {
  POST: endpoint({
    summary: "Enable a webhook endpoint",
    description: "Turns a disabled endpoint back on, whether you disabled it or it was disabled for failing.",
    responses: { 200: webhookEndpointSchema },
    auth: { kind: "bearer", scope: "webhooks:manage" },
    params: webhookEndpointIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await enableWebhookEndpoint({ tenant, id: params.id })),
  }),
});
