// GET /partner/v1/events — event history, newest first, kept 30 days (spec 4.6, 6.1).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { listEventsQuerySchema } from "@/lib/events/schemas";
import { listEvents } from "@/lib/events/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/events", {
  GET: endpoint({
    scope: "events:read",
    query: listEventsQuerySchema,
    handler: async ({ tenant, query, context }) => ok(await listEvents({ tenant, query, url: context.url.pathname })),
  }),
});
