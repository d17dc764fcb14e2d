// The first and last steps of every request: its ids and timing, then the headers every response carries and
// one structured log line.
import { clock } from "../clock";
import { newId } from "../ids";
import { log } from "../log";
import type { Ring } from "../errors";
import { describePolicy } from "../ratelimit/policies";
import type { RateLimitState, RequestContext } from "../wire/request-context";
import { RING_BASE_PATHS } from "./rings";

/** `route` is the matched route's pattern within its ring, or null for a path no route matches. */
export function startRequest(request: Request, ring: Ring, route: string | null): RequestContext {
  return {
    requestId: newId("request"),
    ring,
    method: request.method,
    url: new URL(request.url),
    route: `${RING_BASE_PATHS[ring]}${route ?? "/{unmatched}"}`,
    startedAt: performance.now(),
    receivedAt: clock.now(),
    logFields: {},
  };
}

export function rateLimitHeaders({ policy, decision }: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
    "RateLimit-Reset": String(decision.resetSeconds),
    "RateLimit-Policy": describePolicy(policy),
  };
}

export function finishRequest(response: Response, context: RequestContext): Response {
  response.headers.set("X-Request-Id", context.requestId);
  if (context.rateLimit) {
    for (const [name, value] of Object.entries(rateLimitHeaders(context.rateLimit))) response.headers.set(name, value);
  }
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  log.info("request", {
    method: context.method,
    path: context.route,
    status: response.status,
    duration_ms: Math.round((performance.now() - context.startedAt) * 10) / 10,
    request_id: context.requestId,
    ...context.logFields,
  });
  return response;
}
