// Webhook delivery (spec 6.1, 6.3, 6.4, 3.5, 4.6) against real HTTPS receivers on 127.0.0.1 and a frozen clock:
// the exact bytes and signature, the retry schedule and its jitter band, recovery, automatic disabling and the
// team's notification, replay, subscriptions, concurrent workers, secret rolls, pinned versions, the address
// guard at delivery time and the 30-day retention.
//
// Most tests freeze the clock and attempt deliveries one by one with attemptDelivery(id); the concurrent-workers
// and retention tests run the global sweeps, in the first hours of 1970, where they reach only the rows they wrote.
// Receivers serve a self-signed certificate that this process trusts (tests/helpers/tls.ts): the delivery client
// verifies it as it verifies any public certificate.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

import { createHmac, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import type http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApplication } from "@/lib/applications/create";
import { clock, freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { recordEvents, renderEventBody, type EventType } from "@/lib/events/events";
import { pruneExpiredEvents } from "@/lib/events/service";
import type { Tenant } from "@/lib/tenant";
import { newId } from "@/lib/ids";
import { runMaintenance } from "@/lib/background/catalogue";
import { sendPendingNotifications, type Mailer } from "@/lib/notifications/notifications";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { attemptDelivery, deliverDueWebhooks, findDueDeliveries, RETRY_DELAYS_MS } from "@/lib/webhooks/deliver";
import { createWebhookEndpoint, rollWebhookSecret, updateWebhookEndpoint } from "@/lib/webhooks/service";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { trustedTestCertificate } from "../../helpers/tls";
import { tenantNow } from "@/lib/tenant-clock";

const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Spec 6.4: the wait before attempts 2..9 (1 min, 5 min, 30 min, 2 h, then 6 h each), written out independently of the code. */
const SPEC_DELAYS_MS = [1 * MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS, 2 * HOUR_MS, 6 * HOUR_MS, 6 * HOUR_MS, 6 * HOUR_MS, 6 * HOUR_MS];
const T0 = new Date("2027-04-01T09:00:00.000Z");
/** Receivers are given this long before an attempt counts as a timeout, instead of the production 10 s. */
const SHORT_TIMEOUT_MS = 300;

// ---------------------------------------------------------------------------------------------------------------
// Receivers

interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** What a receiver does with a request: answer with a status (and a short body), or never answer at all. */
type Answer = number | "hang";

interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Decides each answer; replace it to change the receiver's behaviour mid-test. */
  answer: (request: ReceivedRequest, index: number) => Answer;
}

const servers: https.Server[] = [];

async function listen(server: https.Server): Promise<number> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

async function startReceiver(answer: Receiver["answer"] = () => 200): Promise<Receiver> {
  const receiver: Receiver = { url: "", requests: [], answer };
  const server = https.createServer(trustedTestCertificate(), (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const received = { method: request.method ?? "", path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) };
      receiver.requests.push(received);
      const reply = receiver.answer(received, receiver.requests.length - 1);
      if (reply === "hang") return;
      response.writeHead(reply, { "content-type": "text/plain" }).end(reply >= 200 && reply < 300 ? "ok" : "receiver broke");
    });
  });
  servers.push(server);
  receiver.url = `https://127.0.0.1:${await listen(server)}`;
  return receiver;
}

/** A port that was just listening and is now closed: connecting to it is refused. */
async function closedPortUrl(): Promise<string> {
  const server = https.createServer(trustedTestCertificate());
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `https://127.0.0.1:${port}/hooks`;
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

// ---------------------------------------------------------------------------------------------------------------
// The receiver's side of spec 6.3, written from the spec with node:crypto (not the platform's signing code)

interface ParsedSignature {
  t: string;
  v1: string[];
}

function parseSignature(header: string | string[] | undefined): ParsedSignature {
  const pairs = String(header ?? "")
    .split(",")
    .map((part) => [part.slice(0, part.indexOf("=")), part.slice(part.indexOf("=") + 1)] as const);
  return { t: pairs.find(([name]) => name === "t")?.[1] ?? "", v1: pairs.filter(([name]) => name === "v1").map(([, value]) => value) };
}

function hmacHex(secret: string, t: string, body: Buffer): string {
  return createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex");
}

function sameHex(left: string, right: string): boolean {
  const a = Buffer.from(left, "hex");
  const b = Buffer.from(right, "hex");
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

/** Whether some v1 is the HMAC of "<t>.<raw body>" under `secret` and t is within 5 minutes of `nowSeconds`. */
function verifies(request: ReceivedRequest, secret: string, nowSeconds: number): boolean {
  const { t, v1 } = parseSignature(request.headers["service-signature"]);
  if (!/^\d+$/.test(t) || Math.abs(nowSeconds - Number(t)) > 300) return false;
  const expected = hmacHex(secret, t, request.body);
  return v1.some((value) => sameHex(value, expected));
}

const secondsOf = (at: Date) => Math.floor(at.getTime() / SECOND_MS);

// ---------------------------------------------------------------------------------------------------------------
// Fixtures

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
});

function principalFor(project: ProjectCredentials, environment: "sandbox" | "live" = "sandbox"): Tenant {
  return { projectId: project.project_id, environment };
}

/** A fresh project and its sandbox principal. */
async function newPartner() {
  const project = await createTestProject();
  return { project, principal: principalFor(project) };
}

/** Records events (and so schedules their deliveries) as the services do; returns their ids in order. */
async function recordEventsAt(principal: Tenant, types: EventType[], createdAt: Date = clock.now()): Promise<string[]> {
  return db().$transaction((transaction) =>
    recordEvents(
      transaction,
      types.map((type, index) => ({
        projectId: principal.projectId,
        environment: principal.environment,
        type,
        object: { id: `obj_${index}_${createdAt.getTime()}`, object: type.split(".")[0]!, reference: `ref-${index}` },
        createdAt,
      })),
    ),
  );
}

async function recordEvent(principal: Tenant, type: EventType = "application.created", createdAt: Date = clock.now()): Promise<string> {
  const [id] = await recordEventsAt(principal, [type], createdAt);
  return id!;
}

async function deliveryOf(eventId: string, endpointId: string) {
  return db().webhookDelivery.findFirstOrThrow({ where: { eventId, endpointId, replay: false } });
}

async function deliveryById(id: string) {
  return db().webhookDelivery.findUniqueOrThrow({ where: { id } });
}

async function attemptsOf(deliveryId: string) {
  return db().webhookAttempt.findMany({ where: { deliveryId }, orderBy: { number: "asc" } });
}

async function endpointRow(id: string) {
  return db().webhookEndpoint.findUniqueOrThrow({ where: { id } });
}

async function registerEndpoint(principal: Tenant, url: string, enabledEvents: string[] = ["*"], extra: { api_version?: "2026-11-01" } = {}) {
  return createWebhookEndpoint({ tenant: principal, input: { url, enabled_events: enabledEvents, ...extra } });
}

/** An endpoint row written straight to the database, as registration would never allow it. */
async function insertEndpointRow(principal: Tenant, url: string) {
  const now = clock.now();
  return db().webhookEndpoint.create({
    data: {
      id: newId("webhookEndpoint"),
      projectId: principal.projectId,
      environment: principal.environment,
      url,
      enabledEvents: ["*"],
      secret: `whsec_${"x".repeat(40)}`,
      createdAt: now,
      updatedAt: now,
    },
  });
}

type FrozenClock = ReturnType<typeof freezeClock>;

/**
 * Makes the delivery's next attempt exactly when it falls due, first checking that one millisecond earlier
 * the delivery is not claimed. Returns the attempt's result and the instant it was made.
 */
async function attemptWhenDue(time: FrozenClock, deliveryId: string, options: Parameters<typeof attemptDelivery>[1] = {}) {
  const due = (await deliveryById(deliveryId)).nextAttemptAt!;
  time.set(new Date(due.getTime() - 1));
  expect(await attemptDelivery(deliveryId, options)).toBe("not_claimed");
  time.set(due);
  return { result: await attemptDelivery(deliveryId, options), attemptedAt: due };
}

/**
 * Runs a delivery through all nine attempts, each as soon as it is due; returns the waits the code chose
 * between them (nextAttemptAt − attemptedAt) and the instants of the attempts.
 */
async function runToExhaustion(time: FrozenClock, deliveryId: string, options: Parameters<typeof attemptDelivery>[1] = {}) {
  const gaps: number[] = [];
  const attemptedAt: Date[] = [];
  for (let number = 1; number <= 9; number += 1) {
    const attempt = await attemptWhenDue(time, deliveryId, options);
    expect({ number, result: attempt.result }).toEqual({ number, result: number < 9 ? "retry_scheduled" : "failed" });
    attemptedAt.push(attempt.attemptedAt);
    const delivery = await deliveryById(deliveryId);
    expect(delivery.attemptCount).toBe(number);
    if (number < 9) gaps.push(delivery.nextAttemptAt!.getTime() - attempt.attemptedAt.getTime());
  }
  return { gaps, attemptedAt };
}

// ---------------------------------------------------------------------------------------------------------------

describe("what a delivery carries", () => {
  it("posts the stored event's exact bytes, as GET /events/{id} returns them, signed with the endpoint's secret at the clock's time", async () => {
    const time = freezeClock(T0);
    const { project, principal } = await newPartner();
    const receiver = await startReceiver();
    const endpoint = await registerEndpoint(principal, `${receiver.url}/hooks`);
    await createApplication({ tenant: principal, now: await tenantNow(principal), input: { business: { company_number: "12345678" }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "director@example.co.uk" } } });
    const stored = await db().event.findFirstOrThrow({ where: { projectId: project.project_id } });
    expect(stored.type).toBe("application.created");
    const delivery = await deliveryOf(stored.id, endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", attemptCount: 0, replay: false, nextAttemptAt: T0 });

    expect(await attemptDelivery(delivery.id)).toBe("succeeded");

    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests as [ReceivedRequest];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/hooks");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["service-event-id"]).toBe(stored.id);
    expect(request.headers["content-length"]).toBe(String(request.body.byteLength));
    expect(request.body.toString("utf8")).toBe(renderEventBody(stored));
    const token = await mintToken(server.url, project);
    const fetched = await fetch(`${server.url}/partner/v1/events/${stored.id}`, bearer(token));
    expect(fetched.status).toBe(200);
    expect(request.body.toString("utf8")).toBe(await fetched.text());

    const t = String(secondsOf(T0));
    expect(request.headers["service-signature"]).toBe(`t=${t},v1=${hmacHex(endpoint.secret, t, request.body)}`);
    expect(verifies(request, endpoint.secret, secondsOf(T0))).toBe(true);
    expect(verifies(request, `whsec_${"0".repeat(40)}`, secondsOf(T0))).toBe(false);
    // Five minutes of tolerance (spec 6.3): the same delivery checked ten minutes later is refused.
    expect(verifies(request, endpoint.secret, secondsOf(T0) + 600)).toBe(false);

    expect(await deliveryById(delivery.id)).toMatchObject({ status: "succeeded", attemptCount: 1, nextAttemptAt: null, lockedUntil: null });
    expect(await attemptsOf(delivery.id)).toEqual([
      expect.objectContaining({ number: 1, attemptedAt: T0, responseStatus: 200, error: null, succeeded: true, responseExcerpt: "ok", eventId: stored.id, endpointId: endpoint.id }),
    ]);
    expect(await endpointRow(endpoint.id)).toMatchObject({ status: "enabled", failingSince: null, lastSuccessAt: T0 });
    time.advance(DAY_MS);
    expect(await attemptDelivery(delivery.id)).toBe("not_claimed");
    expect(receiver.requests).toHaveLength(1);
  });

  it("renders the body at the endpoint's pinned api_version", async () => {
    freezeClock(T0);
    const { principal } = await newPartner();
    const receiver = await startReceiver();
    const pinned = await registerEndpoint(principal, `${receiver.url}/pinned`, ["*"], { api_version: "2026-11-01" });
    expect(pinned.api_version).toBe("2026-11-01");
    expect((await endpointRow(pinned.id)).apiVersion).toBe("2026-11-01");
    const eventId = await recordEvent(principal, "decision.completed");

    expect(await attemptDelivery((await deliveryOf(eventId, pinned.id)).id)).toBe("succeeded");

    const body = JSON.parse(receiver.requests[0]!.body.toString("utf8"));
    expect(body).toMatchObject({ id: eventId, object: "event", type: "decision.completed", api_version: "2026-11-01", livemode: false, created_at: T0.toISOString() });
    const stored = await db().event.findUniqueOrThrow({ where: { id: eventId } });
    expect(receiver.requests[0]!.body.toString("utf8")).toBe(renderEventBody(stored, "2026-11-01"));
  });
});

describe("retries (spec 6.4)", () => {
  it("keeps the schedule of 1 min, 5 min, 30 min, 2 h and 6 h as RETRY_DELAYS_MS", () => {
    expect(RETRY_DELAYS_MS).toEqual(SPEC_DELAYS_MS);
  });

  /** A receiver that fails in one way, and what each failed attempt records. */
  const FAILURES = [
    { receiverDoes: "answers 500", answer: 500 as Answer, attempt: { responseStatus: 500, error: null, responseExcerpt: "receiver broke" }, requestsSeen: 9 },
    { receiverDoes: "never answers", answer: "hang" as Answer, attempt: { responseStatus: null, error: "timeout" }, requestsSeen: 9 },
    { receiverDoes: "refuses the connection", answer: null, attempt: { responseStatus: null, error: "connection_refused" }, requestsSeen: 0 },
  ];

  it.each(FAILURES.map((failure) => [failure.receiverDoes, failure] as const))(
    "retries a receiver that %s after 1 min, 5 min, 30 min, 2 h and 4 × 6 h (each jittered by at most a tenth), then fails the delivery after the 9th attempt",
    async (_receiverDoes, { answer, attempt, requestsSeen }) => {
      const time = freezeClock(T0);
      const { principal } = await newPartner();
      const receiver = answer === null ? null : await startReceiver(() => answer);
      const endpoint = await registerEndpoint(principal, receiver ? `${receiver.url}/hooks` : await closedPortUrl());
      const eventId = await recordEvent(principal);
      const delivery = await deliveryOf(eventId, endpoint.id);

      const { gaps, attemptedAt } = await runToExhaustion(time, delivery.id, { timeoutMs: SHORT_TIMEOUT_MS });

      expect(attemptedAt[0]).toEqual(T0);
      expect(gaps).toHaveLength(8);
      gaps.forEach((gap, index) => {
        const base = SPEC_DELAYS_MS[index]!;
        expect(gap, `wait before attempt ${index + 2}`).toBeGreaterThanOrEqual(base * 0.9);
        expect(gap, `wait before attempt ${index + 2}`).toBeLessThanOrEqual(base * 1.1);
      });
      expect(await deliveryById(delivery.id)).toMatchObject({ status: "failed", attemptCount: 9, nextAttemptAt: null, lockedUntil: null });
      const attempts = await attemptsOf(delivery.id);
      expect(attempts.map((row) => row.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(attempts.map((row) => row.attemptedAt)).toEqual(attemptedAt);
      for (const row of attempts) expect(row).toMatchObject({ ...attempt, succeeded: false, eventId, endpointId: endpoint.id });
      if (attempt.error === "timeout") {
        // The attempt waited for its timeout, not for the production 10 seconds.
        for (const row of attempts) expect(row.latencyMs).toBeGreaterThanOrEqual(SHORT_TIMEOUT_MS - 10);
        for (const row of attempts) expect(row.latencyMs).toBeLessThan(5_000);
      }
      expect(receiver?.requests.length ?? 0).toBe(requestsSeen);
      for (const request of receiver?.requests ?? []) {
        expect(request.headers["service-event-id"]).toBe(eventId);
        expect(request.body.equals(receiver!.requests[0]!.body)).toBe(true);
      }
      // About 26.5 hours of failure: well short of the 72 hours that disable an endpoint.
      expect(await endpointRow(endpoint.id)).toMatchObject({ status: "enabled", disabledReason: null, failingSince: T0, lastSuccessAt: null });
      time.advance(7 * DAY_MS);
      expect(await attemptDelivery(delivery.id, { timeoutMs: SHORT_TIMEOUT_MS })).toBe("not_claimed");
      expect(await attemptsOf(delivery.id)).toHaveLength(9);
    },
  );

  it.each([
    ["0", "exactly 0.9×", { random: 0, factor: 0.9 }],
    ["0.999999", "just under 1.1×", { random: 0.999999, factor: 1 + 0.1 * (2 * 0.999999 - 1) }],
  ] as const)("with random() = %s every retry waits %s its delay", async (_value, _band, { random, factor }) => {
    const time = freezeClock(T0);
    const { principal } = await newPartner();
    const receiver = await startReceiver(() => 500);
    const endpoint = await registerEndpoint(principal, `${receiver.url}/hooks`);
    const eventId = await recordEvent(principal);

    const { gaps } = await runToExhaustion(time, (await deliveryOf(eventId, endpoint.id)).id, { random: () => random });

    expect(gaps).toEqual(SPEC_DELAYS_MS.map((base) => Math.round(base * factor)));
    for (const [index, gap] of gaps.entries()) {
      const base = SPEC_DELAYS_MS[index]!;
      if (random === 0) expect(gap).toBe(base * 0.9);
      else expect(gap / base).toBeGreaterThan(1.0999);
      expect(gap).toBeLessThanOrEqual(base * 1.1);
    }
  });

  it("recovers: 500, 500, then 200 succeeds on the 3rd attempt, stops retrying and clears the endpoint's failure run", async () => {
    const time = freezeClock(T0);
    const { principal } = await newPartner();
    const receiver = await startReceiver((_request, index) => (index < 2 ? 500 : 200));
    const endpoint = await registerEndpoint(principal, `${receiver.url}/hooks`);
    const eventId = await recordEvent(principal);
    const delivery = await deliveryOf(eventId, endpoint.id);

    const first = await attemptWhenDue(time, delivery.id);
    expect(first.result).toBe("retry_scheduled");
    expect(await endpointRow(endpoint.id)).toMatchObject({ failingSince: T0, lastSuccessAt: null });
    const second = await attemptWhenDue(time, delivery.id);
    expect(second.result).toBe("retry_scheduled");
    expect(await endpointRow(endpoint.id)).toMatchObject({ failingSince: T0, lastSuccessAt: null });
    const third = await attemptWhenDue(time, delivery.id);
    expect(third.result).toBe("succeeded");

    expect(await deliveryById(delivery.id)).toMatchObject({ status: "succeeded", attemptCount: 3, nextAttemptAt: null, lockedUntil: null });
    expect((await attemptsOf(delivery.id)).map((row) => [row.number, row.responseStatus, row.succeeded])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ]);
    expect(await endpointRow(endpoint.id)).toMatchObject({ status: "enabled", failingSince: null, lastSuccessAt: third.attemptedAt });
    time.advance(7 * DAY_MS);
    expect(await attemptDelivery(delivery.id)).toBe("not_claimed");
    expect(receiver.requests).toHaveLength(3);
    expect(await attemptsOf(delivery.id)).toHaveLength(3);
  });
});

describe("automatic disabling after 72 hours of failure (spec 3.5)", () => {
  it("outlasts one exhausted schedule, disables at the first failure 72 h after the run began, and delivers again once re-enabled", async () => {
    const time = freezeClock(T0);
    const { project, principal } = await newPartner();
    const receiver = await startReceiver(() => 500);
    const endpoint = await registerEndpoint(principal, `${receiver.url}/hooks`);
    const exact = { random: () => 0.5 }; // no jitter: the waits are the schedule's own

    const first = await recordEvent(principal);
    const firstDelivery = await deliveryOf(first, endpoint.id);
    const { attemptedAt } = await runToExhaustion(time, firstDelivery.id, exact);
    // 1 + 5 + 30 + 120 + 4 × 360 minutes: the schedule is over after 26 h 36 min, and the endpoint stays enabled.
    expect(attemptedAt[8]!.getTime() - T0.getTime()).toBe(1596 * MINUTE_MS);
    expect(await deliveryById(firstDelivery.id)).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(await endpointRow(endpoint.id)).toMatchObject({ status: "enabled", disabledReason: null, failingSince: T0 });

    // Later events keep failing; the failure run still counts from T0.
    time.set(new Date(T0.getTime() + 48 * HOUR_MS));
    const second = await recordEvent(principal);
    const secondDelivery = await deliveryOf(second, endpoint.id);
    expect(await attemptDelivery(secondDelivery.id, exact)).toBe("retry_scheduled");
    time.set(new Date(T0.getTime() + 72 * HOUR_MS - 1));
    const third = await recordEvent(principal);
    const thirdDelivery = await deliveryOf(third, endpoint.id);
    expect(await attemptDelivery(thirdDelivery.id, exact)).toBe("retry_scheduled");
    expect(await endpointRow(endpoint.id)).toMatchObject({ status: "enabled", disabledReason: null, failingSince: T0 });
    expect(await db().notification.count({ where: { projectId: project.project_id } })).toBe(0);

    // The first failed attempt at T0 + 72 h disables the endpoint and stops its other pending deliveries.
    const disabledAt = new Date(T0.getTime() + 72 * HOUR_MS);
    time.set(disabledAt);
    expect(await attemptDelivery(secondDelivery.id, exact)).toBe("abandoned");

    expect(await endpointRow(endpoint.id)).toMatchObject({ status: "disabled", disabledReason: "failing", failingSince: T0, updatedAt: disabledAt });
    expect(await deliveryById(secondDelivery.id)).toMatchObject({ status: "abandoned", attemptCount: 2, nextAttemptAt: null, lockedUntil: null });
    expect(await deliveryById(thirdDelivery.id)).toMatchObject({ status: "abandoned", attemptCount: 1, nextAttemptAt: null, lockedUntil: null });
    expect(await deliveryById(firstDelivery.id)).toMatchObject({ status: "failed", attemptCount: 9 });
    expect((await attemptsOf(secondDelivery.id)).map((row) => [row.number, row.attemptedAt, row.responseStatus])).toEqual([
      [1, new Date(T0.getTime() + 48 * HOUR_MS), 500],
      [2, disabledAt, 500],
    ]);
    const notifications = await db().notification.findMany({ where: { projectId: project.project_id } });
    expect(notifications).toEqual([
      expect.objectContaining({ kind: "webhook_endpoint_disabled", subject: `Webhook endpoint ${endpoint.id} was disabled`, createdAt: disabledAt, sentAt: null, sendError: null }),
    ]);
    expect(notifications[0]!.body).toContain(`${receiver.url}/hooks`);
    expect(notifications[0]!.body).toContain(`POST /partner/v1/webhook_endpoints/${endpoint.id}/enable`);
    expect(receiver.requests).toHaveLength(9 + 2 + 1);
    // The automatic disable is a move of the endpoint's lifecycle: its event is written with it.
    const endpointEvents = async () =>
      (await db().event.findMany({ where: { projectId: project.project_id, type: { startsWith: "webhook_endpoint." } }, orderBy: { id: "asc" } })).map((event) => ({
        type: event.type,
        status: (event.object as { status: string }).status,
        disabled_reason: (event.object as { disabled_reason: string | null }).disabled_reason,
        createdAt: event.createdAt,
      }));
    expect(await endpointEvents()).toEqual([{ type: "webhook_endpoint.disabled", status: "disabled", disabled_reason: "failing", createdAt: disabledAt }]);

    // Disabled: nothing more is sent, and new events schedule nothing for it.
    time.advance(HOUR_MS);
    expect(await attemptDelivery(thirdDelivery.id, exact)).toBe("not_claimed");
    const whileDisabled = await recordEvent(principal);
    expect(await db().webhookDelivery.count({ where: { eventId: whileDisabled } })).toBe(0);
    expect(receiver.requests).toHaveLength(12);

    // POST /enable (spec 4.6) turns it back on; the next event is delivered.
    const token = await mintToken(server.url, project);
    const enabled = await fetch(`${server.url}/partner/v1/webhook_endpoints/${endpoint.id}/enable`, bearer(token, { method: "POST" }));
    expect(enabled.status).toBe(200);
    expect(await enabled.json()).toMatchObject({ id: endpoint.id, object: "webhook_endpoint", status: "enabled", disabled_reason: null });
    expect(await endpointRow(endpoint.id)).toMatchObject({ status: "enabled", disabledReason: null, failingSince: null });
    expect((await endpointEvents()).map((event) => [event.type, event.status])).toEqual([["webhook_endpoint.disabled", "disabled"], ["webhook_endpoint.enabled", "enabled"]]);
    // Deliveries stopped while it was disabled stay stopped (replay them instead).
    expect(await attemptDelivery(thirdDelivery.id, exact)).toBe("not_claimed");
    receiver.answer = () => 200;
    const afterEnabling = await recordEvent(principal);
    const delivered = await deliveryOf(afterEnabling, endpoint.id);

    expect(await attemptDelivery(delivered.id)).toBe("succeeded");

    expect(receiver.requests).toHaveLength(13);
    expect(receiver.requests[12]!.headers["service-event-id"]).toBe(afterEnabling);
    expect(await endpointRow(endpoint.id)).toMatchObject({ status: "enabled", failingSince: null, lastSuccessAt: clock.now() });
    expect(await db().notification.count({ where: { projectId: project.project_id } })).toBe(1);
  });

  it("emails the disabled-endpoint notification to the project's owner email once, and only when there is one", async () => {
    const time = freezeClock(T0);
    const { project, principal } = await newPartner();
    const receiver = await startReceiver(() => 500);
    const endpoint = await registerEndpoint(principal, `${receiver.url}/hooks`);
    expect(await attemptDelivery((await deliveryOf(await recordEvent(principal), endpoint.id)).id)).toBe("retry_scheduled");
    time.set(new Date(T0.getTime() + 72 * HOUR_MS));
    expect(await attemptDelivery((await deliveryOf(await recordEvent(principal), endpoint.id)).id)).toBe("abandoned");
    const subject = `Webhook endpoint ${endpoint.id} was disabled`;
    const notification = await db().notification.findFirstOrThrow({ where: { projectId: project.project_id } });
    const sent: Array<Parameters<Mailer["send"]>[0]> = [];
    const mailer: Mailer = { send: async (message) => void sent.push(message) };
    // Other files' notifications may be pending too, so only ours are looked at.
    const ours = () => sent.filter((message) => message.subject === subject);

    expect(await sendPendingNotifications(null)).toBe(0);
    await sendPendingNotifications(mailer);
    expect(ours()).toEqual([]);
    expect(await db().notification.findUniqueOrThrow({ where: { id: notification.id } })).toMatchObject({ sentAt: null, sendError: null });

    time.advance(MINUTE_MS);
    await db().project.update({ where: { id: project.project_id }, data: { ownerEmail: "platform-team@example.co.uk" } });
    expect(await sendPendingNotifications(mailer)).toBe(1);

    expect(ours()).toEqual([{ from: "Lending Platform <no-reply@lending.invalid>", to: "platform-team@example.co.uk", subject, text: notification.body }]);
    expect(await db().notification.findUniqueOrThrow({ where: { id: notification.id } })).toMatchObject({ sentAt: clock.now(), sendError: null });
    await sendPendingNotifications(mailer);
    expect(ours()).toHaveLength(1);
  });
});

describe("replay (POST /partner/v1/events/{id}/replay)", () => {
  /**
   * A project with four endpoints on one receiver (told apart by path): `all` (["*"]), `created`
   * (["application.created"]), `payments` (["payment.settled"], not subscribed) and `off` (["*"], disabled),
   * and one application.created event already delivered to `all` and `created`.
   */
  async function deliveredEvent(time: FrozenClock) {
    const { project, principal } = await newPartner();
    const receiver = await startReceiver();
    const all = await registerEndpoint(principal, `${receiver.url}/all`);
    const created = await registerEndpoint(principal, `${receiver.url}/created`, ["application.created"]);
    const payments = await registerEndpoint(principal, `${receiver.url}/payments`, ["payment.settled"]);
    const off = await registerEndpoint(principal, `${receiver.url}/off`);
    await updateWebhookEndpoint({ tenant: principal, id: off.id, input: { disabled: true } });
    const eventId = await recordEvent(principal, "application.created");
    expect(await db().webhookDelivery.count({ where: { eventId } })).toBe(2);
    for (const endpoint of [all, created]) expect(await attemptDelivery((await deliveryOf(eventId, endpoint.id)).id)).toBe("succeeded");
    const originals = new Map(receiver.requests.map((request) => [request.path, request.body.toString("utf8")]));
    time.advance(HOUR_MS);
    const token = await mintToken(server.url, project);
    const replay = (body?: unknown) =>
      fetch(`${server.url}/partner/v1/events/${eventId}/replay`, bearer(token, body === undefined ? { method: "POST" } : jsonRequest("POST", body)));
    return { receiver, eventId, endpoints: { all, created, payments, off }, originals, replay };
  }

  it("without endpoint_id re-delivers to every enabled endpoint subscribed to the type: same event id, identical bytes, signed afresh", async () => {
    const time = freezeClock(T0);
    const { receiver, eventId, endpoints, originals, replay } = await deliveredEvent(time);

    const response = await replay();

    expect(response.status).toBe(202);
    const body = await response.json();
    expect(body.object).toBe("event_replay");
    expect(body.event).toBe(eventId);
    expect([...body.deliveries].sort((a, b) => a.endpoint_id.localeCompare(b.endpoint_id))).toEqual(
      [endpoints.all.id, endpoints.created.id].sort().map((endpointId) => ({ id: expect.stringMatching(/^whd_[0-9a-z]{26}$/), endpoint_id: endpointId, status: "pending" })),
    );
    const replayedAt = clock.now();
    for (const delivery of body.deliveries as Array<{ id: string }>) {
      expect(await deliveryById(delivery.id)).toMatchObject({ eventId, replay: true, status: "pending", nextAttemptAt: replayedAt });
      expect(await attemptDelivery(delivery.id)).toBe("succeeded");
    }

    const replayed = receiver.requests.slice(2);
    expect(replayed.map((request) => request.path).sort()).toEqual(["/all", "/created"]);
    for (const request of replayed) {
      const endpoint = request.path === "/all" ? endpoints.all : endpoints.created;
      expect(request.headers["service-event-id"]).toBe(eventId);
      expect(request.body.toString("utf8")).toBe(originals.get(request.path));
      expect(parseSignature(request.headers["service-signature"]).t).toBe(String(secondsOf(replayedAt)));
      expect(verifies(request, endpoint.secret, secondsOf(replayedAt))).toBe(true);
    }
    expect(receiver.requests.filter((request) => request.path === "/payments" || request.path === "/off")).toEqual([]);
    expect(await db().webhookDelivery.count({ where: { eventId, replay: false, status: "succeeded" } })).toBe(2);
    expect(await db().webhookDelivery.count({ where: { eventId, replay: true, status: "succeeded" } })).toBe(2);
  });

  it("with endpoint_id re-delivers to that endpoint only, again and again (at-least-once)", async () => {
    const time = freezeClock(T0);
    const { receiver, eventId, endpoints, originals, replay } = await deliveredEvent(time);

    for (const round of [1, 2]) {
      const response = await replay({ endpoint_id: endpoints.created.id });
      expect(response.status).toBe(202);
      const body = await response.json();
      expect(body.deliveries).toEqual([{ id: expect.stringMatching(/^whd_/), endpoint_id: endpoints.created.id, status: "pending" }]);
      expect(await attemptDelivery(body.deliveries[0].id)).toBe("succeeded");
      expect({ round, paths: receiver.requests.slice(2).map((request) => request.path) }).toEqual({ round, paths: Array(round).fill("/created") });
    }

    for (const request of receiver.requests.slice(2)) {
      expect(request.headers["service-event-id"]).toBe(eventId);
      expect(request.body.toString("utf8")).toBe(originals.get("/created"));
      expect(verifies(request, endpoints.created.secret, secondsOf(clock.now()))).toBe(true);
    }
    expect(await db().webhookDelivery.count({ where: { eventId, endpointId: endpoints.all.id } })).toBe(1);
  });

  it("refuses a disabled endpoint_id with 409 and an unknown one with 404 resource_not_found, queueing nothing", async () => {
    const time = freezeClock(T0);
    const { eventId, endpoints, replay } = await deliveredEvent(time);

    await expectApiError(await replay({ endpoint_id: endpoints.off.id }), 409, "conflict");
    const unknown = await expectApiError(await replay({ endpoint_id: "whe_00000000000000000000000000" }), 404, "resource_not_found");

    expect(unknown.error.detail).toEqual([expect.objectContaining({ field: "endpoint_id", reason: "not_found" })]);
    expect(await db().webhookDelivery.count({ where: { eventId, replay: true } })).toBe(0);
  });
});

describe("subscriptions", () => {
  it("schedules deliveries only for enabled endpoints of the event's project and environment that subscribe to its type", async () => {
    freezeClock(T0);
    const { principal } = await newPartner();
    const other = await newPartner();
    const receiver = await startReceiver();
    const everything = await registerEndpoint(principal, `${receiver.url}/everything`);
    const createdOnly = await registerEndpoint(principal, `${receiver.url}/created`, ["application.created"]);
    const disabled = await registerEndpoint(principal, `${receiver.url}/disabled`);
    await updateWebhookEndpoint({ tenant: principal, id: disabled.id, input: { disabled: true } });
    const otherProject = await registerEndpoint(other.principal, `${receiver.url}/other-project`);
    const live = await insertEndpointRow(principalFor(other.project, "live"), "https://hooks.example.com/live");
    const sameProjectLive = await insertEndpointRow({ ...principal, environment: "live" }, "https://hooks.example.com/same-project-live");

    const [created, decided, settled] = await recordEventsAt(principal, ["application.created", "decision.completed", "payment.settled"]);
    const liveEvent = await recordEvent({ ...principal, environment: "live" }, "application.created");

    const scheduled = await db().webhookDelivery.findMany({ where: { eventId: { in: [created!, decided!, settled!, liveEvent] } } });
    const pairs = scheduled.map((delivery) => `${delivery.endpointId} ${delivery.eventId}`).sort();
    expect(pairs).toEqual(
      [
        `${everything.id} ${created}`,
        `${everything.id} ${decided}`,
        `${everything.id} ${settled}`,
        `${createdOnly.id} ${created}`,
        `${sameProjectLive.id} ${liveEvent}`,
      ].sort(),
    );
    for (const endpointId of [disabled.id, otherProject.id, live.id]) expect(await db().webhookDelivery.count({ where: { endpointId } })).toBe(0);

    for (const delivery of scheduled.filter((row) => row.endpointId !== sameProjectLive.id)) expect(await attemptDelivery(delivery.id)).toBe("succeeded");
    const typesAt = (path: string) => receiver.requests.filter((request) => request.path === path).map((request) => JSON.parse(request.body.toString("utf8")).type).sort();
    expect(typesAt("/everything")).toEqual(["application.created", "decision.completed", "payment.settled"]);
    expect(typesAt("/created")).toEqual(["application.created"]);
    expect(receiver.requests).toHaveLength(4);
  });
});

describe("concurrent workers", () => {
  it("delivers each of five due deliveries exactly once when deliverDueWebhooks sweeps run two at a time", async () => {
    // The first seconds of 1970, so the global sweeps below find nothing but ours (see the header).
    const start = new Date("1970-01-01T00:00:10.000Z");
    const time = freezeClock(start);
    const { principal } = await newPartner();
    const receiver = await startReceiver();
    const endpoint = await registerEndpoint(principal, `${receiver.url}/hooks`);
    const eventIds = await recordEventsAt(principal, ["application.created", "application.submitted", "decision.completed", "payment.created", "payment.settled"]);
    const deliveryIds = (await db().webhookDelivery.findMany({ where: { endpointId: endpoint.id } })).map((row) => row.id);
    expect(deliveryIds).toHaveLength(5);

    time.set(new Date(start.getTime() - 1));
    expect((await findDueDeliveries(100)).filter((id) => deliveryIds.includes(id))).toEqual([]);
    time.set(start);
    // A limit of 3 each, and at most 4 in flight to the endpoint: no sweep can take all five, so they share.
    let attempted = 0;
    for (let round = 0; round < 3 && attempted < 5; round += 1) {
      attempted += (await Promise.all([deliverDueWebhooks({ limit: 3 }), deliverDueWebhooks({ limit: 3 })])).reduce((sum, count) => sum + count, 0);
    }

    expect(attempted).toBe(5);
    const perEvent = new Map<string, number>();
    for (const request of receiver.requests) perEvent.set(String(request.headers["service-event-id"]), (perEvent.get(String(request.headers["service-event-id"])) ?? 0) + 1);
    expect(Object.fromEntries(perEvent)).toEqual(Object.fromEntries(eventIds.map((id) => [id, 1])));
    for (const request of receiver.requests) expect(verifies(request, endpoint.secret, secondsOf(start))).toBe(true);
    for (const id of deliveryIds) {
      expect(await deliveryById(id)).toMatchObject({ status: "succeeded", attemptCount: 1 });
      expect((await attemptsOf(id)).map((row) => [row.number, row.succeeded])).toEqual([[1, true]]);
    }
  });
});

describe("secret roll", () => {
  it("signs with both secrets during the overlap (new first) and with the new one only after it", async () => {
    const time = freezeClock(T0);
    const { principal } = await newPartner();
    const receiver = await startReceiver();
    const endpoint = await registerEndpoint(principal, `${receiver.url}/hooks`);
    const oldSecret = endpoint.secret;

    const rolled = await rollWebhookSecret({ tenant: principal, id: endpoint.id, overlapHours: 24 });

    const newSecret = rolled.secret;
    expect(newSecret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(rolled.previous_secret_expires_at).toBe(new Date(T0.getTime() + 24 * HOUR_MS).toISOString());
    const deliverAt = async (at: Date) => {
      time.set(at);
      const eventId = await recordEvent(principal);
      expect(await attemptDelivery((await deliveryOf(eventId, endpoint.id)).id)).toBe("succeeded");
      return receiver.requests.at(-1)!;
    };

    for (const at of [T0, new Date(T0.getTime() + 24 * HOUR_MS - 1)]) {
      const request = await deliverAt(at);
      const { t, v1 } = parseSignature(request.headers["service-signature"]);
      expect(t).toBe(String(secondsOf(at)));
      expect(v1).toEqual([hmacHex(newSecret, t, request.body), hmacHex(oldSecret, t, request.body)]);
      expect(verifies(request, newSecret, secondsOf(at))).toBe(true);
      expect(verifies(request, oldSecret, secondsOf(at))).toBe(true);
    }
    const afterOverlap = new Date(T0.getTime() + 24 * HOUR_MS);
    const request = await deliverAt(afterOverlap);
    const { t } = parseSignature(request.headers["service-signature"]);
    expect(request.headers["service-signature"]).toBe(`t=${t},v1=${hmacHex(newSecret, t, request.body)}`);
    expect(verifies(request, newSecret, secondsOf(afterOverlap))).toBe(true);
    expect(verifies(request, oldSecret, secondsOf(afterOverlap))).toBe(false);
  });
});

describe("address guard at delivery time", () => {
  it("refuses to deliver a live endpoint's event to 127.0.0.1 or localhost (blocked_address), while the sandbox may", async () => {
    freezeClock(T0);
    const { project, principal } = await newPartner();
    const livePrincipal = principalFor(project, "live");
    const receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    await expect(registerEndpoint(livePrincipal, `https://127.0.0.1:${port}/live`)).rejects.toMatchObject({
      code: "webhook_endpoint_url_invalid",
      detail: [expect.objectContaining({ field: "url", reason: "private_address" })],
    });
    // Registration refuses these, so the rows are written directly: as if the host had resolved elsewhere before.
    const loopback = await insertEndpointRow(livePrincipal, `${receiver.url}/live-loopback`);
    const localhost = await insertEndpointRow(livePrincipal, `https://localhost:${port}/live-localhost`);
    const sandbox = await registerEndpoint(principal, `${receiver.url}/sandbox`);
    const liveEvent = await recordEvent(livePrincipal);
    const sandboxEvent = await recordEvent(principal);

    for (const endpoint of [loopback, localhost]) {
      const delivery = await deliveryOf(liveEvent, endpoint.id);
      expect(await attemptDelivery(delivery.id)).toBe("retry_scheduled");
      expect(await attemptsOf(delivery.id)).toEqual([expect.objectContaining({ number: 1, responseStatus: null, error: "blocked_address", succeeded: false })]);
    }
    expect(receiver.requests).toEqual([]);
    expect(await attemptDelivery((await deliveryOf(sandboxEvent, sandbox.id)).id)).toBe("succeeded");
    expect(receiver.requests.map((request) => request.path)).toEqual(["/sandbox"]);
  });
});

describe("retention (30 days)", () => {
  // In the first hours of 1970 (see the header): pruning deletes every event older than the cutoff, whoever's.
  const at = (iso: string) => new Date(`1970-01-01T${iso}Z`);

  /** A sandbox project whose events carry a finished delivery and attempt (written directly: nothing is due). */
  async function eventsWithHistory(createdAt: Date[]) {
    const { principal } = await newPartner();
    const receiver = await startReceiver();
    const endpoint = await registerEndpoint(principal, `${receiver.url}/hooks`);
    await updateWebhookEndpoint({ tenant: principal, id: endpoint.id, input: { disabled: true } });
    const eventIds: string[] = [];
    for (const instant of createdAt) {
      const eventId = await recordEvent(principal, "application.created", instant);
      // As if recorded at `instant`: the retention runs on when an event was recorded.
      await db().event.update({ where: { id: eventId }, data: { recordedAt: instant } });
      const deliveryId = newId("webhookDelivery");
      await db().webhookDelivery.create({
        data: { id: deliveryId, endpointId: endpoint.id, eventId, projectId: principal.projectId, status: "succeeded", attemptCount: 1, createdAt: instant, updatedAt: instant },
      });
      await db().webhookAttempt.create({
        data: { id: newId("webhookAttempt"), deliveryId, endpointId: endpoint.id, eventId, number: 1, attemptedAt: instant, responseStatus: 200, latencyMs: 5, succeeded: true },
      });
      eventIds.push(eventId);
    }
    return { principal, eventIds };
  }

  async function historyOf(projectId: string) {
    return {
      events: (await db().event.findMany({ where: { projectId, type: "application.created" }, orderBy: { id: "asc" } })).map((event) => event.id),
      deliveries: (await db().webhookDelivery.findMany({ where: { projectId }, orderBy: { eventId: "asc" } })).map((delivery) => delivery.eventId),
      attempts: (await db().webhookAttempt.findMany({ where: { delivery: { projectId } }, orderBy: { eventId: "asc" } })).map((attempt) => attempt.eventId),
    };
  }

  it("pruneExpiredEvents deletes events more than 30 days old with their deliveries and attempts, and keeps the rest", async () => {
    const cutoff = at("06:00:00.000");
    const time = freezeClock(at("00:30:00.000"));
    const { principal, eventIds } = await eventsWithHistory([at("01:00:00.000"), new Date(cutoff.getTime() - 1), cutoff, at("12:00:00.000")]);
    const [old, justOlder, exactlyThirtyDays, recent] = eventIds as [string, string, string, string];
    expect((await historyOf(principal.projectId)).events).toEqual([old, justOlder, exactlyThirtyDays, recent]);
    time.set(new Date(cutoff.getTime() + 30 * DAY_MS));

    expect(await pruneExpiredEvents()).toBeGreaterThanOrEqual(2);

    const kept = [exactlyThirtyDays, recent];
    expect(await historyOf(principal.projectId)).toEqual({ events: kept, deliveries: kept, attempts: kept });
  });

  it("runMaintenance prunes expired events and reports how many as eventsPruned", async () => {
    const cutoff = at("04:00:00.000");
    const time = freezeClock(at("01:30:00.000"));
    const { principal, eventIds } = await eventsWithHistory([at("02:00:00.000"), at("05:00:00.000")]);
    const [old, recent] = eventIds as [string, string];
    time.set(new Date(cutoff.getTime() + 30 * DAY_MS));

    const report = await runMaintenance();

    expect(Object.keys(report).sort()).toEqual(["enquiriesPruned", "eventsPruned", "idempotencyKeysPruned", "insecureWebhookEndpointsDisabled", "mcpToolCallsPruned", "personalDataErased", "registryLookupsPruned", "signInArtifactsPruned", "supportSessionsPruned", "usageDaysPruned"]);
    expect(report.eventsPruned).toBeGreaterThanOrEqual(1);
    expect(await historyOf(principal.projectId)).toEqual({ events: [recent], deliveries: [recent], attempts: [recent] });
    expect(await db().event.count({ where: { id: old } })).toBe(0);
  });
});
