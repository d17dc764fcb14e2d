// GET /partner/v1/events/{id} — one event (spec 6.1).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { eventIdParamsSchema } from "@/lib/events/schemas";
import { retrieveEvent } from "@/lib/events/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/events/{id}", {
  GET: endpoint({
    scope: "events:read",
    params: eventIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await retrieveEvent({ tenant, id: params.id })),
  }),
});
