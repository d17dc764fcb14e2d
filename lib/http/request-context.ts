// The first and last steps of every request: its ids and timing, then the headers every response
// carries and one structured log line.
import { isDatabaseUnavailable } from "../db";
import { newId } from "../ids";
import { describeError, log } from "../log";
import { OAuthError, renderOAuthError } from "../oauth/errors";
import { ApiError, describeErrorCode, renderApiError, retryAfterSeconds, type Ring } from "./errors";
import { rateLimitHeaders, type RateLimitState } from "./metering";
import { RenderedJson } from "./rendered-json";

/** `envelope`: spec 7.1. `oauth`: RFC 6749 §5.2 (`error`, `error_description`) for the OAuth endpoints. */
export type ErrorFormat = "envelope" | "oauth";

export interface RequestContext {
  readonly requestId: string;
  readonly ring: Ring;
  readonly method: string;
  readonly url: URL;
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

export function startRequest(request: Request, ring: Ring): RequestContext {
  return {
    requestId: newId("request"),
    ring,
    method: request.method,
    url: new URL(request.url),
    startedAt: performance.now(),
    logFields: {},
  };
}

/** An API error met on an OAuth endpoint (bad body, rate limit...) in that endpoint's terms. */
function asOAuthError(error: ApiError, ring: Ring): OAuthError {
  const status = describeErrorCode(error.code, ring).status;
  if (error.code === "rate_limited") {
    return new OAuthError("rate_limited", error.message, { ...error.headers, "Retry-After": String(retryAfterSeconds(error.retryAfterMs ?? 1000)) });
  }
  if (status >= 500) return new OAuthError("server_error", "An unexpected error occurred.");
  const field = error.detail?.[0]?.field;
  return new OAuthError("invalid_request", field ? `${error.message} (${field})` : error.message);
}

const UNAVAILABLE_RETRY_AFTER_MS = 1_000;

/**
 * The error body for anything thrown. An unreachable database is a retryable 503; any other unexpected
 * exception is logged and becomes `internal_error`.
 */
function isClientAbort(error: unknown): boolean {
  return error instanceof Error && (error.message === "aborted" || (error as { code?: unknown }).code === "ECONNRESET");
}

export function errorResponse(thrown: unknown, context: RequestContext, format: ErrorFormat = "envelope"): Response {
  const correlationId = newId("correlation");
  let error = thrown;
  if (isDatabaseUnavailable(thrown)) {
    log.warn("database unavailable", { correlation_id: correlationId, request_id: context.requestId, path: context.url.pathname, ...describeError(thrown) });
    error =
      format === "oauth"
        ? new OAuthError("temporarily_unavailable", "The service is briefly unavailable; retry shortly.", { "Retry-After": "1" })
        : new ApiError("service_unavailable", { retryAfterMs: UNAVAILABLE_RETRY_AFTER_MS });
  }
  if (isClientAbort(error)) {
    // The client hung up while sending its body: nobody will read this answer, and it is not our fault.
    log.info("client closed the request", { request_id: context.requestId, path: context.url.pathname });
    error = new ApiError("invalid_json", { message: "The request body ended early." });
  }
  const known = error instanceof ApiError || error instanceof OAuthError;
  if (!known) {
    log.error("unhandled error", {
      correlation_id: correlationId,
      request_id: context.requestId,
      method: context.method,
      path: context.url.pathname,
      ...describeError(error),
    });
  }
  if (format === "oauth") {
    const oauthError =
      error instanceof OAuthError ? error
      : error instanceof ApiError ? asOAuthError(error, context.ring)
      : new OAuthError("server_error", "An unexpected error occurred.");
    const { status, body, headers } = renderOAuthError(oauthError);
    return Response.json(body, { status, headers: { ...headers, "X-Service-Correlation-Id": correlationId } });
  }
  const apiError = error instanceof ApiError ? error : new ApiError("internal_error");
  const { status, body, headers } = renderApiError(apiError, correlationId, context.ring);
  return Response.json(body, { status, headers });
}

export function finishRequest(response: Response, context: RequestContext): Response {
  response.headers.set("X-Request-Id", context.requestId);
  if (context.rateLimit) {
    for (const [name, value] of Object.entries(rateLimitHeaders(context.rateLimit))) response.headers.set(name, value);
  }
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  log.info("request", {
    method: context.method,
    path: context.url.pathname,
    status: response.status,
    duration_ms: Math.round((performance.now() - context.startedAt) * 10) / 10,
    request_id: context.requestId,
    ...context.logFields,
  });
  return response;
}
