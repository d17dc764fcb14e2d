// The cross-cutting HTTP behaviour every route inherits from the route builder: ids, the error envelope,
// and a clear 4xx for each kind of bad input. Probe routes use the builder exactly as app routes do.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { sharedPool } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { created, defineRoute, endpoint, ok } from "@/lib/http/route";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, jsonRequest } from "../../helpers/http";
import { eventually } from "../../helpers/eventually";
import { captureLogs } from "../../helpers/logs";
import { createTestProject, mintToken } from "../../helpers/partner";

const probeBody = z.strictObject({
  business: z.strictObject({ company_number: z.string().length(8) }),
  amount_pence: z.number().int().min(100_000).max(25_000_000),
  purpose: z.enum(["working_capital", "stock"]).optional(),
});

// Probes sit on the site ring (no bearer token); the partner ring's bearer step is tested with real routes.
const probeRoutes = {
  "/partner/v1/_probe": defineRoute("site", "/partner/v1/_probe", {
    POST: endpoint({ auth: { kind: "none" }, body: probeBody, handler: ({ body }) => created({ object: "probe", received: body }) }),
    GET: endpoint({
      auth: { kind: "none" },
      query: z.strictObject({ colour: z.enum(["red", "blue"]).optional() }),
      handler: ({ query }) => ok({ object: "probe", colour: query.colour ?? null }),
    }),
  }),
  "/partner/v1/_probe/fail": defineRoute("site", "/partner/v1/_probe/fail", {
    GET: endpoint({
      auth: { kind: "none" },
      handler: () => {
        throw new Error("database password is hunter2");
      },
    }),
    POST: endpoint({
      auth: { kind: "none" },
      handler: () => {
        throw new ApiError("rate_limited", { retryAfterMs: 1_500 });
      },
    }),
  }),
  "/partner/v1/_probe/malformed-query": defineRoute("site", "/partner/v1/_probe/malformed-query", {
    // A message PostgreSQL cannot read: the NUL ends the simple query early (08P01 protocol_violation).
    GET: endpoint({ auth: { kind: "none" }, handler: async () => ok((await sharedPool().query("SELECT 'a\u0000b'")).rows) }),
  }),
  "/public/v1/_probe": defineRoute("public", "/_probe", {
    POST: endpoint({ auth: { kind: "none" }, body: z.strictObject({ note: z.string() }), handler: () => created({ ok: true }) }),
  }),
};

let server: AppServer;
const validBody = { business: { company_number: "12345678" }, amount_pence: 500_000 };

beforeAll(async () => {
  server = await startAppServer(probeRoutes);
});
afterAll(() => server?.close());

const post = (path: string, init: RequestInit) => fetch(`${server.url}${path}`, { method: "POST", ...init });

describe("request ids", () => {
  it("puts a req_ id on every success and no correlation id", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
    expect(response.headers.get("x-service-correlation-id")).toBeNull();
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("gives each request its own id", async () => {
    const [first, second] = await Promise.all([fetch(`${server.url}/healthz`), fetch(`${server.url}/healthz`)]);
    expect(first.headers.get("x-request-id")).not.toBe(second.headers.get("x-request-id"));
  });

  it("accepts a valid body and hands the parsed value to the handler", async () => {
    const response = await post("/partner/v1/_probe", jsonRequest("POST", validBody));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ object: "probe", received: validBody });
  });
});

describe("bad input gets a clear 4xx", () => {
  it("answers a body that is not JSON with 400 invalid_json", async () => {
    const response = await post("/partner/v1/_probe", { headers: { "content-type": "application/json" }, body: "{not json" });
    const body = await expectApiError(response, 400, "invalid_json");
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.retryable).toBe(false);
  });

  it("answers a non-JSON content type with 415 unsupported_media_type", async () => {
    const response = await post("/partner/v1/_probe", { headers: { "content-type": "text/plain" }, body: JSON.stringify(validBody) });
    await expectApiError(response, 415, "unsupported_media_type");
  });

  it("answers a form-encoded body with 415 unsupported_media_type", async () => {
    const response = await post("/partner/v1/_probe", { body: new URLSearchParams({ amount_pence: "1" }) });
    await expectApiError(response, 415, "unsupported_media_type");
  });

  it("answers a body without any content type with 400 missing_content_type", async () => {
    const response = await post("/partner/v1/_probe", { body: new Blob([JSON.stringify(validBody)]) });
    expect(response.status).toBe(400);
    await expectApiError(response, 400, "missing_content_type");
  });

  it("accepts a JSON content type with a charset parameter", async () => {
    const response = await post("/partner/v1/_probe", jsonRequest("POST", validBody, { "content-type": "application/json; charset=utf-8" }));
    expect(response.status).toBe(201);
  });

  it("answers a body over the 1 MiB cap with 413 payload_too_large", async () => {
    const oversize = JSON.stringify({ ...validBody, padding: "x".repeat(1024 * 1024) });
    const response = await post("/partner/v1/_probe", jsonRequest("POST", JSON.parse(oversize)));
    const body = await expectApiError(response, 413, "payload_too_large");
    expect(body.error.message).toContain("1048576");
  });

  it("enforces the cap on a streamed body that declares no length", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 20) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const response = await post("/partner/v1/_probe", {
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await expectApiError(response, 413, "payload_too_large");
  });

  it("answers an oversize public-ring body with 422 request_body_too_large (spec 7.3)", async () => {
    const response = await post("/public/v1/_probe", jsonRequest("POST", { note: "x".repeat(1024 * 1024 + 1) }));
    await expectApiError(response, 422, "request_body_too_large");
  });

  it("answers an unknown top-level field with 400 unknown_field naming it", async () => {
    const response = await post("/partner/v1/_probe", jsonRequest("POST", { ...validBody, colour: "red" }));
    const body = await expectApiError(response, 400, "unknown_field");
    expect(body.error.detail).toEqual([{ field: "colour", reason: "unknown_field", message: "Unknown field `colour`: the fields accepted here are business, amount_pence and purpose." }]);
  });

  it("answers an unknown nested field with its dotted path", async () => {
    const response = await post("/partner/v1/_probe", jsonRequest("POST", { ...validBody, business: { company_number: "12345678", vat: "x" } }));
    const body = await expectApiError(response, 400, "unknown_field");
    expect(body.error.detail?.map((item) => item.field)).toEqual(["business.vat"]);
  });

  it("answers a wrong type with 422 validation_failed and per-field detail", async () => {
    const response = await post("/partner/v1/_probe", jsonRequest("POST", { business: { company_number: 12345678 }, amount_pence: "500000" }));
    const body = await expectApiError(response, 422, "validation_failed");
    expect(body.error.detail).toEqual([
      expect.objectContaining({ field: "business.company_number", reason: "invalid_type" }),
      expect.objectContaining({ field: "amount_pence", reason: "invalid_type" }),
    ]);
  });

  it("reports missing fields as required", async () => {
    const response = await post("/partner/v1/_probe", jsonRequest("POST", { business: {} }));
    const body = await expectApiError(response, 422, "validation_failed");
    expect(body.error.detail).toEqual([
      { field: "business.company_number", reason: "required", message: "business.company_number is required." },
      { field: "amount_pence", reason: "required", message: "amount_pence is required." },
    ]);
  });

  it("reports a float for an integer field as not_integer", async () => {
    const response = await post("/partner/v1/_probe", jsonRequest("POST", { ...validBody, amount_pence: 100000.5 }));
    const body = await expectApiError(response, 422, "validation_failed");
    expect(body.error.detail).toEqual([expect.objectContaining({ field: "amount_pence", reason: "not_integer" })]);
  });

  it("reports out-of-range and bad enum values", async () => {
    const response = await post("/partner/v1/_probe", jsonRequest("POST", { ...validBody, amount_pence: 99_999, purpose: "yacht" }));
    const body = await expectApiError(response, 422, "validation_failed");
    expect(body.error.detail?.map((item) => [item.field, item.reason])).toEqual([
      ["amount_pence", "too_small"],
      ["purpose", "invalid_value"],
    ]);
  });

  it("answers a JSON array body with 422 and no field", async () => {
    const response = await post("/partner/v1/_probe", jsonRequest("POST", [validBody]));
    const body = await expectApiError(response, 422, "validation_failed");
    expect(body.error.detail).toEqual([expect.objectContaining({ reason: "invalid_type" })]);
    expect(body.error.detail?.[0]).not.toHaveProperty("field");
  });

  it("answers an empty body to an endpoint that needs one with 422 required", async () => {
    const response = await post("/partner/v1/_probe", {});
    const body = await expectApiError(response, 422, "validation_failed");
    expect(body.error.detail).toEqual([{ reason: "required", message: "The request body is empty: send a JSON object." }]);
  });

  it("answers an unknown query parameter with 400 unknown_field", async () => {
    const response = await fetch(`${server.url}/partner/v1/_probe?colour=red&shape=round`);
    const body = await expectApiError(response, 400, "unknown_field");
    expect(body.error.detail).toEqual([expect.objectContaining({ field: "shape", reason: "unknown_field" })]);
  });

  it("answers a repeated query parameter with 422 rather than picking one", async () => {
    const response = await fetch(`${server.url}/partner/v1/_probe?colour=red&colour=blue`);
    const body = await expectApiError(response, 422, "validation_failed");
    expect(body.error.detail).toEqual([expect.objectContaining({ field: "colour", reason: "repeated" })]);
  });

  it("answers a body sent to an endpoint that takes none with 400 unknown_field", async () => {
    const response = await post("/partner/v1/_probe/fail", jsonRequest("POST", { surprise: true }));
    const body = await expectApiError(response, 400, "unknown_field");
    expect(body.error.detail?.[0]?.field).toBe("surprise");
  });
});

describe("unknown paths and methods", () => {
  it.each([
    ["GET", "/partner/v1/nothing-here"],
    ["POST", "/partner/v1/applications/app_123/unknown"],
    ["GET", "/partner/v1"],
    ["DELETE", "/public/v1/nothing"],
    ["GET", "/public/v1"],
  ])("answers %s %s with 404 route_not_found", async (method, path) => {
    const response = await fetch(`${server.url}${path}`, { method });
    await expectApiError(response, 404, "route_not_found");
  });

  it("answers a wrong method with 405 method_not_allowed and an Allow header", async () => {
    const response = await fetch(`${server.url}/healthz`, { method: "POST" });
    await expectApiError(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("lists every declared method in Allow", async () => {
    const response = await fetch(`${server.url}/partner/v1/_probe`, { method: "DELETE" });
    await expectApiError(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toBe("POST, GET, HEAD, OPTIONS");
  });

  it("answers HEAD like GET without a body", async () => {
    const response = await fetch(`${server.url}/healthz`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.text()).toBe("");
  });

  it("answers OPTIONS with 204 and Allow", async () => {
    const response = await fetch(`${server.url}/healthz`, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("faults", () => {
  it("turns an unexpected exception into 500 internal_error without internals, logged with the correlation id", async () => {
    const { result: response, entries } = await captureLogs(() => fetch(`${server.url}/partner/v1/_probe/fail`));
    const text = await response.clone().text();
    const body = await expectApiError(response, 500, "internal_error");
    expect(body.error.type).toBe("api_error");
    expect(body.error.retryable).toBe(true);
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("stack");
    const logged = entries.find((entry) => entry.msg === "unhandled error");
    expect(logged).toMatchObject({ level: "error", correlation_id: body.error.correlation_id, error: "database password is hunter2" });
  });

  it("answers a query PostgreSQL refuses with 500 internal_error, not a retryable 503: the database is up", async () => {
    const { result: response, entries } = await captureLogs(() => fetch(`${server.url}/partner/v1/_probe/malformed-query`));
    const body = await expectApiError(response, 500, "internal_error");
    expect(response.headers.get("retry-after")).toBeNull();
    expect(entries.filter((entry) => entry.level !== "info").map(({ level, msg }) => ({ level, msg }))).toEqual([{ level: "error", msg: "unhandled error" }]);
    expect(entries.find((entry) => entry.msg === "unhandled error")).toMatchObject({ correlation_id: body.error.correlation_id });
  });

  it.each([
    ["a probe route", "/partner/v1/_probe", false],
    ["the application create", "/partner/v1/applications", true],
  ])("logs a client that hangs up mid-body on %s as a client abort, not as the database being unavailable", async (_, path, authenticated) => {
    const authorization = authenticated ? `Authorization: Bearer ${await mintToken(server.url, await createTestProject())}\r\n` : "";
    const { entries } = await captureLogs(async (arriving) => {
      const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
      socket.on("error", () => undefined);
      const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${authorization}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
      await new Promise((sent) => socket.write(`${head}{"business":`, sent));
      socket.destroy();
      await eventually(async () => arriving.some((entry) => entry.msg === "request"), Boolean);
    });
    const aboutTheRequest = entries.filter((entry) => entry.path === path);
    expect(aboutTheRequest.map(({ level, msg, method }) => ({ level, msg, method }))).toEqual([
      { level: "info", msg: "client closed the request", method: "POST" },
      { level: "info", msg: "request", method: "POST" },
    ]);
    expect(entries.filter((entry) => entry.level === "warn" || entry.level === "error")).toEqual([]);
  });

  it("logs one structured line per request with method, path, status, duration and request id", async () => {
    const { result: response, entries } = await captureLogs(() =>
      fetch(`${server.url}/healthz?probe=1`, { headers: { authorization: "Bearer secret-token-value" } }),
    );
    const requestLines = entries.filter((entry) => entry.msg === "request");
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      level: "info",
      method: "GET",
      path: "/healthz",
      status: 400,
      request_id: response.headers.get("x-request-id"),
    });
    expect(typeof requestLines[0]!.duration_ms).toBe("number");
    expect(JSON.stringify(entries)).not.toContain("secret-token-value");
  });

  it("renders retry_after_ms and a whole-second Retry-After for retryable errors", async () => {
    const response = await post("/partner/v1/_probe/fail", {});
    const body = await expectApiError(response, 429, "rate_limited");
    expect(body.error).toMatchObject({ type: "rate_limit_error", retryable: true, retry_after_ms: 2_000 });
    expect(response.headers.get("retry-after")).toBe("2");
  });
});
