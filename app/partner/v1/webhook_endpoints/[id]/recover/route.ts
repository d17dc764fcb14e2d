// POST /partner/v1/webhook_endpoints/{id}/recover — queue again the endpoint's failed deliveries since a time
// (spec 4.6, 6.4; the dashboard's "Recover failed since"). 202.
import { defineRoute, endpoint, reply } from "@/lib/http/route";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";
import { recoverWebhookDeliveriesBodySchema, webhookEndpointIdParamsSchema, webhookRecoverySchema } from "@/lib/webhooks/schemas";
import { recoverFailedDeliveries } from "@/lib/webhooks/recover";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/webhook_endpoints/{id}/recover", {
  POST: endpoint({
    summary: "Recover a webhook endpoint's failed deliveries",
    description:
      "Queues again, with a fresh series of attempts, every delivery to this endpoint created at or after `since` that failed (all its attempts used) or was abandoned (the endpoint was disabled): one per event, signed as usual with the original event id. `since` is at most 30 days ago. A disabled endpoint is refused with 409: enable it first.",
    responses: { 202: webhookRecoverySchema },
    errors: ["conflict"],
    auth: { kind: "bearer", scope: "webhooks:manage" },
    rateLimit: SUB_LIMITS.webhookDeliveriesRecover,
    params: webhookEndpointIdParamsSchema,
    body: recoverWebhookDeliveriesBodySchema,
    idempotent: true,
    handler: async ({ tenant, params, body, transaction }) =>
      reply(202, await recoverFailedDeliveries({ tenant, endpointId: params.id, since: body.since, transaction })),
  }),
});
