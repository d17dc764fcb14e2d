// Behind a reverse proxy (TRUSTED_PROXY_HEADER=x-forwarded-for), the public limit is keyed on the address the
// proxy appended (the last entry), never on entries the client wrote before it.
import { afterAll, beforeAll, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { PROCESS_STATS_SHAPE, startAppServer, type AppServer } from "../../helpers/app-server";

let server: AppServer;
beforeAll(async () => {
  process.env.TRUSTED_PROXY_HEADER = "X-Forwarded-For";
  server = await startAppServer();
});
afterAll(() => server?.close());

const from = (forwardedFor: string) => fetch(`${server.url}/public/v1/healthz`, { headers: { "x-forwarded-for": forwardedFor } });

it("keys the public window on the proxy's last hop", async () => {
  freezeClock("2027-03-01T08:00:00.000Z");
  for (let index = 0; index < 60; index += 1) {
    // The client varies what it claims; the proxy's entry stays the same.
    expect((await from(`10.0.0.${index}, 192.0.2.10`)).status).toBe(200);
  }
  expect((await from("10.9.9.9, 192.0.2.10")).status).toBe(429);
  expect((await from("192.0.2.10, 192.0.2.11")).status).toBe(200);
});

it("groups IPv6 clients by their /64", async () => {
  freezeClock("2027-03-02T08:00:00.000Z");
  for (let index = 0; index < 60; index += 1) {
    // One subscriber's /64 holds 2^64 addresses; each new one must not be a fresh bucket.
    expect((await from(`2001:db8:7:1::${(index + 1).toString(16)}`)).status).toBe(200);
  }
  expect((await from("2001:db8:7:1:ffff:ffff:ffff:1")).status).toBe(429);
  expect((await from("2001:db8:7:2::1")).status).toBe(200);
});

it("shows the process's internals only to a request no proxy forwarded", async () => {
  const forwarded = await fetch(`${server.url}/healthz/internal`, { headers: { "x-forwarded-for": "127.0.0.1" } });
  expect(forwarded.status).toBe(404);
  expect((await forwarded.json()).error.code).toBe("route_not_found");
  const local = await fetch(`${server.url}/healthz/internal`);
  expect(local.status).toBe(200);
  expect(await local.json()).toEqual({ ratelimit: { backend: "memory", reachable: true, fallback_count: 0 }, event_streams: { open: 0, reads: 0 }, process: PROCESS_STATS_SHAPE });
});

it("refuses bad input to the internals like any endpoint: an unknown query field, a method it does not answer", async () => {
  const unknown = await fetch(`${server.url}/healthz/internal?verbose=1`);
  expect(unknown.status).toBe(400);
  expect((await unknown.json()).error.code).toBe("unknown_field");
  const posted = await fetch(`${server.url}/healthz/internal`, { method: "POST", body: "{}" });
  expect(posted.status).toBe(405);
  expect(posted.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
});
