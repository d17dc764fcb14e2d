// A dead Redis must not take the API down: requests are served (fail open), and the health object counts it.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

let server: AppServer;
beforeAll(async () => {
  process.env.REDIS_URL = "redis://127.0.0.1:1";
  server = await startAppServer();
});
afterAll(() => server.close());

it("serves partner and public calls and reports the limiter unreachable", async () => {
  const project = await createTestProject();
  const token = await mintToken(server.url, project);
  const response = await fetch(`${server.url}/partner/v1/keys`, bearer(token));
  expect(response.status).toBe(200);
  expect(response.headers.get("ratelimit-remaining")).toBe("50");

  const health = await fetch(`${server.url}/public/v1/healthz`);
  expect(health.status).toBe(200);
  const body = await health.json();
  expect(body.status).toBe("ok");
  expect(body.ratelimit.backend).toBe("redis");
  expect(body.ratelimit.reachable).toBe(false);
  expect(body.ratelimit.failOpenCount).toBeGreaterThanOrEqual(3);
});
