// GET /healthz/internal in production (NODE_ENV=production, as `npm start` runs): a reverse proxy on the same
// machine makes every caller's socket peer loopback, so "from this machine" proves nothing there. The internals go
// only to the bearer of HEALTHZ_INTERNAL_TOKEN; to anyone else, local or not, the route does not exist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROCESS_STATS_SHAPE, startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson } from "../../helpers/http";

const TOKEN = "operator-token-0123456789abcdef0123456789abcdef";

let server: AppServer;
beforeAll(async () => {
  (process.env as Record<string, string>).NODE_ENV = "production";
  process.env.HEALTHZ_INTERNAL_TOKEN = TOKEN;
  server = await startAppServer();
});
afterAll(() => server?.close());

const internals = (headers: Record<string, string> = {}) => fetch(`${server.url}/healthz/internal`, { headers });

describe("the internal health surface in production", () => {
  it("does not exist for a request from this machine without the operator token, as for one a same-host proxy relays", async () => {
    await expectApiError(await internals(), 404, "route_not_found");
  });

  it.each([
    ["another token", { authorization: "Bearer operator-token-0123456789abcdef0123456789abcdeX" }],
    ["the token without the Bearer scheme", { authorization: TOKEN }],
    ["the token as Basic credentials", { authorization: `Basic ${Buffer.from(`:${TOKEN}`).toString("base64")}` }],
    ["the token with more after it", { authorization: `Bearer ${TOKEN}x` }],
  ])("does not exist for %s", async (_case, headers) => {
    await expectApiError(await internals(headers), 404, "route_not_found");
  });

  it("answers the bearer of the operator token, forwarded or not, and is never cached", async () => {
    const asSent: Array<Record<string, string>> = [{ authorization: `Bearer ${TOKEN}` }, { authorization: `bearer ${TOKEN}`, "x-forwarded-for": "203.0.113.9" }];
    for (const headers of asSent) {
      const response = await internals(headers);
      expect(await expectJson(response, 200)).toEqual({ ratelimit: { backend: "memory", reachable: true, fallback_count: 0 }, event_streams: { open: 0, reads: 0 }, process: PROCESS_STATS_SHAPE });
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
  });
});
