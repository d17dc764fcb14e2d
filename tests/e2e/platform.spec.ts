// The platform behind the production server (`npm start`): pages render in Chromium and Next's own routing sends API paths
// through the route builder (ids, envelope, 404 and 405).
import { expect, test } from "@playwright/test";

test("the home page presents the three products", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Finance for UK limited companies and LLPs");
  await expect(page.getByRole("list", { name: "Products" }).getByRole("listitem")).toHaveCount(3);
  await expect(page).toHaveTitle("Lending Platform");
});

test("an unknown page shows the not-found page", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
});

test("GET /healthz answers ok with a request id", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok" });
  expect(response.headers()["x-request-id"]).toMatch(/^req_[0-9a-z]{26}$/);
});

test("GET /public/v1/healthz reports a migrated, reachable database", async ({ request }) => {
  const response = await request.get("/public/v1/healthz");
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body).toMatchObject({ status: "ok", db: { up: true }, migrations: { inSync: true }, queue: { reachable: true } });
});

test("an unknown partner path is a 404 route_not_found envelope", async ({ request }) => {
  const response = await request.post("/partner/v1/widgets/wid_1/polish", { data: { shine: true } });
  expect(response.status()).toBe(404);
  const body = await response.json();
  expect(body.error).toMatchObject({ code: "route_not_found", type: "invalid_request_error", retryable: false });
  expect(response.headers()["x-service-correlation-id"]).toBe(body.error.correlation_id);
});

test("an unknown public path is a 404 route_not_found envelope", async ({ request }) => {
  const response = await request.get("/public/v1/nothing/here");
  expect(response.status()).toBe(404);
  expect((await response.json()).error.code).toBe("route_not_found");
});

test("a wrong method is a 405 with Allow", async ({ request }) => {
  const response = await request.delete("/public/v1/healthz");
  expect(response.status()).toBe(405);
  expect(response.headers()["allow"]).toBe("GET, HEAD, OPTIONS");
  expect((await response.json()).error.code).toBe("method_not_allowed");
});

test("the public limit counts the real peer, not a claimed X-Forwarded-For", async ({ request }) => {
  const first = await request.get("/public/v1/healthz", { headers: { "x-forwarded-for": "198.51.100.1" } });
  const second = await request.get("/public/v1/healthz", { headers: { "x-forwarded-for": "198.51.100.2" } });
  expect(first.headers()["ratelimit-policy"]).toBe("60;w=60");
  const remaining = [first, second].map((response) => Number(response.headers()["ratelimit-remaining"]));
  // Both claims land in the same bucket (unless the minute turned over between them).
  expect(remaining[1] === remaining[0]! - 1 || remaining[1] === 59).toBe(true);
});
