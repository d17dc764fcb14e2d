// GET /partner/v1/events — event history, newest first, kept 30 days (spec 4.6, 6.1).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { listEventsQuerySchema } from "@/lib/events/schemas";
import { listEvents } from "@/lib/events/service";
import { eventListSchema } from "@/lib/events/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/events", {
  GET: endpoint({
    summary: "List events",
    description: "Newest first, kept 30 days; filter by `type` and `created_after`.",
    responses: { 200: eventListSchema },
    auth: { kind: "bearer", scope: "events:read" },
    query: listEventsQuerySchema,
    handler: async ({ tenant, query, context }) => ok(await listEvents({ tenant, query, url: context.url.pathname })),
  }),
});
