// GET, POST /partner/v1/webhook_endpoints — list and register webhook endpoints (spec 4.6, 2.7).
import { created, defineRoute, endpoint, ok } from "@/lib/http/route";
import { createWebhookEndpointBodySchema, listWebhookEndpointsQuerySchema } from "@/lib/webhooks/schemas";
import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/webhooks/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/webhook_endpoints", {
  GET: endpoint({
    query: listWebhookEndpointsQuerySchema,
    handler: async ({ principal, query, context }) => ok(await listWebhookEndpoints({ principal, query, url: context.url.pathname })),
  }),
  POST: endpoint({
    body: createWebhookEndpointBodySchema,
    idempotent: true,
    handler: async ({ principal, body, database }) => created(await createWebhookEndpoint(principal, body, database)),
  }),
});
