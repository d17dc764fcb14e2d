// POST /partner/v1/events/{id}/replay — re-deliver with the original id and body (spec 4.6, 6.3). 202.
import { defineRoute, endpoint, reply } from "@/lib/http/route";
import { eventIdParamsSchema, replayEventBodySchema } from "@/lib/events/schemas";
import { replayEvent } from "@/lib/events/service";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/events/{id}/replay", {
  POST: endpoint({
    scope: "webhooks:manage",
    rateLimit: SUB_LIMITS.eventsReplay,
    params: eventIdParamsSchema,
    body: replayEventBodySchema,
    idempotent: true,
    handler: async ({ tenant, params, body, transaction }) => reply(202, await replayEvent({ tenant, id: params.id, endpointId: body?.endpoint_id, transaction })),
  }),
});
