// Behind a reverse proxy (TRUSTED_PROXY_HEADER=x-forwarded-for), the public limit is keyed on the address the
// proxy appended (the last entry), never on entries the client wrote before it.
import { afterAll, beforeAll, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { startAppServer, type AppServer } from "../../helpers/app-server";

let server: AppServer;
beforeAll(async () => {
  process.env.TRUSTED_PROXY_HEADER = "X-Forwarded-For";
  server = await startAppServer();
});
afterAll(() => server.close());

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
