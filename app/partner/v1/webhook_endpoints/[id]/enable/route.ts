// POST /partner/v1/webhook_endpoints/{id}/enable — re-enable a disabled endpoint (spec 4.6, 3.5).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { webhookEndpointIdParamsSchema } from "@/lib/webhooks/schemas";
import { enableWebhookEndpoint } from "@/lib/webhooks/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/webhook_endpoints/{id}/enable", {
  POST: endpoint({
    scope: "webhooks:manage",
    params: webhookEndpointIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await enableWebhookEndpoint({ tenant, id: params.id })),
  }),
});
