// GET, POST, DELETE /partner/v1/webhook_endpoints/{id} — read, update, delete one endpoint.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { updateWebhookEndpointBodySchema, webhookEndpointIdParamsSchema } from "@/lib/webhooks/schemas";
import { deleteWebhookEndpoint, retrieveWebhookEndpoint, updateWebhookEndpoint } from "@/lib/webhooks/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/webhook_endpoints/{id}", {
  GET: endpoint({
    params: webhookEndpointIdParamsSchema,
    handler: async ({ principal, params }) => ok(await retrieveWebhookEndpoint(principal, params.id)),
  }),
  POST: endpoint({
    params: webhookEndpointIdParamsSchema,
    body: updateWebhookEndpointBodySchema,
    handler: async ({ principal, params, body }) => ok(await updateWebhookEndpoint(principal, params.id, body)),
  }),
  DELETE: endpoint({
    params: webhookEndpointIdParamsSchema,
    handler: async ({ principal, params }) => ok(await deleteWebhookEndpoint(principal, params.id)),
  }),
});
