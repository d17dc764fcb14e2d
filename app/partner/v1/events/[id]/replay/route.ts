// POST /partner/v1/events/{id}/replay — re-deliver with the original id and body (spec 4.6, 6.3). 202.
import { defineRoute, endpoint, reply } from "@/lib/http/route";
import { eventIdParamsSchema, replayEventBodySchema } from "@/lib/events/schemas";
import { replayEvent } from "@/lib/events/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/events/{id}/replay", {
  POST: endpoint({
    params: eventIdParamsSchema,
    body: replayEventBodySchema,
    idempotent: true,
    handler: async ({ principal, params, body, database }) => reply(202, await replayEvent(principal, params.id, body?.endpoint_id, database)),
  }),
});
