// The first and last steps of every request: its ids and timing, then the headers every response
// carries and one structured log line.
import { newId } from "../ids";
import { describeError, log } from "../log";
import { ApiError, renderApiError, type Ring } from "./errors";

export interface RequestContext {
  readonly requestId: string;
  readonly ring: Ring;
  readonly method: string;
  readonly url: URL;
  readonly startedAt: number;
  /** Fields later steps learn (project, environment) for the request log line. */
  readonly logFields: Record<string, unknown>;
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

/** The error envelope for anything thrown; an unexpected exception is logged and becomes `internal_error`. */
export function errorResponse(error: unknown, context: RequestContext): Response {
  const correlationId = newId("correlation");
  const apiError = error instanceof ApiError ? error : new ApiError("internal_error");
  if (!(error instanceof ApiError)) {
    log.error("unhandled error", {
      correlation_id: correlationId,
      request_id: context.requestId,
      method: context.method,
      path: context.url.pathname,
      ...describeError(error),
    });
  }
  const { status, body, headers } = renderApiError(apiError, correlationId, context.ring);
  return Response.json(body, { status, headers });
}

export function finishRequest(response: Response, context: RequestContext): Response {
  response.headers.set("X-Request-Id", context.requestId);
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
