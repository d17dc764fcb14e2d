// GET, POST, DELETE /partner/v1/webhook_endpoints/{id} — read, update, delete one endpoint.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { updateWebhookEndpointBodySchema, webhookEndpointIdParamsSchema } from "@/lib/webhooks/schemas";
import { deleteWebhookEndpoint, retrieveWebhookEndpoint, updateWebhookEndpoint } from "@/lib/webhooks/service";
import { deletedWebhookEndpointSchema, webhookEndpointSchema } from "@/lib/webhooks/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/webhook_endpoints/{id}", {
  GET: endpoint({
    summary: "Retrieve a webhook endpoint",
    responses: { 200: webhookEndpointSchema },
    auth: { kind: "bearer", scope: "webhooks:manage" },
    params: webhookEndpointIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await retrieveWebhookEndpoint({ tenant, id: params.id })),
  }),
  POST: endpoint({
    summary: "Update a webhook endpoint",
    responses: { 200: webhookEndpointSchema },
    errors: ["webhook_endpoint_url_invalid", "webhook_event_unknown"],
    auth: { kind: "bearer", scope: "webhooks:manage" },
    params: webhookEndpointIdParamsSchema,
    body: updateWebhookEndpointBodySchema,
    handler: async ({ tenant, params, body }) => ok(await updateWebhookEndpoint({ tenant, id: params.id, input: body })),
  }),
  DELETE: endpoint({
    summary: "Delete a webhook endpoint",
    description: "Deletes the endpoint and its delivery history.",
    responses: { 200: deletedWebhookEndpointSchema },
    auth: { kind: "bearer", scope: "webhooks:manage" },
    params: webhookEndpointIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await deleteWebhookEndpoint({ tenant, id: params.id })),
  }),
});
