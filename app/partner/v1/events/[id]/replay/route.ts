// POST /partner/v1/events/{id}/replay — re-deliver with the original id and body (spec 4.6, 6.3). 202.
import { defineRoute, endpoint, reply } from "@/lib/http/route";
import { eventIdParamsSchema, replayEventBodySchema } from "@/lib/events/schemas";
import { replayEvent } from "@/lib/events/service";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";
import { eventReplaySchema } from "@/lib/events/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/events/{id}/replay", {
  POST: endpoint({
    summary: "Replay an event to your webhook endpoints",
    description: "Queues the event again, with its original id and body, to every subscribed endpoint or to `endpoint_id` only.",
    responses: { 202: eventReplaySchema },
    errors: ["resource_not_found", "conflict"],
    auth: { kind: "bearer", scope: "webhooks:manage" },
    rateLimit: SUB_LIMITS.eventsReplay,
    params: eventIdParamsSchema,
    body: replayEventBodySchema,
    idempotent: true,
    handler: async ({ tenant, params, body, transaction }) => reply(202, await replayEvent({ tenant, id: params.id, endpointId: body?.endpoint_id, transaction })),
  }),
});
