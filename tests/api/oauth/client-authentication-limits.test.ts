// Who pays for a request to the endpoints that authenticate an OAuth client (token, introspection, client
// secrets): the caller's address first, before anything in the request is read; the client's own bucket only
// once it has authenticated. Nothing a caller invents (a client id) becomes a key in the limiter's store.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { MemoryRateLimitStore } from "@/lib/ratelimit/memory-store";
import { rateLimiter } from "@/lib/ratelimit/limiter";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { basicAuthorization, createTestProject, requestToken } from "../../helpers/partner";

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

const FORM = { "content-type": "application/x-www-form-urlencoded" };

function tokenRequestAs(clientId: string, secret: string): Promise<Response> {
  return fetch(`${server.url}/partner/v1/oauth/token`, {
    method: "POST",
    headers: { ...FORM, authorization: basicAuthorization(clientId, secret) },
    body: "grant_type=client_credentials",
  });
}

function memoryStore(): MemoryRateLimitStore {
  const store = rateLimiter().store;
  if (!(store instanceof MemoryRateLimitStore)) throw new Error("these tests expect the in-process store");
  return store;
}

describe("client ids the caller invents", () => {
  it("are refused as unknown clients without becoming limiter keys", async () => {
    freezeClock("2027-03-01T09:00:00.000Z");
    const before = memoryStore().size;
    for (let index = 0; index < 40; index += 1) {
      // In the Authorization header (as long as a header may be) and in the form (much longer).
      const response = index % 2 === 0
        ? await tokenRequestAs(`svc_client_${randomBytes(3_000).toString("hex")}`, `sk_sandbox_${"a".repeat(40)}`)
        : await fetch(`${server.url}/partner/v1/oauth/introspect`, {
            method: "POST",
            headers: FORM,
            body: new URLSearchParams({ client_id: `svc_client_${randomBytes(50_000).toString("hex")}`, client_secret: "x", token: "t" }),
          });
      expect(response.status).toBe(401);
      expect((await response.json()).error).toBe("invalid_client");
    }
    // The caller's address is the only new key.
    expect(memoryStore().size - before).toBeLessThanOrEqual(1);
  });
});

describe("a client's own bucket", () => {
  it("is spent only by requests that authenticate as that client", async () => {
    freezeClock("2027-03-02T09:00:00.000Z");
    const victim = await createTestProject();
    for (let index = 0; index < 15; index += 1) {
      expect((await tokenRequestAs(victim.client_id, `sk_sandbox_${"b".repeat(40)}`)).status).toBe(401);
    }
    const response = await requestToken(server.url, victim);
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-remaining")).toBe("9");
  });
});

describe("new client secrets", () => {
  it("are limited to 10 an hour per client", async () => {
    const clock = freezeClock("2027-03-03T09:00:00.000Z");
    const project = await createTestProject();
    const requestSecret = () =>
      fetch(`${server.url}/oauth/clients/${project.client_id}/secrets`, {
        method: "POST",
        headers: { ...FORM, authorization: basicAuthorization(project.client_id, project.sandbox.secret_key) },
      });
    for (let index = 0; index < 10; index += 1) expect((await requestSecret()).status).toBe(201);
    const refused = await requestSecret();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: "rate_limited" });
    expect(refused.headers.get("ratelimit-policy")).toBe("10;w=3600");
    clock.advance(3_600_000);
    expect((await requestSecret()).status).toBe(201);
  });
});

describe("the caller's address", () => {
  it("is limited before any client authenticates: 100 at once, then 429", async () => {
    freezeClock("2027-03-04T09:00:00.000Z");
    const statuses: number[] = [];
    for (let index = 0; index < 100; index += 1) statuses.push((await tokenRequestAs("svc_client_unknown", "wrong")).status);
    expect(new Set(statuses)).toEqual(new Set([401]));
    const refused = await tokenRequestAs("svc_client_unknown", "wrong");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit-policy")).toBe("50;w=1;burst=100");
  });
});
