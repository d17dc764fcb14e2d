// Metering over HTTP (spec 8) with the in-process store and a frozen clock: the project bucket per
// environment, tier numbers, headers on every response, 429s, sub-limits, concurrency, the token endpoint
// per client, unauthenticated callers per address, and the public ring's fixed window.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { recordEvents } from "@/lib/events/events";
import type { Principal } from "@/lib/http/auth";
import { meterPartnerRequest, meterSubLimit } from "@/lib/http/metering";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";
import { startRequest } from "@/lib/http/request-edges";
import { ApiError } from "@/lib/errors";
import { forgetProjectState } from "@/lib/projects/project-state";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError } from "../../helpers/http";
import { basicAuthorization, bearer, createTestProject, mintToken } from "../../helpers/partner";

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

const keys = (token: string) => fetch(`${server.url}/partner/v1/keys`, bearer(token));

/** Spends `count` requests; returns their statuses. */
async function spend(count: number, request: () => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) statuses.push((await request()).status);
  return statuses;
}

async function sandboxSetup(start: string): Promise<{ project: ProjectCredentials; token: string; clock: ReturnType<typeof freezeClock> }> {
  const clock = freezeClock(start);
  const project = await createTestProject();
  return { project, token: await mintToken(server.url, project), clock };
}

describe("the project bucket", () => {
  it("sends the RateLimit headers on successes", async () => {
    const { token } = await sandboxSetup("2027-02-01T10:00:00.000Z");
    const response = await keys(token);
    expect(response.status).toBe(200);
    expect(Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("ratelimit")))).toEqual({
      "ratelimit-limit": "50",
      "ratelimit-remaining": "49",
      "ratelimit-reset": "1",
      "ratelimit-policy": "10;w=1;burst=50",
    });
  });

  it("sends them on errors too", async () => {
    const { token } = await sandboxSetup("2027-02-01T10:05:00.000Z");
    const response = await fetch(`${server.url}/partner/v1/keys/key_nope`, bearer(token));
    expect(response.status).toBe(404);
    expect(response.headers.get("ratelimit-remaining")).toBe("49");
    const invalid = await fetch(`${server.url}/partner/v1/keys`, bearer(token, { method: "POST", headers: { "content-type": "application/json" }, body: "{" }));
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("ratelimit-remaining")).toBe("48");
  });

  it("allows the burst of 50, answers the 51st with 429, and refills 10 a second", async () => {
    const { token, clock } = await sandboxSetup("2027-02-01T11:00:00.000Z");
    expect(new Set(await spend(50, () => keys(token)))).toEqual(new Set([200]));
    const refused = await keys(token);
    const body = await expectApiError(refused, 429, "rate_limited");
    expect(body.error).toMatchObject({ type: "rate_limit_error", retryable: true, retry_after_ms: 1000 });
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("ratelimit-reset")).toBe("5");

    clock.advance(1_000);
    expect(await spend(11, () => keys(token))).toEqual([...Array(10).fill(200), 429]);
    clock.advance(10_000);
    const full = await keys(token);
    expect(full.headers.get("ratelimit-remaining")).toBe("49");
  });

  it("keeps sandbox and live buckets apart", async () => {
    const { project, token } = await sandboxSetup("2027-02-01T12:00:00.000Z");
    await spend(50, () => keys(token));
    expect((await keys(token)).status).toBe(429);
    const live = await mintToken(server.url, project, { environment: "live" });
    const response = await keys(live);
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-remaining")).toBe("49");
  });

  it("shares one bucket between two keys of a project", async () => {
    const { project, token } = await sandboxSetup("2027-02-01T13:00:00.000Z");
    const created = await (await fetch(`${server.url}/partner/v1/keys`, bearer(token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "secret" }) }))).json();
    const other = await mintToken(server.url, project, { secret: created.secret });
    // The POST that created the second key spent one token of the same bucket.
    const statuses = await spend(50, () => keys(other));
    expect(statuses).toEqual([...Array(49).fill(200), 429]);
    expect((await keys(token)).status).toBe(429);
  });

  it.each([
    ["launch", {}, "100", "25;w=1;burst=100"],
    ["scale", {}, "400", "100;w=1;burst=400"],
    ["platform", { rateLimitPerSecond: 250, rateLimitBurst: 900, rateLimitConcurrent: 80 }, "900", "250;w=1;burst=900"],
  ])("gives a %s project's live bucket its tier numbers", async (tier, platform, limit, policy) => {
    freezeClock("2027-02-01T14:00:00.000Z");
    const project = await createTestProject({ tier: tier as "launch" });
    await db().project.update({ where: { id: project.project_id }, data: platform });
    forgetProjectState(project.project_id);
    const live = await keys(await mintToken(server.url, project, { environment: "live" }));
    expect([live.headers.get("ratelimit-limit"), live.headers.get("ratelimit-policy")]).toEqual([limit, policy]);
    const sandbox = await keys(await mintToken(server.url, project));
    expect(sandbox.headers.get("ratelimit-policy")).toBe("10;w=1;burst=50");
  });
});

describe("sub-limits and concurrency", () => {
  const context = () => startRequest(new Request("http://test/partner/v1/applications", { method: "POST" }), "partner", "/applications");
  const principal = (projectId: string): Principal => ({
    projectId,
    clientId: "svc_client_test",
    environment: "sandbox",
    livemode: false,
    scopes: new Set(),
    tokenId: "t",
    limitSettings: { tier: "build", platform: { ratePerSecond: null, burst: null, concurrent: null } },
    sandboxClockOffsetDays: 0,
  });

  it("limits POST /applications to 5 a second on top of the project bucket", async () => {
    freezeClock("2027-02-02T09:00:00.000Z");
    const caller = principal(`proj_sub_${Date.now()}`);
    const metered = { caller: { kind: "bearer" as const, principal: caller }, request: new Request("http://localhost/partner/v1/applications", { method: "POST" }) };
    for (let index = 0; index < 5; index += 1) {
      const admitted = context();
      await (await meterPartnerRequest(caller, admitted))();
      await meterSubLimit(SUB_LIMITS.applicationsCreate, metered, admitted);
    }
    const refused = context();
    await (await meterPartnerRequest(caller, refused))();
    await expect(meterSubLimit(SUB_LIMITS.applicationsCreate, metered, refused)).rejects.toMatchObject({ code: "rate_limited" });
    expect(refused.rateLimit?.policy).toMatchObject({ name: "applications-create", ratePerSecond: 5, burst: 5 });
    // The project bucket still has room for other routes, which have no sub-limit.
    await expect(meterSubLimit(undefined, metered, context())).resolves.toBeUndefined();
    await expect(meterPartnerRequest(caller, context())).resolves.toBeTypeOf("function");
  });

  it("caps in-flight requests at the tier's concurrency and frees a slot when one ends", async () => {
    freezeClock("2027-02-02T09:10:00.000Z");
    const caller = principal(`proj_cc_${Date.now()}`);
    const releases = [];
    for (let index = 0; index < 10; index += 1) releases.push(await meterPartnerRequest(caller, context()));
    const error = await meterPartnerRequest(caller, context()).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "rate_limited", retryAfterMs: 1000 });
    await releases[0]!();
    await expect(meterPartnerRequest(caller, context())).resolves.toBeTypeOf("function");
  });
});

describe("event replays", () => {
  it("are limited to bursts of 10, then 2 a second, per project", async () => {
    const clock = freezeClock("2027-02-06T09:00:00.000Z");
    const project = await createTestProject();
    const token = await mintToken(server.url, project);
    const [eventId] = await db().$transaction((transaction) =>
      recordEvents(transaction, [{ projectId: project.project_id, environment: "sandbox", type: "application.created", object: { id: "app_replayed" }, createdAt: new Date("2027-02-06T09:00:00.000Z") }]),
    );
    const replay = () => fetch(`${server.url}/partner/v1/events/${eventId}/replay`, bearer(token, { method: "POST" }));
    expect(await spend(10, replay)).toEqual(Array(10).fill(202));
    const refused = await replay();
    await expectApiError(refused, 429, "rate_limited");
    expect(refused.headers.get("ratelimit-policy")).toBe("2;w=1;burst=10");
    clock.advance(1_000);
    expect(await spend(3, replay)).toEqual([202, 202, 429]);
  });
});

describe("the token endpoint", () => {
  const tokenRequest = (project: ProjectCredentials) =>
    fetch(`${server.url}/partner/v1/oauth/token`, {
      method: "POST",
      headers: { authorization: basicAuthorization(project.client_id, project.sandbox.secret_key), "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });

  it("allows 10 requests a second per client and answers the 11th in OAuth form", async () => {
    freezeClock("2027-02-03T09:00:00.000Z");
    const [project, other] = [await createTestProject(), await createTestProject()];
    expect(await spend(10, () => tokenRequest(project))).toEqual(Array(10).fill(200));
    const refused = await tokenRequest(project);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: "rate_limited" });
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("ratelimit-policy")).toBe("10;w=1;burst=10");
    expect((await tokenRequest(other)).status).toBe(200);
  });
});

describe("callers without a valid token", () => {
  it("are metered per address: 50 answers of 401, then 429", async () => {
    freezeClock("2027-02-04T09:00:00.000Z");
    expect(new Set(await spend(50, () => fetch(`${server.url}/partner/v1/keys`)))).toEqual(new Set([401]));
    const refused = await fetch(`${server.url}/partner/v1/keys`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    await expectApiError(refused, 429, "rate_limited");
  });
});

describe("the public ring", () => {
  it("allows 60 requests a minute per address, whatever X-Forwarded-For says", async () => {
    const clock = freezeClock("2027-02-05T09:00:00.000Z");
    const statuses = await spend(60, () => fetch(`${server.url}/public/v1/healthz`));
    expect(new Set(statuses)).toEqual(new Set([200]));
    const spoofed = await fetch(`${server.url}/public/v1/healthz`, { headers: { "x-forwarded-for": "198.51.100.7", "x-real-ip": "198.51.100.8" } });
    const body = await expectApiError(spoofed, 429, "rate_limited");
    expect(body.error.retry_after_ms).toBe(60_000);
    expect(spoofed.headers.get("retry-after")).toBe("60");
    expect(spoofed.headers.get("ratelimit-policy")).toBe("60;w=60");
    expect((await fetch(`${server.url}/public/v1/no-such-thing`)).status).toBe(429);
    clock.advance(60_000);
    const next = await fetch(`${server.url}/public/v1/healthz`);
    expect(next.status).toBe(200);
    expect(next.headers.get("ratelimit-remaining")).toBe("59");
  });
});
