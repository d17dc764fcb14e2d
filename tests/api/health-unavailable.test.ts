// With the database unreachable the health route answers 503 with the full health shape, while the
// site probe (which touches nothing) still answers 200. This file's app modules point at a dead server.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../helpers/app-server";

let server: AppServer;
beforeAll(async () => {
  process.env.DATABASE_URL = "postgresql://postgres:postgres@127.0.0.1:1/unreachable";
  server = await startAppServer();
});
afterAll(() => server.close());

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
    queue: { reachable: true, pending: 0 },
  });
  expect(body.migrations.onDisk).toBeGreaterThan(0);
});

it("keeps GET /healthz at 200: the site is up even when the database is not", async () => {
  const response = await fetch(`${server.url}/healthz`);
  expect(response.status).toBe(200);
});
