// GET /partner/v1/events/{id} — one event (spec 6.1).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { eventIdParamsSchema } from "@/lib/events/schemas";
import { retrieveEvent } from "@/lib/events/service";
import { eventSchema } from "@/lib/events/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/events/{id}", {
  GET: endpoint({
    summary: "Retrieve an event",
    responses: { 200: eventSchema },
    auth: { kind: "bearer", scope: "events:read" },
    params: eventIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await retrieveEvent({ tenant, id: params.id })),
  }),
});
