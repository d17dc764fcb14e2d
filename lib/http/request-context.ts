// The first and last steps of every request: its ids and timing, then the headers every response
// carries and one structured log line.
import { isDatabaseUnavailable } from "../db";
import { newId } from "../ids";
import { describeError, log } from "../log";
import { ApiError, renderError, type ErrorFormat, type Ring } from "../errors";
import { ClientAbortedError } from "./body";
import { rateLimitHeaders, type RateLimitState } from "./metering";
import { RenderedJson } from "./rendered-json";
import { RING_BASE_PATHS } from "./route-registry";

export interface RequestContext {
  readonly requestId: string;
  readonly ring: Ring;
  readonly method: string;
  readonly url: URL;
  /**
   * What the logs name the request by: the route's pattern (`/apply/{token}/status`), never the path, whose
   * segments may be capabilities (a journey's handoff token, a payment link's token).
   */
  readonly route: string;
  readonly startedAt: number;
  /** Fields later steps learn (project, environment) for the request log line. */
  readonly logFields: Record<string, unknown>;
  /** The rate-limit decision the response's RateLimit-* headers describe. */
  rateLimit?: RateLimitState;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function toResponse(result: Reply | Response): Response {
  if (result instanceof Response) return result;
  if (result.body instanceof RenderedJson) {
    return new Response(result.body.bytes, { status: result.status, headers: { "content-type": "application/json", ...result.headers } });
  }
  return Response.json(result.body, { status: result.status, headers: result.headers });
}

/** `route` is the matched route's pattern within its ring, or null for a path no route matches. */
export function startRequest(request: Request, ring: Ring, route: string | null): RequestContext {
  return {
    requestId: newId("request"),
    ring,
    method: request.method,
    url: new URL(request.url),
    route: `${RING_BASE_PATHS[ring]}${route ?? "/{unmatched}"}`,
    startedAt: performance.now(),
    logFields: {},
  };
}

const UNAVAILABLE_RETRY_AFTER_MS = 1_000;

/**
 * Anything thrown, as a catalogue error. An unreachable database is a retryable 503; a client that hung up is
 * logged as such; any other unexpected exception is logged with its correlation id and becomes `internal_error`.
 */
function asApiError(thrown: unknown, context: RequestContext, correlationId: string): ApiError {
  if (thrown instanceof ApiError) return thrown;
  if (thrown instanceof ClientAbortedError) {
    // Nobody will read this answer; the status only completes the request's log line.
    log.info("client closed the request", { request_id: context.requestId, method: context.method, path: context.route });
    return new ApiError("invalid_json", { message: "The request body ended early." });
  }
  if (isDatabaseUnavailable(thrown)) {
    log.warn("database unavailable", { correlation_id: correlationId, request_id: context.requestId, path: context.route, ...describeError(thrown) });
    return new ApiError("service_unavailable", { retryAfterMs: UNAVAILABLE_RETRY_AFTER_MS });
  }
  log.error("unhandled error", {
    correlation_id: correlationId,
    request_id: context.requestId,
    method: context.method,
    path: context.route,
    ...describeError(thrown),
  });
  return new ApiError("internal_error");
}

export interface ErrorOutcome {
  response: Response;
  /** The rendered body, for a step that stores it (an Idempotency-Key's outcome). */
  body: unknown;
  retryable: boolean;
}

/**
 * The request's log line carries the correlation id and code the client was given, so the id an integrator
 * quotes to support finds the line (and, for a fault, the line with its cause, which carries the same id).
 */
export function noteErrorForLog(context: RequestContext, correlationId: string, code: string): void {
  context.logFields.correlation_id = correlationId;
  context.logFields.error_code = code;
}

/** The response for anything thrown, in the endpoint's error shape (lib/errors.ts renders each). */
export function errorOutcome(thrown: unknown, context: RequestContext, format: ErrorFormat = "envelope"): ErrorOutcome {
  const correlationId = newId("correlation");
  const error = asApiError(thrown, context, correlationId);
  const { code, status, body, headers } = renderError(error, { format, ring: context.ring, correlationId });
  noteErrorForLog(context, correlationId, code);
  // An error page (format `page`) is rendered HTML; every other shape is JSON.
  const response = typeof body === "string" ? new Response(body, { status, headers }) : Response.json(body, { status, headers });
  return { response, body, retryable: error.retryable };
}

export function errorResponse(thrown: unknown, context: RequestContext, format: ErrorFormat = "envelope"): Response {
  return errorOutcome(thrown, context, format).response;
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
