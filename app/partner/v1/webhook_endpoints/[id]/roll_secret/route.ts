// POST /partner/v1/webhook_endpoints/{id}/roll_secret — a new signing secret, the old one signing alongside it
// for `overlap_hours` (default 24).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { rollWebhookSecretBodySchema, webhookEndpointIdParamsSchema } from "@/lib/webhooks/schemas";
import { rollWebhookSecret } from "@/lib/webhooks/service";
import { webhookEndpointWithSecretSchema } from "@/lib/webhooks/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/webhook_endpoints/{id}/roll_secret", {
  POST: endpoint({
    summary: "Roll a webhook endpoint's signing secret",
    description: "A new secret; the old one also signs for `overlap_hours` (default 24), so receivers can switch without missing a delivery.",
    responses: { 200: webhookEndpointWithSecretSchema },
    auth: { kind: "bearer", scope: "webhooks:manage" },
    params: webhookEndpointIdParamsSchema,
    body: rollWebhookSecretBodySchema,
    handler: async ({ tenant, params, body }) => ok(await rollWebhookSecret({ tenant, id: params.id, overlapHours: body.overlap_hours })),
  }),
});
