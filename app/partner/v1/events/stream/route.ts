// GET /partner/v1/events/stream — the caller's new sandbox events as server-sent events, for the CLI forwarder
// (`cli listen`, spec 6.4). Resumes after `Last-Event-ID`. An open stream holds one of the project's concurrent
// request slots until it closes, at most STREAM_MAX_SECONDS later.
import { defineRoute, endpoint } from "@/lib/http/route";
import { streamEventsQuerySchema } from "@/lib/events/schemas";
import { streamEvents } from "@/lib/events/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/events/stream", {
  GET: endpoint({
    scope: "events:read",
    query: streamEventsQuerySchema,
    sandboxOnly: true,
    streams: true,
    handler: async ({ tenant, query, request }) => {
      const stream = await streamEvents({ tenant, types: query.types, lastEventId: request.headers.get("last-event-id"), signal: request.signal });
      return new Response(stream, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", Connection: "keep-alive" } });
    },
  }),
});
