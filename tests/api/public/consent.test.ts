// POST /public/v1/consent over HTTP (spec 4.8, 5.3, 8): a snapshot is stored (its four fields and nothing
// else) and answered 202 `{recorded: true}`; the endpoint fails open, so anything that is not a snapshot is
// still 202, with `recorded: false`, and stores nothing; CORS admits only the site's origins; the public ring's
// 60-a-minute limit applies. Every test freezes the clock at its own minute, so each has a fresh rate-limit
// window.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError } from "../../helpers/http";

const RUN = randomBytes(4).toString("hex");
const RUN_START_MS = Date.UTC(2027, 0, 1);
const EVIL_ORIGIN = "https://evil.example";

let server: AppServer;
let testIndex = 0;
let now: Date;
let visitorCount = 0;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

beforeEach(() => {
  testIndex += 1;
  now = new Date(RUN_START_MS + testIndex * 60_000);
  freezeClock(now);
});

const siteOrigin = () => new URL(config().BASE_URL).origin;

/** A fresh anonymous id of `length` characters, unique to this run. */
function visitorId(length = 24): string {
  visitorCount += 1;
  return `v-${RUN}_${visitorCount}_`.padEnd(length, "x").slice(0, length);
}

function snapshot(anonymousId: string, overrides: Record<string, unknown> = {}) {
  return { analytics: true, marketing: false, anonymous_id: anonymousId, policy_version: "2026-11", ...overrides };
}

function postConsent(body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }, query = ""): Promise<Response> {
  return fetch(`${server.url}/public/v1/consent${query}`, { method: "POST", headers, body });
}

async function expectAnswer(response: Response, recorded: boolean): Promise<void> {
  const text = await response.text();
  expect({ status: response.status, body: text }).toEqual({ status: 202, body: JSON.stringify({ recorded }) });
  expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
}

/** Every stored column of the snapshots made for `anonymousId`, as the database holds them. */
function rowsFor(anonymousId: string): Promise<Record<string, unknown>[]> {
  return db().$queryRaw<Record<string, unknown>[]>`SELECT * FROM consent_snapshots WHERE anonymous_id = ${anonymousId} ORDER BY id`;
}

const rowsMadeThisTest = () => db().consentSnapshot.count({ where: { createdAt: now } });

describe("recording a snapshot", () => {
  it("stores exactly the four fields and answers 202 {recorded: true}", async () => {
    const anonymousId = visitorId();
    const response = await postConsent(JSON.stringify(snapshot(anonymousId)), {
      "content-type": "application/json",
      "user-agent": "VisitorBrowser/1.0",
      cookie: "session=abc",
    });
    await expectAnswer(response, true);
    expect(await rowsFor(anonymousId)).toEqual([
      {
        id: expect.stringMatching(/^cns_[0-9a-z]{26}$/),
        anonymous_id: anonymousId,
        analytics: true,
        marketing: false,
        policy_version: "2026-11",
        created_at: now,
      },
    ]);
  });

  it("keeps every snapshot a visitor sends, so a withdrawal follows the grant it replaces", async () => {
    const anonymousId = visitorId();
    await expectAnswer(await postConsent(JSON.stringify(snapshot(anonymousId, { analytics: true, marketing: true }))), true);
    await expectAnswer(await postConsent(JSON.stringify(snapshot(anonymousId, { analytics: false, marketing: false, policy_version: "2026-12" }))), true);
    const rows = await rowsFor(anonymousId);
    expect(rows.map(({ analytics, marketing, policy_version }) => ({ analytics, marketing, policy_version }))).toEqual([
      { analytics: true, marketing: true, policy_version: "2026-11" },
      { analytics: false, marketing: false, policy_version: "2026-12" },
    ]);
  });

  it("accepts anonymous ids of 8 and 64 characters and a policy version of 32", async () => {
    const shortest = visitorId(8);
    const longest = visitorId(64);
    await expectAnswer(await postConsent(JSON.stringify(snapshot(shortest))), true);
    await expectAnswer(await postConsent(JSON.stringify(snapshot(longest, { policy_version: "p".repeat(32) }))), true);
    expect((await rowsFor(shortest)).length).toBe(1);
    expect((await rowsFor(longest)).map((row) => row.policy_version)).toEqual(["p".repeat(32)]);
  });

  it("accepts a body of exactly 4 KiB", async () => {
    const anonymousId = visitorId();
    const json = JSON.stringify(snapshot(anonymousId));
    await expectAnswer(await postConsent(json + " ".repeat(4096 - json.length)), true);
    expect((await rowsFor(anonymousId)).length).toBe(1);
  });

  it("ignores a query string rather than refusing it", async () => {
    const anonymousId = visitorId();
    await expectAnswer(await postConsent(JSON.stringify(snapshot(anonymousId)), undefined, "?utm_source=newsletter"), true);
    expect((await rowsFor(anonymousId)).length).toBe(1);
  });
});

describe("failing open", () => {
  const json = { "content-type": "application/json" };
  const variants: Array<{ label: string; body: (id: string) => BodyInit | null; headers?: Record<string, string> }> = [
    { label: "invalid JSON", body: (id) => `{"anonymous_id":"${id}","analytics":tru` },
    { label: "analytics that is not a boolean", body: (id) => JSON.stringify(snapshot(id, { analytics: "yes" })) },
    { label: "marketing as null", body: (id) => JSON.stringify(snapshot(id, { marketing: null })) },
    { label: "a missing field", body: (id) => JSON.stringify({ analytics: true, anonymous_id: id, policy_version: "2026-11" }) },
    { label: "an unknown field (an email)", body: (id) => JSON.stringify(snapshot(id, { email: "visitor@example.com" })) },
    { label: "a 7-character anonymous id", body: () => JSON.stringify(snapshot(visitorId(7))) },
    { label: "a 65-character anonymous id", body: () => JSON.stringify(snapshot(visitorId(65))) },
    { label: "an anonymous id with a space", body: (id) => JSON.stringify(snapshot(`${id} x`)) },
    { label: "an empty policy version", body: (id) => JSON.stringify(snapshot(id, { policy_version: "" })) },
    { label: "a 33-character policy version", body: (id) => JSON.stringify(snapshot(id, { policy_version: "p".repeat(33) })) },
    { label: "an array", body: (id) => JSON.stringify([snapshot(id)]) },
    { label: "null", body: () => "null" },
    { label: "no body", body: () => null },
    { label: "a body over 4 KiB (valid JSON padded to 4097 bytes)", body: (id) => JSON.stringify(snapshot(id)).padEnd(4097, " ") },
    { label: "a text/plain body", body: (id) => JSON.stringify(snapshot(id)), headers: { "content-type": "text/plain" } },
    { label: "a body without a content type", body: (id) => new TextEncoder().encode(JSON.stringify(snapshot(id))), headers: {} },
    {
      label: "a form-encoded body",
      body: (id) => new URLSearchParams({ analytics: "true", marketing: "false", anonymous_id: id, policy_version: "2026-11" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    },
  ];

  it.each(variants)("answers $label with 202 {recorded: false} and stores nothing", async ({ body, headers }) => {
    const anonymousId = visitorId();
    await expectAnswer(await postConsent(body(anonymousId), headers ?? json), false);
    expect(await rowsFor(anonymousId)).toEqual([]);
    expect(await rowsMadeThisTest()).toBe(0);
  });

  it("answers a method other than POST with 405 and Allow", async () => {
    const response = await fetch(`${server.url}/public/v1/consent`);
    await expectApiError(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
  });
});

describe("CORS", () => {
  it("echoes the site origin on a POST from it", async () => {
    const response = await postConsent(JSON.stringify(snapshot(visitorId())), { "content-type": "application/json", origin: siteOrigin() });
    await expectAnswer(response, true);
    expect(response.headers.get("access-control-allow-origin")).toBe(siteOrigin());
    expect(response.headers.get("vary")).toBe("Origin");
  });

  it("gives another origin no Access-Control-Allow-Origin", async () => {
    const response = await postConsent(JSON.stringify(snapshot(visitorId())), { "content-type": "application/json", origin: EVIL_ORIGIN });
    expect(response.status).toBe(202);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("allows a preflight for POST from the site origin", async () => {
    const response = await fetch(`${server.url}/public/v1/consent`, {
      method: "OPTIONS",
      headers: { origin: siteOrigin(), "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(siteOrigin());
    expect(response.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(response.headers.get("access-control-allow-headers")).toBe("Content-Type, Idempotency-Key");
  });

  it("refuses the preflight of another origin", async () => {
    const response = await fetch(`${server.url}/public/v1/consent`, {
      method: "OPTIONS",
      headers: { origin: EVIL_ORIGIN, "access-control-request-method": "POST" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-allow-methods")).toBeNull();
  });
});

describe("the public ring's rate limit", () => {
  it("answers the 61st request of a minute with 429 rate_limited, which records nothing", async () => {
    const anonymousId = visitorId();
    const body = JSON.stringify(snapshot(anonymousId));
    const answers: string[] = [];
    for (let index = 0; index < 60; index += 1) {
      const response = await postConsent(body);
      answers.push(`${response.status} ${await response.text()}`);
    }
    expect(new Set(answers)).toEqual(new Set(['202 {"recorded":true}']));
    const refused = await postConsent(body);
    const error = await expectApiError(refused, 429, "rate_limited");
    expect(error.error).toMatchObject({ type: "rate_limit_error", retryable: true, retry_after_ms: 60_000 });
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.headers.get("ratelimit-policy")).toBe("60;w=60");
    expect((await rowsFor(anonymousId)).length).toBe(60);
  });
});
