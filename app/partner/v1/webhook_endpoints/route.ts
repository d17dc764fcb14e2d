// GET, POST /partner/v1/webhook_endpoints — list and register webhook endpoints (spec 4.6, 2.7).
import { created, defineRoute, endpoint, ok } from "@/lib/http/route";
import { createWebhookEndpointBodySchema, listWebhookEndpointsQuerySchema } from "@/lib/webhooks/schemas";
import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/webhooks/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/webhook_endpoints", {
  GET: endpoint({
    scope: "webhooks:manage",
    query: listWebhookEndpointsQuerySchema,
    handler: async ({ tenant, query, context }) => ok(await listWebhookEndpoints({ tenant, query, url: context.url.pathname })),
  }),
  POST: endpoint({
    scope: "webhooks:manage",
    body: createWebhookEndpointBodySchema,
    idempotent: true,
    secretFields: ["secret"],
    handler: async ({ tenant, body, transaction }) => created(await createWebhookEndpoint({ tenant, input: body, transaction })),
  }),
});
