import { describe, expect, it } from "vitest";
import { readSourceFiles } from "../helpers/source-files";
import { ApiError, describeErrorCode, ERROR_CATALOGUE, notFound, renderEnvelope, renderError, renderOAuthError, renderSiteError } from "@/lib/errors";

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
    const { status, body, headers } = renderEnvelope(new ApiError("not_found"), "cor_x", "partner");
    expect(status).toBe(404);
    expect(body).toEqual({
      error: { code: "not_found", type: "invalid_request_error", message: "No such object.", correlation_id: "cor_x", retryable: false },
    });
    expect(headers).toEqual({ "X-Service-Correlation-Id": "cor_x" });
  });

  it("rounds a retry wait up to whole seconds, at least one", () => {
    const { body, headers } = renderEnvelope(new ApiError("rate_limited", { retryAfterMs: 10 }), "cor_x", "partner");
    expect(headers["Retry-After"]).toBe("1");
    expect(body.error.retry_after_ms).toBe(1_000);
  });

  it("never advertises a retry wait on a non-retryable error", () => {
    const { body, headers } = renderEnvelope(new ApiError("conflict", { retryAfterMs: 5_000 }), "cor_x", "partner");
    expect(body.error).not.toHaveProperty("retry_after_ms");
    expect(headers).not.toHaveProperty("Retry-After");
  });
});

describe("the OAuth shape (RFC 6749 §5.2)", () => {
  it("answers an OAuth code as itself, uncached, with the catalogue's status", () => {
    expect(renderOAuthError(new ApiError("invalid_scope", { message: "Scope not granted: x." }), "cor_x")).toEqual({
      code: "invalid_scope",
      status: 400,
      body: { error: "invalid_scope", error_description: "Scope not granted: x." },
      headers: { "Cache-Control": "no-store", Pragma: "no-cache", "X-Service-Correlation-Id": "cor_x" },
    });
  });

  it("names the Basic scheme on invalid_client", () => {
    const { status, headers } = renderOAuthError(new ApiError("invalid_client"), "cor_x");
    expect(status).toBe(401);
    expect(headers["WWW-Authenticate"]).toBe('Basic realm="oauth"');
  });

  it("keeps rate_limited with its Retry-After in whole seconds", () => {
    const { status, body, headers } = renderOAuthError(new ApiError("rate_limited", { message: "Slow down.", retryAfterMs: 1_500 }), "cor_x");
    expect(status).toBe(429);
    expect(body).toEqual({ error: "rate_limited", error_description: "Slow down." });
    expect(headers["Retry-After"]).toBe("2");
  });

  it("turns a validation failure into invalid_request naming the first field", () => {
    const error = new ApiError("validation_failed", { message: "grant_type must be a string.", detail: [{ field: "grant_type", reason: "invalid_type" }] });
    expect(renderOAuthError(error, "cor_x").body).toEqual({ error: "invalid_request", error_description: "grant_type must be a string." });
    const unnamed = new ApiError("validation_failed", { message: "Not acceptable.", detail: [{ field: "scope", reason: "invalid" }] });
    expect(renderOAuthError(unnamed, "cor_x").body).toEqual({ error: "invalid_request", error_description: "Not acceptable. (scope)" });
  });

  it("turns faults into server_error and unavailability into temporarily_unavailable", () => {
    expect(renderOAuthError(new ApiError("internal_error"), "cor_x")).toMatchObject({ status: 500, body: { error: "server_error" } });
    const unavailable = renderOAuthError(new ApiError("service_unavailable", { retryAfterMs: 1_000 }), "cor_x");
    expect(unavailable).toMatchObject({ status: 503, body: { error: "temporarily_unavailable" }, headers: { "Retry-After": "1" } });
  });
});

describe("the site shape (spec 7.4)", () => {
  it("is {ok: false, error} with the message and the catalogue's status", () => {
    expect(renderSiteError(new ApiError("rate_limited", { retryAfterMs: 2_000 }), "cor_x")).toEqual({
      code: "rate_limited",
      status: 429,
      body: { ok: false, error: "Too many requests; retry after the indicated delay." },
      headers: { "Retry-After": "2", "X-Service-Correlation-Id": "cor_x" },
    });
  });

  it("is chosen by renderError's format", () => {
    expect(renderError(new ApiError("not_found"), { format: "site", ring: "site", correlationId: "cor_x" }).body).toEqual({ ok: false, error: "No such object." });
    expect(renderError(new ApiError("not_found"), { format: "oauth", ring: "site", correlationId: "cor_x" }).body).toEqual({ error: "invalid_request", error_description: "No such object." });
  });
});

describe("the JSON-RPC form (spec 7.4, the MCP servers)", () => {
  it("answers a body that is not JSON as a parse error in a 200", () => {
    const rendered = renderError(new ApiError("invalid_json", { message: "The request body is not valid JSON." }), { format: "json-rpc", ring: "public", correlationId: "cor_x" });
    expect(rendered).toEqual({
      code: "invalid_json",
      status: 200,
      body: { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: The request body is not valid JSON." } },
      headers: { "X-Service-Correlation-Id": "cor_x" },
    });
  });

  it("keeps the envelope and its status for a failure of the transport", () => {
    const rendered = renderError(new ApiError("rate_limited", { retryAfterMs: 1_000 }), { format: "json-rpc", ring: "public", correlationId: "cor_x" });
    expect(rendered.status).toBe(429);
    expect(rendered.body).toMatchObject({ error: { code: "rate_limited", retryable: true, retry_after_ms: 1_000 } });
    expect(renderError(new ApiError("origin_not_allowed"), { format: "json-rpc", ring: "site", correlationId: "cor_x" }).status).toBe(403);
    expect(renderError(new ApiError("mcp_protocol_version_unsupported"), { format: "json-rpc", ring: "public", correlationId: "cor_x" }).status).toBe(400);
  });
});

describe("notFound", () => {
  it("says an id names nothing the one way: 404 not_found, No such <kind>: <id>.", () => {
    const error = notFound("payment", "pay_01");
    expect({ code: error.code, message: error.message, detail: error.detail }).toEqual({ code: "not_found", message: "No such payment: pay_01.", detail: undefined });
    expect(describeErrorCode(error.code, "partner").status).toBe(404);
  });

  it("names no id it was not given (a capability token is never echoed)", () => {
    expect(notFound("payment link").message).toBe("No such payment link.");
  });

  it("names the body field that held the id as resource_not_found", () => {
    const error = notFound("application", "app_01", { field: "application_id" });
    expect({ code: error.code, message: error.message, detail: error.detail }).toEqual({
      code: "resource_not_found",
      message: "No such application: app_01.",
      detail: [{ field: "application_id", reason: "not_found", message: "No such application: app_01." }],
    });
  });

  it("says it in a person's words where people read it, keeping the one code", () => {
    const error = notFound("application link", undefined, { message: "This application link is not valid." });
    expect({ code: error.code, message: error.message }).toEqual({ code: "not_found", message: "This application link is not valid." });
  });

  it("is the only maker of a not-found error", () => {
    const inline = readSourceFiles(["lib", "app", "bin", "inngest"])
      .filter(({ file }) => file !== "lib/errors.ts")
      .filter(({ text }) => /new ApiError\(\s*["'](resource_)?not_found["']/.test(text))
      .map(({ file }) => file);
    expect(inline).toEqual([]);
  });
});
