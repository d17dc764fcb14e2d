// POST /partner/v1/webhook_endpoints/{id}/recover over HTTP, with a real https receiver on 127.0.0.1 and a frozen
// clock: it queues again only the endpoint's deliveries that failed or were abandoned since the time given (not
// delivered ones, not pending ones, not earlier ones, not another endpoint's), each sent as usual, and refuses
// every bad input, a disabled endpoint and another tenant's endpoint.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

import { createHmac, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import type http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clock, freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { recordEvents, renderEventBody } from "@/lib/events/events";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { attemptDelivery } from "@/lib/webhooks/deliver";
import { createWebhookEndpoint, updateWebhookEndpoint } from "@/lib/webhooks/service";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { trustedTestCertificate } from "../../helpers/tls";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const T0 = new Date("2027-06-01T08:00:00.000Z");

interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** The status to answer; replace it to change the receiver mid-test. */
  answer: (request: ReceivedRequest) => number;
}

const servers: https.Server[] = [];
let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((receiver) => new Promise<void>((resolve) => {
    receiver.closeAllConnections();
    receiver.close(() => resolve());
  })));
});

async function startReceiver(answer: Receiver["answer"] = () => 200): Promise<Receiver> {
  const receiver: Receiver = { url: "", requests: [], answer };
  const listener = https.createServer(trustedTestCertificate(), (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const received = { path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) };
      receiver.requests.push(received);
      response.writeHead(receiver.answer(received)).end();
    });
  });
  servers.push(listener);
  listener.listen(0, "127.0.0.1");
  await once(listener, "listening");
  receiver.url = `https://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  return receiver;
}

/** Spec 6.3 from the receiver's side, with node:crypto: some v1 is the HMAC of "<t>.<raw body>" under `secret`. */
function signedWith(request: ReceivedRequest, secret: string): boolean {
  const pairs = String(request.headers["service-signature"] ?? "").split(",").map((part) => part.split("=") as [string, string]);
  const t = pairs.find(([name]) => name === "t")?.[1] ?? "";
  const expected = createHmac("sha256", secret).update(`${t}.`).update(request.body).digest();
  return pairs.some(([name, value]) => name === "v1" && Buffer.from(value, "hex").length === expected.length && timingSafeEqual(Buffer.from(value, "hex"), expected));
}

async function recordEvent(tenant: Tenant, reference: string): Promise<string> {
  const [id] = await db().$transaction((transaction) =>
    recordEvents(transaction, [{ projectId: tenant.projectId, environment: tenant.environment, type: "application.created", object: { id: `obj_${reference}`, object: "application", reference }, createdAt: clock.now() }]),
  );
  return id!;
}

const deliveryOf = (eventId: string, endpointId: string) => db().webhookDelivery.findFirstOrThrow({ where: { eventId, endpointId, replay: false } });

type FrozenClock = ReturnType<typeof freezeClock>;

/** Attempts the deliveries together, each round when all are due, until none is pending: all nine attempts. */
async function attemptUntilSettled(time: FrozenClock, deliveryIds: string[]): Promise<void> {
  for (;;) {
    const pending = await db().webhookDelivery.findMany({ where: { id: { in: deliveryIds }, status: "pending" } });
    if (pending.length === 0) return;
    time.set(new Date(Math.max(clock.now().getTime(), ...pending.map((delivery) => delivery.nextAttemptAt!.getTime()))));
    for (const delivery of pending) expect(await attemptDelivery(delivery.id)).not.toBe("not_claimed");
  }
}

async function partner(environment: "sandbox" | "live" = "sandbox") {
  const project = await createTestProject();
  return { project, tenant: { projectId: project.project_id, environment } as Tenant };
}

function recover(token: string, endpointId: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/partner/v1/webhook_endpoints/${endpointId}/recover`, bearer(token, jsonRequest("POST", body, headers)));
}

describe("what it recovers", () => {
  /**
   * Two endpoints, `a` and `b`, on one receiver. Before `since`: `old` failed to `a` (all nine attempts). At
   * `since`: `lost` failed to both; `fine` was delivered to `a`; `waiting` failed once to `a` and waits for a retry.
   */
  async function history(time: FrozenClock) {
    const { project, tenant } = await partner();
    const failing = new Set<string>();
    const receiver = await startReceiver((request) => (failing.has(`${request.path} ${request.headers["service-event-id"]}`) ? 500 : 200));
    const a = await createWebhookEndpoint({ tenant, input: { url: `${receiver.url}/a`, enabled_events: ["*"] } });
    const b = await createWebhookEndpoint({ tenant, input: { url: `${receiver.url}/b`, enabled_events: ["*"] } });

    const old = await recordEvent(tenant, "old");
    failing.add(`/a ${old}`);
    await attemptUntilSettled(time, [(await deliveryOf(old, a.id)).id, (await deliveryOf(old, b.id)).id]);

    const since = new Date(clock.now().getTime() + HOUR_MS);
    time.set(since);
    const [lost, fine, waiting] = [await recordEvent(tenant, "lost"), await recordEvent(tenant, "fine"), await recordEvent(tenant, "waiting")];
    failing.add(`/a ${lost}`).add(`/b ${lost}`).add(`/a ${waiting}`);
    expect(await attemptDelivery((await deliveryOf(fine, a.id)).id)).toBe("succeeded");
    expect(await attemptDelivery((await deliveryOf(waiting, a.id)).id)).toBe("retry_scheduled");
    await attemptUntilSettled(time, [(await deliveryOf(lost, a.id)).id, (await deliveryOf(lost, b.id)).id]);

    expect(await db().webhookDelivery.count({ where: { endpointId: a.id, status: "failed" } })).toBe(2);
    expect(await db().webhookDelivery.count({ where: { endpointId: b.id, status: "failed" } })).toBe(1);
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: a.id } })).status).toBe("enabled");
    failing.clear();
    receiver.requests.length = 0;
    const token = await mintToken(server.url, project);
    return { token, receiver, endpoints: { a, b }, events: { old, lost, fine, waiting }, since, recovered: { projectId: tenant.projectId, replay: true } };
  }

  it("queues only the endpoint's failed deliveries created at or after `since`, and each arrives signed with the original event", async () => {
    const time = freezeClock(T0);
    const { token, receiver, endpoints, events, since, recovered } = await history(time);

    const response = await recover(token, endpoints.a.id, { since: since.toISOString() });

    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ object: "webhook_recovery", endpoint: endpoints.a.id, since: since.toISOString(), count: 1 });
    const queued = await db().webhookDelivery.findMany({ where: recovered });
    expect(queued.map(({ endpointId, eventId, status, attemptCount, nextAttemptAt }) => ({ endpointId, eventId, status, attemptCount, nextAttemptAt }))).toEqual([
      { endpointId: endpoints.a.id, eventId: events.lost, status: "pending", attemptCount: 0, nextAttemptAt: clock.now() },
    ]);

    expect(await attemptDelivery(queued[0]!.id)).toBe("succeeded");
    expect(receiver.requests).toHaveLength(1);
    const [sent] = receiver.requests;
    expect(sent!.path).toBe("/a");
    expect(sent!.headers["service-event-id"]).toBe(events.lost);
    const stored = await db().event.findUniqueOrThrow({ where: { id: events.lost } });
    expect(sent!.body.toString("utf8")).toBe(renderEventBody(stored));
    expect(signedWith(sent!, endpoints.a.secret)).toBe(true);
    // The failed originals keep their history.
    expect(await db().webhookDelivery.count({ where: { endpointId: endpoints.a.id, replay: false, status: "failed" } })).toBe(2);
  });

  it("recovers an earlier failure too when `since` is before it, and the other endpoint's only through that endpoint", async () => {
    const time = freezeClock(T0);
    const { token, endpoints, events, recovered } = await history(time);

    const fromTheStart = await expectJson(await recover(token, endpoints.a.id, { since: T0.toISOString() }), 202);
    expect(fromTheStart.count).toBe(2);
    const other = await expectJson(await recover(token, endpoints.b.id, { since: T0.toISOString() }), 202);
    expect(other.count).toBe(1);

    const queued = await db().webhookDelivery.findMany({ where: recovered, orderBy: [{ endpointId: "asc" }, { eventId: "asc" }] });
    expect(queued.map(({ endpointId, eventId }) => ({ endpointId, eventId }))).toEqual(
      [
        { endpointId: endpoints.a.id, eventId: events.old },
        { endpointId: endpoints.a.id, eventId: events.lost },
        { endpointId: endpoints.b.id, eventId: events.lost },
      ].sort((left, right) => left.endpointId.localeCompare(right.endpointId) || left.eventId.localeCompare(right.eventId)),
    );
  });

  it("queues nothing more for an event already waiting or delivered since: a second recovery counts 0", async () => {
    const time = freezeClock(T0);
    const { token, endpoints, since, recovered } = await history(time);

    expect((await expectJson(await recover(token, endpoints.a.id, { since: since.toISOString() }), 202)).count).toBe(1);
    expect((await expectJson(await recover(token, endpoints.a.id, { since: since.toISOString() }), 202)).count).toBe(0);
    const [queued] = await db().webhookDelivery.findMany({ where: recovered });
    expect(await attemptDelivery(queued!.id)).toBe("succeeded");
    expect((await expectJson(await recover(token, endpoints.a.id, { since: since.toISOString() }), 202)).count).toBe(0);
    expect(await db().webhookDelivery.count({ where: recovered })).toBe(1);
  });

  it("answers the same reply to a repeated Idempotency-Key and queues once", async () => {
    const time = freezeClock(T0);
    const { token, endpoints, since, recovered } = await history(time);
    const headers = { "idempotency-key": "recover-once" };

    const first = await expectJson(await recover(token, endpoints.a.id, { since: since.toISOString() }, headers), 202);
    const second = await expectJson(await recover(token, endpoints.a.id, { since: since.toISOString() }, headers), 202);

    expect(second).toEqual(first);
    expect(first.count).toBe(1);
    expect(await db().webhookDelivery.count({ where: recovered })).toBe(1);
    await expectApiError(await recover(token, endpoints.a.id, { since: T0.toISOString() }, headers), 409, "idempotency_key_reused");
  });
});

describe("a disabled endpoint", () => {
  it("is refused with 409 until enabled; then the deliveries its disabling abandoned are recovered and delivered", async () => {
    const time = freezeClock(T0);
    const { project, tenant } = await partner();
    const receiver = await startReceiver();
    const endpoint = await createWebhookEndpoint({ tenant, input: { url: `${receiver.url}/hooks`, enabled_events: ["*"] } });
    const eventId = await recordEvent(tenant, "while-off");
    await updateWebhookEndpoint({ tenant, id: endpoint.id, input: { disabled: true } });
    // Disabling stops the pending delivery at once: no attempt is left to make.
    expect((await deliveryOf(eventId, endpoint.id)).status).toBe("abandoned");
    expect(await attemptDelivery((await deliveryOf(eventId, endpoint.id)).id)).toBe("not_claimed");
    const recovered = { endpointId: endpoint.id, replay: true };
    time.advance(HOUR_MS);
    const token = await mintToken(server.url, project);

    const refused = await expectApiError(await recover(token, endpoint.id, { since: T0.toISOString() }), 409, "conflict");
    expect(refused.error.message).toBe(`Webhook endpoint ${endpoint.id} is disabled; enable it before recovering its failed deliveries.`);
    expect(await db().webhookDelivery.count({ where: recovered })).toBe(0);

    await expectJson(await fetch(`${server.url}/partner/v1/webhook_endpoints/${endpoint.id}/enable`, bearer(token, { method: "POST" })), 200);
    expect((await expectJson(await recover(token, endpoint.id, { since: T0.toISOString() }), 202)).count).toBe(1);
    const [queued] = await db().webhookDelivery.findMany({ where: recovered });
    expect(await attemptDelivery(queued!.id)).toBe("succeeded");
    expect(receiver.requests.map((request) => request.headers["service-event-id"])).toEqual([eventId]);
  });
});

describe("refusals", () => {
  async function endpointAndToken() {
    freezeClock(T0);
    const { project, tenant } = await partner();
    const endpoint = await createWebhookEndpoint({ tenant, input: { url: "https://127.0.0.1:9/hooks", enabled_events: ["*"] } });
    return { project, endpoint, token: await mintToken(server.url, project) };
  }

  it("refuses every malformed body with a 4xx and queues nothing", async () => {
    const { endpoint, token } = await endpointAndToken();
    const hourAgo = new Date(T0.getTime() - HOUR_MS).toISOString();
    const cases: Array<[unknown, number, string]> = [
      [{}, 422, "validation_failed"],
      [{ since: "yesterday" }, 422, "validation_failed"],
      [{ since: "2027-06-01" }, 422, "validation_failed"],
      [{ since: 1_780_000_000 }, 422, "validation_failed"],
      [{ since: null }, 422, "validation_failed"],
      [{ since: hourAgo, endpoint_id: endpoint.id }, 400, "unknown_field"],
      [[hourAgo], 422, "validation_failed"],
    ];
    for (const [body, status, code] of cases) {
      const error = await expectApiError(await recover(token, endpoint.id, body), status, code);
      if (status === 422 && !Array.isArray(body)) expect(error.error.detail?.map((item) => item.field)).toContain("since");
    }
    const notJson = await fetch(`${server.url}/partner/v1/webhook_endpoints/${endpoint.id}/recover`, bearer(token, { method: "POST", headers: { "content-type": "application/json" }, body: "{since" }));
    await expectApiError(notJson, 400, "invalid_json");
    expect(await db().webhookDelivery.count({ where: { endpointId: endpoint.id, replay: true } })).toBe(0);
  });

  it("refuses a `since` in the future or beyond the 30 days events are kept, and takes one exactly 30 days ago", async () => {
    const { endpoint, token } = await endpointAndToken();
    const future = await expectApiError(await recover(token, endpoint.id, { since: new Date(T0.getTime() + 1_000).toISOString() }), 422, "validation_failed");
    expect(future.error.detail).toEqual([{ field: "since", reason: "in_the_future", message: "since must not be in the future." }]);
    const tooOld = await expectApiError(await recover(token, endpoint.id, { since: new Date(T0.getTime() - 30 * DAY_MS - 1_000).toISOString() }), 422, "validation_failed");
    expect(tooOld.error.detail).toEqual([
      { field: "since", reason: "beyond_retention", message: "since must be within the last 30 days: older events and their deliveries are no longer kept." },
    ]);
    expect((await expectJson(await recover(token, endpoint.id, { since: new Date(T0.getTime() - 30 * DAY_MS).toISOString() }), 202)).count).toBe(0);
    // An offset is read as the instant it names.
    expect((await expectJson(await recover(token, endpoint.id, { since: "2027-06-01T09:00:00+02:00" }), 202)).since).toBe("2027-06-01T07:00:00.000Z");
  });

  it("answers 404 for another project's endpoint, 401 environment_mismatch for the other environment's, 404 for an unknown or malformed id", async () => {
    const { project, endpoint, token } = await endpointAndToken();
    const stranger = await createTestProject();
    const since = new Date(T0.getTime() - HOUR_MS).toISOString();
    await expectApiError(await recover(await mintToken(server.url, stranger), endpoint.id, { since }), 404, "not_found");
    await expectApiError(await recover(await mintToken(server.url, project, { environment: "live" }), endpoint.id, { since }), 401, "environment_mismatch");
    await expectApiError(await recover(token, "whe_00000000000000000000000000", { since }), 404, "not_found");
    await expectApiError(await recover(token, "evt_00000000000000000000000000", { since }), 404, "not_found");
  });

  it("answers 403 insufficient_scope to a token without webhooks:manage, and 401 without a token", async () => {
    const { project, endpoint } = await endpointAndToken();
    const reader = await mintToken(server.url, project, { scope: "events:read" });
    const since = new Date(T0.getTime() - HOUR_MS).toISOString();
    await expectApiError(await recover(reader, endpoint.id, { since }), 403, "insufficient_scope");
    const anonymous = await fetch(`${server.url}/partner/v1/webhook_endpoints/${endpoint.id}/recover`, jsonRequest("POST", { since }));
    expect(anonymous.status).toBe(401);
  });
});
