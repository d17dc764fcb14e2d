// GET, POST /partner/v1/webhook_endpoints — list and register webhook endpoints (spec 4.6, 2.7).
import { created, defineRoute, endpoint, ok } from "@/lib/http/route";
import { createWebhookEndpointBodySchema, listWebhookEndpointsQuerySchema } from "@/lib/webhooks/schemas";
import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/webhooks/service";
import { webhookEndpointListSchema, webhookEndpointWithSecretSchema } from "@/lib/webhooks/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/webhook_endpoints", {
  GET: endpoint({
    summary: "List webhook endpoints",
    responses: { 200: webhookEndpointListSchema },
    auth: { kind: "bearer", scope: "webhooks:manage" },
    query: listWebhookEndpointsQuerySchema,
    handler: async ({ tenant, query, context }) => ok(await listWebhookEndpoints({ tenant, query, url: context.url.pathname })),
  }),
  POST: endpoint({
    summary: "Register a webhook endpoint",
    description: "An https URL and the event types to send (`[\"*\"]` for all). The signing secret (`whsec_…`) is in the reply.",
    responses: { 201: webhookEndpointWithSecretSchema },
    errors: ["webhook_endpoint_limit", "webhook_endpoint_url_invalid", "webhook_event_unknown"],
    auth: { kind: "bearer", scope: "webhooks:manage" },
    body: createWebhookEndpointBodySchema,
    idempotent: true,
    secretFields: ["secret"],
    handler: async ({ tenant, body, transaction }) => created(await createWebhookEndpoint({ tenant, input: body, transaction })),
  }),
});
