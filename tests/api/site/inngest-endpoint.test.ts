// /api/inngest exists only when Inngest is configured: in the embedded default (no INNGEST_* variables) every
// method answers the site ring's 404 route_not_found, never Inngest's own 500 for a missing signing key.
import { afterAll, beforeAll, expect, it } from "vitest";
import { config } from "@/lib/env";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError } from "../../helpers/http";

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

it("is not configured in the test environment", () => {
  const { INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY, INNGEST_DEV } = config();
  expect([INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY, INNGEST_DEV]).toEqual([undefined, undefined, undefined]);
});

it.each(["GET", "POST", "PUT"])("answers %s /api/inngest with 404 route_not_found", async (method) => {
  const response = await fetch(`${server.url}/api/inngest?fnId=decide-application`, {
    method,
    ...(method === "GET" ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify({ event: { name: "lending/application.submitted" } }) }),
  });
  await expectApiError(response, 404, "route_not_found");
});
