// GET /healthz/internal — this process's internals for operators (the rate limiter's store and its fallback).
// Answered only to a request from this machine that no proxy forwarded; to anyone else the route does not exist.
import { ApiError } from "@/lib/errors";
import { isLocalRequest } from "@/lib/http/client-address";
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { rateLimiter } from "@/lib/ratelimit/limiter";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/healthz/internal", {
  GET: endpoint({
    handler: ({ request }) => {
      if (!isLocalRequest(request)) throw new ApiError("route_not_found");
      return ok({ ratelimit: rateLimiter().status() }, { "Cache-Control": "no-store" });
    },
  }),
});
