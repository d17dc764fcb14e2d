// GET /partner/v1/events/stream — the caller's new sandbox events as server-sent events, for the CLI forwarder
// (`cli listen`, spec 6.4). Resumes after `Last-Event-ID`. An open stream holds one of the project's concurrent
// request slots until it closes, at most STREAM_MAX_SECONDS later; a client that stops reading is cut off.
import { defineRoute, endpoint } from "@/lib/http/route";
import { streamEventsQuerySchema } from "@/lib/events/schemas";
import { streamEvents } from "@/lib/events/service";
import { eventStreamSchema } from "@/lib/events/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/events/stream", {
  GET: endpoint({
    summary: "Stream new sandbox events (server-sent events)",
    description:
      "What `cli listen` reads: new events as they happen, resuming after `Last-Event-ID`. Closes after STREAM_MAX_SECONDS (600 by default), " +
      "or when the client has taken nothing it was sent for 30 seconds; reconnect to continue.",
    responses: { 200: eventStreamSchema },
    auth: { kind: "bearer", scope: "events:read", sandboxOnly: true },
    query: streamEventsQuerySchema,
    streams: true,
    handler: async ({ tenant, query, request }) => {
      const stream = await streamEvents({ tenant, types: query.types, lastEventId: request.headers.get("last-event-id"), signal: request.signal });
      return new Response(stream, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", Connection: "keep-alive" } });
    },
  }),
});
