// The peer address is believed only when our HTTP server stamped it in this process. Started without our
// server in front (`next start` alone), a caller could otherwise send the header itself and pick a fresh
// per-address bucket with every request.
import { expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { PEER_ADDRESS_HEADER } from "@/lib/wire/client-address";
import * as publicHealth from "@/app/public/v1/healthz/route";

const routeContext = { params: Promise.resolve({}) };
const claimingToBe = (address: string) =>
  publicHealth.GET(new Request("http://localhost/public/v1/healthz", { headers: { [PEER_ADDRESS_HEADER]: address } }), routeContext);

it("ignores a peer-address header our server did not set", async () => {
  freezeClock("2027-03-05T08:00:00.000Z");
  for (let index = 0; index < 60; index += 1) expect((await claimingToBe(`198.51.100.${index}`)).status).toBe(200);
  const refused = await claimingToBe("198.51.100.200");
  expect(refused.status).toBe(429);
  expect(refused.headers.get("ratelimit-policy")).toBe("60;w=60");
});
