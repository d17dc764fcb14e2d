// GET /healthz/internal — this process's internals for operators: the rate limiter's store and its fallback,
// the open event streams with the reads they have made, and its memory and event-loop delay.
// Its figures go only to operators (auth operator, lib/http/operator-access.ts: in production the bearer of
// HEALTHZ_INTERNAL_TOKEN; elsewhere also a request from this machine that no proxy forwarded); anyone else gets
// 404 route_not_found.
import { eventStreamActivity } from "@/lib/events/service";
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { rateLimiter } from "@/lib/ratelimit/limiter";
import { readProcessStats } from "@/lib/health/process-stats";
import { internalHealthSchema } from "@/lib/health/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/healthz/internal", {
  GET: endpoint({
    summary: "This process's internals, for operators",
    description:
      "In production answers only `Authorization: Bearer <HEALTHZ_INTERNAL_TOKEN>`; elsewhere also a request from this machine that no proxy " +
      "forwarded. To anyone else the route does not exist.",
    responses: { 200: internalHealthSchema },
    auth: { kind: "operator" },
    handler: () => {
      const { backend, reachable, fallbackCount } = rateLimiter().status();
      return ok({ ratelimit: { backend, reachable, fallback_count: fallbackCount }, event_streams: eventStreamActivity(), process: readProcessStats() }, { "Cache-Control": "no-store" });
    },
  }),
});
