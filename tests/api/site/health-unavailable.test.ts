// With the database unreachable the health route answers 503 with the full health shape, the site probe
// (which touches nothing) still answers 200, and API calls get a retryable 503 rather than a 500.
// This file's app modules point at a dead server.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError } from "../../helpers/http";

let server: AppServer;
beforeAll(async () => {
  process.env.DATABASE_URL = "postgresql://postgres:postgres@127.0.0.1:1/unreachable";
  server = await startAppServer();
});
afterAll(() => server?.close());

it("answers GET /public/v1/healthz with 503 and the health object", async () => {
  const response = await fetch(`${server.url}/public/v1/healthz`);
  expect(response.status).toBe(503);
  expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  const body = await response.json();
  expect(body).toMatchObject({
    status: "degraded",
    app: "lending-platform",
    db: { up: false, latencyMs: null },
    migrations: { applied: 0, inSync: false },
    // Due work is counted in Postgres: with it down, the queue cannot be read either.
    queue: { reachable: false, pending: 0 },
  });
  expect(body.migrations.onDisk).toBeGreaterThan(0);
});

it("keeps GET /healthz at 200: the site is up even when the database is not", async () => {
  const response = await fetch(`${server.url}/healthz`);
  expect(response.status).toBe(200);
});

it("answers a partner call with 503 service_unavailable, retryable, with Retry-After", async () => {
  const response = await fetch(`${server.url}/partner/v1/keys`, { headers: { authorization: "Bearer a.b.c" } });
  const body = await expectApiError(response, 503, "service_unavailable");
  expect(body.error).toMatchObject({ type: "api_error", retryable: true, retry_after_ms: 1000 });
  expect(response.headers.get("retry-after")).toBe("1");
});

it("answers the token endpoint with 503 temporarily_unavailable (spec 5.2)", async () => {
  const response = await fetch(`${server.url}/partner/v1/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `grant_type=client_credentials&client_id=svc_client_${"0".repeat(26)}&client_secret=sk_sandbox_${"a".repeat(40)}`,
  });
  expect(response.status).toBe(503);
  expect(await response.json()).toMatchObject({ error: "temporarily_unavailable" });
  expect(response.headers.get("retry-after")).toBe("1");
});
