// Anything thrown while answering a request, as the response the client gets: a catalogue error rendered in the
// endpoint's error shape (lib/errors.ts), with a correlation id the request's log line carries too.
import { isDatabaseUnavailable } from "../db";
import { newId } from "../ids";
import { describeError, log } from "../log";
import { ApiError, renderError, type ErrorFormat } from "../errors";
import type { RequestContext } from "./request-context";
import { jsonResponse, wholeBodyResponse } from "./whole-body";

/**
 * The client went away before its body arrived (Node's `Error: aborted`). Nobody will read the answer, and it
 * is no fault of ours: the request's last step logs it as such rather than as an error.
 */
export class ClientAbortedError extends Error {
  override name = "ClientAbortedError";
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
  const response = typeof body === "string" ? wholeBodyResponse(body, { status, headers }) : jsonResponse(body, { status, headers });
  return { response, body, retryable: error.retryable };
}

export function errorResponse(thrown: unknown, context: RequestContext, format: ErrorFormat = "envelope"): Response {
  return errorOutcome(thrown, context, format).response;
}
