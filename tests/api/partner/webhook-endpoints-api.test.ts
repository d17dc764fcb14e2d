// The webhook endpoints API (spec 4.6, 2.7, 3.5, 7.3) over HTTP: register, list, read, update, enable, roll the
// signing secret and delete, with the URL rules (https only, no credentials or fragment, no private addresses:
// server-side request forgery) and the per-environment limit. This file runs WITHOUT
// WEBHOOK_ALLOW_PRIVATE_TARGETS, so the sandbox gets the same address rules as live. The machine has no outbound
// network: accepted URLs use a public IP literal, which needs no DNS. Tests that freeze the clock freeze it far in
// the future (so other files' real-clock delivery sweeps never find their deliveries due) and mint tokens after.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { recordEvents } from "@/lib/events/events";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { signingSecrets } from "@/lib/webhooks/deliver";
import { signWebhookPayload, verifyWebhookSignature } from "@/lib/webhooks/signature";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { holdRowLock } from "../../helpers/row-locks";
import { expectApiError, jsonRequest, type ErrorBody, expectJson as expectJsonBody } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

interface EndpointBody {
  id: string;
  object: string;
  livemode: boolean;
  url: string;
  enabled_events: string[];
  status: string;
  disabled_reason: string | null;
  api_version: string;
  description: string | null;
  metadata: Record<string, string>;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  secret?: string;
}

interface ListBody {
  object: string;
  data: EndpointBody[];
  has_more: boolean;
  url: string;
}

const PUBLIC_URL = "https://93.184.215.14/hooks";
const ENDPOINT_ID = /^whe_[0-9a-z]{26}$/;
const SECRET = /^whsec_[0-9A-Za-z]{40}$/;
const HOUR_MS = 3_600_000;
const T0 = "2027-03-04T05:06:07.089Z";
const at = (offsetMs: number) => new Date(new Date(T0).getTime() + offsetMs).toISOString();

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

function call(token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init = body === undefined ? { method, headers } : jsonRequest(method, body, headers);
  return fetch(`${server.url}/partner/v1${path}`, bearer(token, init));
}

const expectJson = <T = EndpointBody>(response: Response, status: number) => expectJsonBody<T>(response, status);

/** The stable parts of an error's detail items (messages are human text and may change). */
function reasons(body: ErrorBody): Array<{ field?: string; reason: string }> {
  return (body.error.detail ?? []).map(({ field, reason }) => (field === undefined ? { reason } : { field, reason }));
}

/** A fresh project (own rate-limit buckets and endpoint limit) and a sandbox token; freeze the clock first when needed. */
async function freshProject(): Promise<{ project: ProjectCredentials; token: string }> {
  const project = await createTestProject();
  return { project, token: await mintToken(server.url, project) };
}

async function register(token: string, body: Record<string, unknown> = {}): Promise<EndpointBody> {
  return expectJson(await call(token, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["application.created"], ...body }), 201);
}

async function retrieve(token: string, id: string): Promise<EndpointBody> {
  return expectJson(await call(token, "GET", `/webhook_endpoints/${id}`), 200);
}

async function list(token: string, query = ""): Promise<ListBody> {
  return expectJson<ListBody>(await call(token, "GET", `/webhook_endpoints${query ? `?${query}` : ""}`), 200);
}

const endpointCount = (projectId: string) => db().webhookEndpoint.count({ where: { projectId } });

describe("configuration of this file", () => {
  it("runs without WEBHOOK_ALLOW_PRIVATE_TARGETS, so sandbox endpoints follow the live address rules", () => {
    expect(process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS).toBeUndefined();
    expect(config().WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
  });
});

describe("POST /webhook_endpoints", () => {
  it("registers an endpoint and returns it with its signing secret, once", async () => {
    freezeClock(T0);
    const { project, token } = await freshProject();
    const created = await register(token, {
      enabled_events: ["application.created", "decision.completed"],
      description: "Production receiver",
      metadata: { team: "lending", region: "uk" },
    });

    expect(created).toEqual({
      id: expect.stringMatching(ENDPOINT_ID),
      object: "webhook_endpoint",
      livemode: false,
      url: PUBLIC_URL,
      enabled_events: ["application.created", "decision.completed"],
      status: "enabled",
      disabled_reason: null,
      api_version: "2026-11-01",
      description: "Production receiver",
      metadata: { team: "lending", region: "uk" },
      previous_secret_expires_at: null,
      created_at: T0,
      updated_at: T0,
      secret: expect.stringMatching(SECRET),
    });
    expect(Object.keys(created)).toEqual([
      "id", "object", "livemode", "url", "enabled_events", "status", "disabled_reason", "api_version",
      "description", "metadata", "previous_secret_expires_at", "created_at", "updated_at", "secret",
    ]);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ projectId: project.project_id, environment: "sandbox", secret: created.secret, apiVersion: null });

    const { secret: _secret, ...withoutSecret } = created;
    const read = await retrieve(token, created.id);
    expect(read).toEqual(withoutSecret);
    expect(read).not.toHaveProperty("secret");
    const listed = await list(token);
    expect(listed.data).toEqual([withoutSecret]);
    expect(JSON.stringify(listed)).not.toContain(created.secret!);
  });

  it("gives each endpoint its own secret of whsec_ and 40 base62 characters", async () => {
    const { token } = await freshProject();
    const first = await register(token);
    const second = await register(token);
    expect(first.secret).toMatch(SECRET);
    expect(second.secret).toMatch(SECRET);
    expect(second.secret).not.toBe(first.secret);
  });

  it("stores enabled_events without duplicates, in first-seen order", async () => {
    const { token } = await freshProject();
    const created = await register(token, { enabled_events: ["application.created", "decision.completed", "application.created", "decision.completed"] });
    expect(created.enabled_events).toEqual(["application.created", "decision.completed"]);
    expect((await retrieve(token, created.id)).enabled_events).toEqual(["application.created", "decision.completed"]);
  });

  it('accepts ["*"] to subscribe to every event', async () => {
    const { token } = await freshProject();
    const created = await register(token, { enabled_events: ["*"] });
    expect(created.enabled_events).toEqual(["*"]);
  });

  it('rejects "*" beside another event type with 422 wildcard_not_alone', async () => {
    const { project, token } = await freshProject();
    const response = await call(token, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["*", "application.created"] });
    const body = await expectApiError(response, 422, "validation_failed");
    expect(reasons(body)).toEqual([{ field: "enabled_events", reason: "wildcard_not_alone" }]);
    expect(await endpointCount(project.project_id)).toBe(0);
  });

  it("rejects an empty enabled_events array with 422", async () => {
    const { token } = await freshProject();
    const body = await expectApiError(await call(token, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: [] }), 422, "validation_failed");
    expect(reasons(body)).toEqual([{ field: "enabled_events", reason: "too_small" }]);
  });

  it("rejects an unknown event type with 422 webhook_event_unknown naming its position", async () => {
    const { project, token } = await freshProject();
    const response = await call(token, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["application.created", "application.exploded"] });
    const body = await expectApiError(response, 422, "webhook_event_unknown");
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.retryable).toBe(false);
    expect(body.error.detail).toEqual([
      { field: "enabled_events.1", reason: "unknown_event_type", message: "application.exploded is not an event type." },
    ]);
    expect(await endpointCount(project.project_id)).toBe(0);
  });

  it("accepts api_version pinned to the account version and rejects another date with 422", async () => {
    const { token } = await freshProject();
    const pinned = await register(token, { api_version: "2026-11-01" });
    expect(pinned.api_version).toBe("2026-11-01");
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: pinned.id } })).apiVersion).toBe("2026-11-01");

    const response = await call(token, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["*"], api_version: "2020-01-01" });
    const body = await expectApiError(response, 422, "validation_failed");
    expect(reasons(body)).toEqual([{ field: "api_version", reason: "invalid_value" }]);
  });

  it("accepts 20 metadata pairs and rejects 21 with 422", async () => {
    const { token } = await freshProject();
    const pairs = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`key${index}`, `value${index}`]));
    const twenty = await register(token, { metadata: pairs(20) });
    expect(twenty.metadata).toEqual(pairs(20));

    const response = await call(token, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["*"], metadata: pairs(21) });
    const body = await expectApiError(response, 422, "validation_failed");
    expect(reasons(body)).toEqual([{ field: "metadata", reason: "too_many_pairs" }]);
  });

  it.each([
    { label: "a NUL in the description", extra: { description: "orders\u0000" }, field: "description" },
    { label: "a NUL in the url", extra: { url: `${PUBLIC_URL}\u0000` }, field: "url" },
    { label: "a NUL in a metadata value", extra: { metadata: { team: "\u0000" } }, field: "metadata.team" },
    { label: "an unpaired surrogate in a metadata key", extra: { metadata: { "\udc00": "x" } }, field: "metadata.\udc00" },
  ])("rejects $label with 422 invalid_characters and registers nothing", async ({ extra, field }) => {
    const { project, token } = await freshProject();
    const body = await expectApiError(await call(token, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["*"], ...extra }), 422, "validation_failed");
    expect(reasons(body)).toEqual([{ field, reason: "invalid_characters" }]);
    expect(await endpointCount(project.project_id)).toBe(0);
  });

  it("rejects a body without url with 422 required", async () => {
    const { token } = await freshProject();
    const body = await expectApiError(await call(token, "POST", "/webhook_endpoints", { enabled_events: ["*"] }), 422, "validation_failed");
    expect(body.error.detail).toEqual([{ field: "url", reason: "required", message: "url is required." }]);
  });

  it("rejects a body without enabled_events with 422 required", async () => {
    const { token } = await freshProject();
    const body = await expectApiError(await call(token, "POST", "/webhook_endpoints", { url: PUBLIC_URL }), 422, "validation_failed");
    expect(body.error.detail).toEqual([{ field: "enabled_events", reason: "required", message: "enabled_events is required." }]);
  });

  it("rejects a field it does not accept with 400 unknown_field", async () => {
    const { project, token } = await freshProject();
    const response = await call(token, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["*"], secret: "whsec_chosen_by_caller" });
    const body = await expectApiError(response, 400, "unknown_field");
    expect(body.error.detail).toEqual([{ field: "secret", reason: "unknown_field", message: "Unknown field `secret`: the fields accepted here are url, enabled_events, description, api_version and metadata." }]);
    expect(await endpointCount(project.project_id)).toBe(0);
  });

  it("replays a retry with the same Idempotency-Key without the secret, and registers one endpoint", async () => {
    const { project, token } = await freshProject();
    const request = { url: PUBLIC_URL, enabled_events: ["*"], description: "retried" };
    const headers = { "idempotency-key": "register-endpoint-0001" };

    const created = await expectJson(await call(token, "POST", "/webhook_endpoints", request, headers), 201);
    expect(created.secret).toMatch(SECRET);
    const second = await call(token, "POST", "/webhook_endpoints", request, headers);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.headers.get("idempotent-withheld-fields")).toBe("secret");
    // The signing secret is shown once (spec 2.7, 5.1): the Idempotency-Key's record never held it.
    const { secret: _secret, ...withoutSecret } = created;
    expect(await second.text()).toBe(JSON.stringify(withoutSecret));

    const rows = await db().webhookEndpoint.findMany({ where: { projectId: project.project_id } });
    expect(rows.map((row) => row.id)).toEqual([created.id]);
    expect(rows[0]!.secret).toBe(created.secret);
  });

  it("answers 409 idempotency_key_reused for the same Idempotency-Key with a different body", async () => {
    const { project, token } = await freshProject();
    const headers = { "idempotency-key": "register-endpoint-0002" };
    await expectJson(await call(token, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["*"] }, headers), 201);
    await expectApiError(await call(token, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["payment.settled"] }, headers), 409, "idempotency_key_reused");
    expect(await endpointCount(project.project_id)).toBe(1);
  });
});

describe("URL rules", () => {
  let project: ProjectCredentials;
  let sandboxToken: string;
  let liveToken: string;

  beforeAll(async () => {
    project = await createTestProject();
    sandboxToken = await mintToken(server.url, project);
    liveToken = await mintToken(server.url, project, { environment: "live" });
  });

  const register = (token: string, url: string) => call(token, "POST", "/webhook_endpoints", { url, enabled_events: ["*"] });

  it("rejects plain http with 422 validation_failed reason must_be_https, pointing to the forwarder", async () => {
    const body = await expectApiError(await register(sandboxToken, "http://example.com/hook"), 422, "validation_failed");
    const message = "Webhook URLs must use https. For a receiver on your own machine, run the forwarder: npm run --silent cli -- listen --forward-to http://localhost:4242/webhooks";
    expect(body.error.message).toBe(message);
    expect(body.error.detail).toEqual([{ field: "url", reason: "must_be_https", message }]);
  });

  it("rejects plain http for a live token too", async () => {
    const body = await expectApiError(await register(liveToken, "http://93.184.215.14/hooks"), 422, "validation_failed");
    expect(reasons(body)).toEqual([{ field: "url", reason: "must_be_https" }]);
  });

  it.each([
    ["not a url", "not_a_url"],
    ["/relative/path", "not_a_url"],
    ["https://user:pass@example.com/x", "has_credentials"],
    ["https://user@example.com/x", "has_credentials"],
    ["https://example.com/x#frag", "has_fragment"],
  ])("rejects %s with 422 webhook_endpoint_url_invalid reason %s", async (url, reason) => {
    const body = await expectApiError(await register(sandboxToken, url), 422, "webhook_endpoint_url_invalid");
    expect(body.error.type).toBe("invalid_request_error");
    expect(reasons(body)).toEqual([{ field: "url", reason }]);
  });

  const privateUrls = [
    "https://127.0.0.1/x",
    "https://10.0.0.1/x",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/x",
    "https://localhost/x",
    "https://192.168.1.10/x",
    "https://172.16.0.1/x",
    "https://0.0.0.0/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://[fd00:ec2::254]/x",
    "https://2130706433/x",
  ];

  describe.each([
    ["sandbox", () => sandboxToken],
    ["live", () => liveToken],
  ])("for a %s token", (_environment, token) => {
    it.each(privateUrls)("rejects %s as a private address", async (url) => {
      const body = await expectApiError(await register(token(), url), 422, "webhook_endpoint_url_invalid");
      expect(reasons(body)).toEqual([{ field: "url", reason: "private_address" }]);
    });
  });

  it("registered nothing for any rejected URL", async () => {
    expect(await endpointCount(project.project_id)).toBe(0);
  });

  it("accepts a public IP literal for sandbox and live tokens", async () => {
    const sandbox = await expectJson(await register(sandboxToken, PUBLIC_URL), 201);
    const live = await expectJson(await register(liveToken, PUBLIC_URL), 201);
    expect([sandbox.url, sandbox.livemode]).toEqual([PUBLIC_URL, false]);
    expect([live.url, live.livemode]).toEqual([PUBLIC_URL, true]);
  });
});

describe("the endpoint limit", () => {
  it("allows 16 endpoints per project and environment, the 17th is 422 webhook_endpoint_limit, and live has its own 16", async () => {
    const project = await createTestProject();
    const sandboxToken = await mintToken(server.url, project);
    const liveToken = await mintToken(server.url, project, { environment: "live" });

    const sandboxIds: string[] = [];
    for (let index = 0; index < 16; index += 1) sandboxIds.push((await register(sandboxToken, { description: `sandbox ${index}` })).id);
    const over = await expectApiError(await call(sandboxToken, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["*"] }), 422, "webhook_endpoint_limit");
    expect(over.error.type).toBe("invalid_request_error");
    expect(over.error.retryable).toBe(false);
    expect(await db().webhookEndpoint.count({ where: { projectId: project.project_id, environment: "sandbox" } })).toBe(16);

    for (let index = 0; index < 16; index += 1) await register(liveToken, { description: `live ${index}` });
    await expectApiError(await call(liveToken, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["*"] }), 422, "webhook_endpoint_limit");
    expect(await db().webhookEndpoint.count({ where: { projectId: project.project_id, environment: "live" } })).toBe(16);

    // Deleting one frees its place.
    await expectJson(await call(sandboxToken, "DELETE", `/webhook_endpoints/${sandboxIds[0]}`), 200);
    await register(sandboxToken, { description: "replacement" });
    expect(await db().webhookEndpoint.count({ where: { projectId: project.project_id, environment: "sandbox" } })).toBe(16);
  });

  it("holds the limit when creations race: of 8 concurrent ones past 10 existing, exactly 6 succeed", async () => {
    const { project, token } = await freshProject();
    for (let index = 0; index < 10; index += 1) await register(token);
    // 8 at once stays under the sandbox's 10 concurrent requests, so only the endpoint limit can refuse them.
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => call(token, "POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["*"] })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 422, 422]);
    for (const response of responses.filter((candidate) => candidate.status === 422)) await expectApiError(response, 422, "webhook_endpoint_limit");
    expect(await endpointCount(project.project_id)).toBe(16);
  });
});

describe("GET /webhook_endpoints", () => {
  it("lists the environment's endpoints newest first in the list envelope, without secrets", async () => {
    const project = await createTestProject();
    const token = await mintToken(server.url, project);
    const liveToken = await mintToken(server.url, project, { environment: "live" });
    const first = await register(token, { description: "first" });
    const live = await register(liveToken, { description: "live" });
    const second = await register(token, { description: "second" });
    const third = await register(token, { description: "third" });

    const page = await list(token);
    expect(page.object).toBe("list");
    expect(page.url).toBe("/partner/v1/webhook_endpoints");
    expect(page.has_more).toBe(false);
    expect(page.data.map((endpoint) => endpoint.id)).toEqual([third.id, second.id, first.id]);
    for (const endpoint of page.data) expect(endpoint).not.toHaveProperty("secret");
    expect(page.data[0]).toEqual(await retrieve(token, third.id));

    const livePage = await list(liveToken);
    expect(livePage.data.map((endpoint) => endpoint.id)).toEqual([live.id]);
    expect(livePage.data[0]!.livemode).toBe(true);
  });

  it("pages with limit and starting_after until has_more is false", async () => {
    const { token } = await freshProject();
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push((await register(token)).id);
    const newestFirst = [...ids].reverse();

    const pageOne = await list(token, "limit=2");
    expect(pageOne.data.map((endpoint) => endpoint.id)).toEqual(newestFirst.slice(0, 2));
    expect(pageOne.has_more).toBe(true);
    expect(pageOne.url).toBe("/partner/v1/webhook_endpoints");
    const pageTwo = await list(token, `limit=2&starting_after=${pageOne.data[1]!.id}`);
    expect(pageTwo.data.map((endpoint) => endpoint.id)).toEqual(newestFirst.slice(2, 4));
    expect(pageTwo.has_more).toBe(true);
    const pageThree = await list(token, `limit=2&starting_after=${pageTwo.data[1]!.id}`);
    expect(pageThree.data.map((endpoint) => endpoint.id)).toEqual(newestFirst.slice(4));
    expect(pageThree.has_more).toBe(false);

    const back = await list(token, `limit=2&ending_before=${pageThree.data[0]!.id}`);
    expect(back.data.map((endpoint) => endpoint.id)).toEqual(newestFirst.slice(2, 4));
    expect(back.has_more).toBe(true);
  });

  it("answers 404 for a cursor that is not one of the caller's endpoints", async () => {
    const { token } = await freshProject();
    const other = await freshProject();
    const theirs = await register(other.token);
    await register(token);
    await expectApiError(await call(token, "GET", `/webhook_endpoints?starting_after=${theirs.id}`), 404, "not_found");
    await expectApiError(await call(token, "GET", "/webhook_endpoints?starting_after=evt_01jzzzzzzzzzzzzzzzzzzzzzzz"), 404, "not_found");
  });
});

describe("GET /webhook_endpoints/{id}", () => {
  it("answers 404 for another project's endpoint", async () => {
    const mine = await freshProject();
    const theirs = await freshProject();
    const endpoint = await register(theirs.token);
    await expectApiError(await call(mine.token, "GET", `/webhook_endpoints/${endpoint.id}`), 404, "not_found");
  });

  it("answers 401 environment_mismatch for the other environment's endpoint", async () => {
    const project = await createTestProject();
    const sandboxToken = await mintToken(server.url, project);
    const liveToken = await mintToken(server.url, project, { environment: "live" });
    const live = await register(liveToken);
    const sandbox = await register(sandboxToken);
    const fromSandbox = await expectApiError(await call(sandboxToken, "GET", `/webhook_endpoints/${live.id}`), 401, "environment_mismatch");
    expect(fromSandbox.error.type).toBe("authentication_error");
    await expectApiError(await call(liveToken, "GET", `/webhook_endpoints/${sandbox.id}`), 401, "environment_mismatch");
  });

  it("answers 404 for a malformed or unknown id", async () => {
    const { token } = await freshProject();
    await expectApiError(await call(token, "GET", "/webhook_endpoints/not-an-id"), 404, "not_found");
    await expectApiError(await call(token, "GET", "/webhook_endpoints/evt_01jzzzzzzzzzzzzzzzzzzzzzzz"), 404, "not_found");
    await expectApiError(await call(token, "GET", "/webhook_endpoints/whe_01jzzzzzzzzzzzzzzzzzzzzzzz"), 404, "not_found");
  });
});

describe("POST /webhook_endpoints/{id} (update)", () => {
  it("changes the url, enabled_events, description and metadata, replacing metadata whole", async () => {
    const clock = freezeClock(T0);
    const { token } = await freshProject();
    const created = await register(token, { description: "before", metadata: { a: "1", b: "2" } });
    clock.advance(60_000);

    const updated = await expectJson(
      await call(token, "POST", `/webhook_endpoints/${created.id}`, {
        url: "https://93.184.215.15/new-path?x=1",
        enabled_events: ["payment.settled", "payment.failed", "payment.settled"],
        description: "after",
        metadata: { c: "3" },
      }),
      200,
    );
    const { secret: _secret, ...unchanged } = created;
    expect(updated).toEqual({
      ...unchanged,
      url: "https://93.184.215.15/new-path?x=1",
      enabled_events: ["payment.settled", "payment.failed"],
      description: "after",
      metadata: { c: "3" },
      updated_at: at(60_000),
    });
    expect(await retrieve(token, created.id)).toEqual(updated);
  });

  it("clears the description with null", async () => {
    const { token } = await freshProject();
    const created = await register(token, { description: "to be cleared" });
    const updated = await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}`, { description: null }), 200);
    expect(updated.description).toBeNull();
    expect((await retrieve(token, created.id)).description).toBeNull();
  });

  it("validates a new url as registration does", async () => {
    const { token } = await freshProject();
    const created = await register(token);
    const http = await expectApiError(await call(token, "POST", `/webhook_endpoints/${created.id}`, { url: "http://example.com/hook" }), 422, "validation_failed");
    expect(reasons(http)).toEqual([{ field: "url", reason: "must_be_https" }]);
    const metadataService = await expectApiError(
      await call(token, "POST", `/webhook_endpoints/${created.id}`, { url: "https://169.254.169.254/latest/meta-data" }),
      422,
      "webhook_endpoint_url_invalid",
    );
    expect(reasons(metadataService)).toEqual([{ field: "url", reason: "private_address" }]);
    const unknownEvent = await expectApiError(await call(token, "POST", `/webhook_endpoints/${created.id}`, { enabled_events: ["nope.nothing"] }), 422, "webhook_event_unknown");
    expect(reasons(unknownEvent)).toEqual([{ field: "enabled_events.0", reason: "unknown_event_type" }]);
    expect((await retrieve(token, created.id)).url).toBe(PUBLIC_URL);
  });

  it("rejects a NUL in a new description with 422 invalid_characters and keeps the old one", async () => {
    const { token } = await freshProject();
    const created = await register(token, { description: "before" });
    const body = await expectApiError(await call(token, "POST", `/webhook_endpoints/${created.id}`, { description: "after\u0000" }), 422, "validation_failed");
    expect(reasons(body)).toEqual([{ field: "description", reason: "invalid_characters" }]);
    expect((await retrieve(token, created.id)).description).toBe("before");
  });

  it("turns the endpoint off with disabled true (reason manual) and back on with disabled false", async () => {
    const { token } = await freshProject();
    const created = await register(token);
    const disabled = await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}`, { disabled: true }), 200);
    expect([disabled.status, disabled.disabled_reason]).toEqual(["disabled", "manual"]);
    expect(await retrieve(token, created.id)).toMatchObject({ status: "disabled", disabled_reason: "manual" });

    const enabled = await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}`, { disabled: false }), 200);
    expect([enabled.status, enabled.disabled_reason]).toEqual(["enabled", null]);
  });

  it("answers an empty body with the endpoint unchanged", async () => {
    freezeClock(T0);
    const { token } = await freshProject();
    const created = await register(token, { description: "kept", metadata: { k: "v" } });
    const before = await retrieve(token, created.id);
    const after = await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}`, {}), 200);
    expect(after).toEqual(before);
  });

  it("rejects a field it does not accept with 400 unknown_field", async () => {
    const { token } = await freshProject();
    const created = await register(token);
    const body = await expectApiError(await call(token, "POST", `/webhook_endpoints/${created.id}`, { status: "disabled" }), 400, "unknown_field");
    expect(reasons(body)).toEqual([{ field: "status", reason: "unknown_field" }]);
    expect((await retrieve(token, created.id)).status).toBe("enabled");
  });

  it("answers 404 for another project's endpoint and changes nothing", async () => {
    const mine = await freshProject();
    const theirs = await freshProject();
    const endpoint = await register(theirs.token, { description: "theirs" });
    await expectApiError(await call(mine.token, "POST", `/webhook_endpoints/${endpoint.id}`, { description: "hijacked" }), 404, "not_found");
    expect((await retrieve(theirs.token, endpoint.id)).description).toBe("theirs");
  });
});

describe("POST /webhook_endpoints/{id}/enable", () => {
  it("re-enables a manually disabled endpoint", async () => {
    const { token } = await freshProject();
    const created = await register(token);
    await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}`, { disabled: true }), 200);
    const enabled = await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}/enable`), 200);
    expect([enabled.status, enabled.disabled_reason]).toEqual(["enabled", null]);
    expect(await retrieve(token, created.id)).toEqual(enabled);
  });

  it("re-enables an endpoint disabled for failing and clears its failure run", async () => {
    freezeClock(T0);
    const { token } = await freshProject();
    const created = await register(token);
    await db().webhookEndpoint.update({
      where: { id: created.id },
      data: { status: "disabled", disabledReason: "failing", failingSince: new Date(at(-72 * HOUR_MS)) },
    });
    expect(await retrieve(token, created.id)).toMatchObject({ status: "disabled", disabled_reason: "failing" });

    const enabled = await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}/enable`), 200);
    expect([enabled.status, enabled.disabled_reason, enabled.updated_at]).toEqual(["enabled", null, T0]);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect([row.status, row.disabledReason, row.failingSince]).toEqual(["enabled", null, null]);
  });

  it("leaves an enabled endpoint enabled", async () => {
    const { token } = await freshProject();
    const created = await register(token);
    const enabled = await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}/enable`), 200);
    expect([enabled.status, enabled.disabled_reason]).toEqual(["enabled", null]);
  });

  it("answers 404 for another project's endpoint", async () => {
    const mine = await freshProject();
    const theirs = await freshProject();
    const endpoint = await register(theirs.token);
    await expectJson(await call(theirs.token, "POST", `/webhook_endpoints/${endpoint.id}`, { disabled: true }), 200);
    await expectApiError(await call(mine.token, "POST", `/webhook_endpoints/${endpoint.id}/enable`), 404, "not_found");
    expect((await retrieve(theirs.token, endpoint.id)).status).toBe("disabled");
  });
});

describe("POST /webhook_endpoints/{id}/roll_secret", () => {
  it("returns a new secret; the old one keeps signing for 24 hours by default, then only the new one does", async () => {
    const clock = freezeClock(T0);
    const { token } = await freshProject();
    const created = await register(token);

    const rolled = await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}/roll_secret`), 200);
    const { secret: _old, ...unchanged } = created;
    expect(rolled).toEqual({ ...unchanged, previous_secret_expires_at: at(24 * HOUR_MS), updated_at: T0, secret: expect.stringMatching(SECRET) });
    expect(rolled.secret).not.toBe(created.secret);
    const read = await retrieve(token, created.id);
    expect(read).not.toHaveProperty("secret");
    expect(read.previous_secret_expires_at).toBe(at(24 * HOUR_MS));

    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect([row.secret, row.previousSecret]).toEqual([rolled.secret, created.secret]);
    expect(signingSecrets(row, clock.advance(0))).toEqual([rolled.secret, created.secret]);
    expect(signingSecrets(row, clock.advance(24 * HOUR_MS - 1))).toEqual([rolled.secret, created.secret]);
    expect(signingSecrets(row, clock.advance(1))).toEqual([rolled.secret]);
    expect(signingSecrets(row, clock.advance(HOUR_MS))).toEqual([rolled.secret]);
  });

  it("takes overlap_hours for the length of the overlap", async () => {
    freezeClock(T0);
    const { token } = await freshProject();
    const created = await register(token);
    const rolled = await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}/roll_secret`, { overlap_hours: 168 }), 200);
    expect(rolled.previous_secret_expires_at).toBe(at(168 * HOUR_MS));
  });

  it("drops the old secret at once with overlap_hours 0", async () => {
    freezeClock(T0);
    const { token } = await freshProject();
    const created = await register(token);
    const rolled = await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}/roll_secret`, { overlap_hours: 0 }), 200);
    expect(rolled.secret).toMatch(SECRET);
    expect(rolled.secret).not.toBe(created.secret);
    expect(rolled.previous_secret_expires_at).toBeNull();
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect([row.secret, row.previousSecret, row.previousSecretExpiresAt]).toEqual([rolled.secret, null, null]);
    expect(signingSecrets(row, new Date(T0))).toEqual([rolled.secret]);
  });

  it("replaces the previous overlap when rolled again: the first secret stops signing", async () => {
    freezeClock(T0);
    const { token } = await freshProject();
    const created = await register(token);
    const once = await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}/roll_secret`), 200);
    const twice = await expectJson(await call(token, "POST", `/webhook_endpoints/${created.id}/roll_secret`), 200);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(signingSecrets(row, new Date(T0))).toEqual([twice.secret, once.secret]);
  });

  it("keeps the secrets of two concurrent rolls both signing: the later roll overlaps the earlier one's secret", async () => {
    freezeClock(T0);
    const { token } = await freshProject();
    const created = await register(token);
    // Both rolls arrive while the endpoint's row is busy, and go on together when it is free.
    const lock = await holdRowLock("webhook_endpoints", created.id);
    const rolls = [1, 2].map(() => call(token, "POST", `/webhook_endpoints/${created.id}/roll_secret`));
    await lock.untilWaiting(2);
    await lock.release();
    const returned = await Promise.all(rolls.map(async (roll) => (await expectJson(await roll, 200)).secret!));

    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    const signing = signingSecrets(row, new Date(T0));
    expect([...signing].sort()).toEqual([...returned].sort());
    expect(signing).not.toContain(created.secret);
    // Each secret handed out verifies a delivery signed as the endpoint signs now.
    const payload = JSON.stringify({ id: "evt_roll", object: "event" });
    const timestamp = Math.floor(new Date(T0).getTime() / 1000);
    const header = signWebhookPayload(payload, signing, timestamp);
    for (const secret of returned) expect(verifyWebhookSignature({ payload, header, secret, now: timestamp })).toEqual({ id: "evt_roll", object: "event" });
  });

  it.each([
    [169, "too_large"],
    [-1, "too_small"],
    [1.5, "not_integer"],
    ["24", "invalid_type"],
  ])("rejects overlap_hours %s with 422 reason %s and keeps the secret", async (overlapHours, reason) => {
    const { token } = await freshProject();
    const created = await register(token);
    const body = await expectApiError(await call(token, "POST", `/webhook_endpoints/${created.id}/roll_secret`, { overlap_hours: overlapHours }), 422, "validation_failed");
    expect(reasons(body)).toEqual([{ field: "overlap_hours", reason }]);
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } })).secret).toBe(created.secret);
  });

  it("answers 404 for another project's endpoint and keeps its secret", async () => {
    const mine = await freshProject();
    const theirs = await freshProject();
    const endpoint = await register(theirs.token);
    await expectApiError(await call(mine.token, "POST", `/webhook_endpoints/${endpoint.id}/roll_secret`), 404, "not_found");
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).secret).toBe(endpoint.secret);
  });
});

describe("DELETE /webhook_endpoints/{id}", () => {
  it("deletes the endpoint and its pending deliveries", async () => {
    freezeClock(T0);
    const { project, token } = await freshProject();
    const doomed = await register(token, { enabled_events: ["application.created"] });
    const kept = await register(token, { enabled_events: ["*"] });
    await db().$transaction((transaction) =>
      recordEvents(transaction, [
        { projectId: project.project_id, environment: "sandbox", type: "application.created", object: { id: "app_test", object: "application" }, createdAt: new Date(T0) },
      ]),
    );
    const pending = async (endpointId: string) => db().webhookDelivery.count({ where: { endpointId, status: "pending" } });
    expect([await pending(doomed.id), await pending(kept.id)]).toEqual([1, 1]);

    const deleted = await expectJson<Record<string, unknown>>(await call(token, "DELETE", `/webhook_endpoints/${doomed.id}`), 200);
    expect(deleted).toEqual({ id: doomed.id, object: "webhook_endpoint", deleted: true });

    await expectApiError(await call(token, "GET", `/webhook_endpoints/${doomed.id}`), 404, "not_found");
    expect(await db().webhookDelivery.count({ where: { endpointId: doomed.id } })).toBe(0);
    expect(await pending(kept.id)).toBe(1);
    expect((await list(token)).data.map((endpoint) => endpoint.id)).toEqual([kept.id]);
    await expectApiError(await call(token, "DELETE", `/webhook_endpoints/${doomed.id}`), 404, "not_found");
  });

  it("answers 404 for another project's endpoint and keeps it", async () => {
    const mine = await freshProject();
    const theirs = await freshProject();
    const endpoint = await register(theirs.token);
    await expectApiError(await call(mine.token, "DELETE", `/webhook_endpoints/${endpoint.id}`), 404, "not_found");
    expect((await retrieve(theirs.token, endpoint.id)).id).toBe(endpoint.id);
  });

  it("answers 401 environment_mismatch for the other environment's endpoint and keeps it", async () => {
    const project = await createTestProject();
    const sandboxToken = await mintToken(server.url, project);
    const liveToken = await mintToken(server.url, project, { environment: "live" });
    const live = await register(liveToken);
    await expectApiError(await call(sandboxToken, "DELETE", `/webhook_endpoints/${live.id}`), 401, "environment_mismatch");
    expect((await retrieve(liveToken, live.id)).id).toBe(live.id);
  });
});

describe("scopes", () => {
  it("refuses every webhook endpoint route to a token without webhooks:manage with 403 insufficient_scope", async () => {
    const project = await createTestProject();
    const manager = await mintToken(server.url, project);
    const reader = await mintToken(server.url, project, { scope: "events:read" });
    const endpoint = await register(manager);

    const attempts: Array<[string, string, unknown?]> = [
      ["POST", "/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["*"] }],
      ["GET", "/webhook_endpoints"],
      ["GET", `/webhook_endpoints/${endpoint.id}`],
      ["POST", `/webhook_endpoints/${endpoint.id}`, { disabled: true }],
      ["DELETE", `/webhook_endpoints/${endpoint.id}`],
      ["POST", `/webhook_endpoints/${endpoint.id}/enable`],
      ["POST", `/webhook_endpoints/${endpoint.id}/roll_secret`],
    ];
    for (const [method, path, body] of attempts) {
      const error = await expectApiError(await call(reader, method, path, body), 403, "insufficient_scope");
      expect(error.error.type).toBe("authentication_error");
    }

    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect([row.status, row.secret]).toEqual(["enabled", endpoint.secret]);
    expect(await endpointCount(project.project_id)).toBe(1);
  });
});
