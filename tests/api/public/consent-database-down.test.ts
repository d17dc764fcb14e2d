// POST /public/v1/consent fails open when the database is unreachable: still 202, with `recorded: false`,
// never a 503 (spec 4.8). This file's app modules point at a dead server.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { captureLogs } from "../../helpers/logs";

let server: AppServer;
beforeAll(async () => {
  process.env.DATABASE_URL = "postgresql://postgres:postgres@127.0.0.1:1/unreachable";
  server = await startAppServer();
});
afterAll(() => server?.close());

function postConsent(body: string): Promise<Response> {
  return fetch(`${server.url}/public/v1/consent`, { method: "POST", headers: { "content-type": "application/json" }, body });
}

it("answers a valid snapshot with 202 {recorded: false} when it cannot be stored, and logs why without the snapshot", async () => {
  const body = JSON.stringify({ analytics: true, marketing: true, anonymous_id: "visitor-db-down", policy_version: "2026-11" });
  const { result: response, entries } = await captureLogs(() => postConsent(body));
  expect(response.status).toBe(202);
  expect(await response.json()).toEqual({ recorded: false });
  expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
  expect(response.headers.get("x-service-correlation-id")).toBeNull();
  expect(entries.filter((entry) => entry.msg === "consent snapshot not recorded")).toEqual([
    { level: "warn", time: expect.any(String), msg: "consent snapshot not recorded", error_name: "PrismaClientKnownRequestError", error_code: "P1001" },
  ]);
  expect(JSON.stringify(entries)).not.toContain("visitor-db-down");
});

it("answers a malformed body the same way", async () => {
  const response = await postConsent("{not json");
  expect(response.status).toBe(202);
  expect(await response.json()).toEqual({ recorded: false });
});
