import { describe, expect, it } from "vitest";
import { ApiError, describeErrorCode, ERROR_CATALOGUE, renderApiError } from "@/lib/http/errors";

describe("error catalogue", () => {
  it("holds the statuses of spec 7.2 for the partner ring", () => {
    const expected: Record<string, number> = {
      validation_failed: 422, unauthenticated: 401, token_expired: 401, insufficient_scope: 403, capability_denied: 403,
      not_found: 404, conflict: 409, payload_too_large: 413, decision_locked: 423, rate_limited: 429,
      internal_error: 500, service_unavailable: 503, environment_mismatch: 401, key_revoked: 401, sso_ticket_expired: 401,
    };
    for (const [code, status] of Object.entries(expected)) {
      expect(describeErrorCode(code as keyof typeof ERROR_CATALOGUE, "partner").status, code).toBe(status);
    }
  });

  it("uses 7.3's 422 for payload_too_large on the public ring only", () => {
    expect(describeErrorCode("payload_too_large", "public").status).toBe(422);
    expect(describeErrorCode("payload_too_large", "site").status).toBe(413);
  });

  it("gives every code one of the four types of 7.3", () => {
    for (const entry of Object.values(ERROR_CATALOGUE)) {
      expect(["authentication_error", "invalid_request_error", "rate_limit_error", "api_error"]).toContain(entry.type);
    }
    expect(ERROR_CATALOGUE.rate_limited.type).toBe("rate_limit_error");
    expect(ERROR_CATALOGUE.webhook_event_unknown).toMatchObject({ status: 422, type: "invalid_request_error" });
  });
});

describe("rendering", () => {
  it("omits detail and retry_after_ms when absent", () => {
    const { status, body, headers } = renderApiError(new ApiError("not_found"), "cor_x", "partner");
    expect(status).toBe(404);
    expect(body).toEqual({
      error: { code: "not_found", type: "invalid_request_error", message: "No such object.", correlation_id: "cor_x", retryable: false },
    });
    expect(headers).toEqual({ "X-Service-Correlation-Id": "cor_x" });
  });

  it("rounds a retry wait up to whole seconds, at least one", () => {
    const { body, headers } = renderApiError(new ApiError("rate_limited", { retryAfterMs: 10 }), "cor_x", "partner");
    expect(headers["Retry-After"]).toBe("1");
    expect(body.error.retry_after_ms).toBe(1_000);
  });

  it("never advertises a retry wait on a non-retryable error", () => {
    const { body, headers } = renderApiError(new ApiError("conflict", { retryAfterMs: 5_000 }), "cor_x", "partner");
    expect(body.error).not.toHaveProperty("retry_after_ms");
    expect(headers).not.toHaveProperty("Retry-After");
  });
});
