// GET, POST, DELETE /partner/v1/webhook_endpoints/{id} — read, update, delete one endpoint.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { updateWebhookEndpointBodySchema, webhookEndpointIdParamsSchema } from "@/lib/webhooks/schemas";
import { deleteWebhookEndpoint, retrieveWebhookEndpoint, updateWebhookEndpoint } from "@/lib/webhooks/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/webhook_endpoints/{id}", {
  GET: endpoint({
    scope: "webhooks:manage",
    params: webhookEndpointIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await retrieveWebhookEndpoint({ tenant, id: params.id })),
  }),
  POST: endpoint({
    scope: "webhooks:manage",
    params: webhookEndpointIdParamsSchema,
    body: updateWebhookEndpointBodySchema,
    handler: async ({ tenant, params, body }) => ok(await updateWebhookEndpoint({ tenant, id: params.id, input: body })),
  }),
  DELETE: endpoint({
    scope: "webhooks:manage",
    params: webhookEndpointIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await deleteWebhookEndpoint({ tenant, id: params.id })),
  }),
});
