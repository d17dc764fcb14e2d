// A dead Redis must not take the API down, nor switch limits off: requests are served and limited by the
// in-process fallback, and the limiter's state is reported to operators on this machine only.
import { afterAll, beforeAll, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

let server: AppServer;
beforeAll(async () => {
  process.env.REDIS_URL = "redis://127.0.0.1:1";
  server = await startAppServer();
});
afterAll(() => server?.close());

it("serves and limits partner calls in process", async () => {
  freezeClock("2027-04-01T09:00:00.000Z");
  const project = await createTestProject();
  const token = await mintToken(server.url, project);
  const statuses: number[] = [];
  for (let index = 0; index < 50; index += 1) statuses.push((await fetch(`${server.url}/partner/v1/keys`, bearer(token))).status);
  expect(new Set(statuses)).toEqual(new Set([200]));
  await expectApiError(await fetch(`${server.url}/partner/v1/keys`, bearer(token)), 429, "rate_limited");
});

it("keeps the limiter's state out of the public health object and reports it locally", async () => {
  const health = await fetch(`${server.url}/public/v1/healthz`);
  expect(health.status).toBe(200);
  const body = await health.json();
  expect(body.status).toBe("ok");
  expect(body).not.toHaveProperty("ratelimit");

  const internal = await fetch(`${server.url}/healthz/internal`);
  expect(internal.status).toBe(200);
  const { ratelimit } = await internal.json();
  expect(ratelimit).toMatchObject({ backend: "redis", reachable: false });
  expect(ratelimit.fallback_count).toBeGreaterThanOrEqual(51);
});
