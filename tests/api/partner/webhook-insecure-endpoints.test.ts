// Webhook endpoints whose URL is not https (spec 4.6: "HTTPS only; plain HTTP rejected"), as rows registered before
// registration required it are: the hourly maintenance disables each enabled one through the endpoint lifecycle
// (reason `insecure_url`, its `webhook_endpoint.disabled` event, pending deliveries stopped) and tells its owner once;
// the delivery path refuses such a URL itself, should an attempt reach one first; and the owner cannot enable it
// again without an https URL. The rows are written straight to the table, as the legacy ones were.
//
// Runs in a database of its own: the maintenance pass works across the platform, so here its counts are exact and
// the endpoints of files running alongside are never touched. The receiver speaks plain http on 127.0.0.1, and
// WEBHOOK_ALLOW_PRIVATE_TARGETS lets sandbox deliveries reach it: only the https rule stands between them.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock, freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { recordEvents } from "@/lib/events/events";
import { newId } from "@/lib/ids";
import { BACKGROUND_OPERATIONS } from "@/lib/background/catalogue";
import type { Pass } from "@/lib/background-operation";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { attemptDelivery } from "@/lib/webhooks/deliver";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";


const T0 = new Date("2031-03-04T05:06:07.000Z");
const OWNER_EMAIL = "team@partner.example.co.uk";
const MUST_BE_HTTPS = "Webhook URLs must use https. For a receiver on your own machine, run the forwarder: npm run --silent cli -- listen --forward-to http://localhost:4242/webhooks";
const maintenance = BACKGROUND_OPERATIONS.find((operation): operation is Pass => operation.id === "maintenance")!;

let server: AppServer;
let receiver: http.Server;
let receiverUrl: string;
let requestsReceived = 0;

beforeAll(async () => {
  server = await startAppServer();
  receiver = http.createServer((request, response) => {
    requestsReceived += 1;
    request.resume();
    request.on("end", () => response.writeHead(204).end());
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await server?.close();
  receiver?.close();
});

/** An endpoint row as the legacy ones are: written directly, enabled, subscribed to everything. */
async function endpointAt(project: ProjectCredentials, url: string) {
  return db().webhookEndpoint.create({
    data: { id: newId("webhookEndpoint"), projectId: project.project_id, environment: "sandbox", url, enabledEvents: ["*"], secret: `whsec_${"i".repeat(40)}`, createdAt: clock.now(), updatedAt: clock.now() },
  });
}

/** Records an event of the project, and returns its pending delivery to each endpoint, by endpoint id. */
async function deliveriesOfNewEvent(project: ProjectCredentials): Promise<Map<string, string>> {
  const [eventId] = await db().$transaction((transaction) =>
    recordEvents(transaction, [{ projectId: project.project_id, environment: "sandbox", type: "application.created", object: { id: "app_insecure", object: "application" }, createdAt: clock.now() }]),
  );
  const deliveries = await db().webhookDelivery.findMany({ where: { eventId: eventId! } });
  return new Map(deliveries.map((delivery) => [delivery.endpointId, delivery.id]));
}

const endpointRow = (id: string) => db().webhookEndpoint.findUniqueOrThrow({ where: { id } });
const deliveryStatus = async (id: string) => (await db().webhookDelivery.findUniqueOrThrow({ where: { id } })).status;
const notificationsOf = (project: ProjectCredentials) =>
  db().notification.findMany({ where: { projectId: project.project_id }, orderBy: { id: "asc" }, select: { kind: true, subject: true, body: true, createdAt: true } });
const endpointEvents = async (project: ProjectCredentials) =>
  (await db().event.findMany({ where: { projectId: project.project_id, type: { startsWith: "webhook_endpoint." } }, orderBy: { id: "asc" } })).map((event) => {
    const object = event.object as { id: string; status: string; disabled_reason: string | null };
    return { type: event.type, id: object.id, status: object.status, disabled_reason: object.disabled_reason, createdAt: event.createdAt };
  });

function expectedNotification(id: string, url: string) {
  return {
    kind: "webhook_endpoint_disabled",
    subject: `Webhook endpoint ${id} was disabled: its URL is not https`,
    body: [
      `The webhook endpoint ${id} delivers to ${url}, which is not an https URL. Webhooks are delivered over`,
      "https only, so the endpoint has been disabled and its pending deliveries stopped.",
      `Give it an https URL and enable it in one request: POST /partner/v1/webhook_endpoints/${id} with a new "url"`,
      'and "disabled": false. Then replay the events you missed with POST /partner/v1/events/{id}/replay.',
    ].join("\n"),
    createdAt: T0,
  };
}

describe("an endpoint whose URL is not https", () => {
  it("is disabled by the hourly maintenance with its event and reason, its pending deliveries stopped and its owner told once", async () => {
    freezeClock(T0);
    const project = await createTestProject({ ownerEmail: OWNER_EMAIL });
    const insecure = await endpointAt(project, receiverUrl);
    const secure = await endpointAt(project, "https://hooks.partner.example.co.uk/hooks");
    const deliveries = await deliveriesOfNewEvent(project);

    const report = await maintenance.run();

    expect(report).toMatchObject({ insecureWebhookEndpointsDisabled: 1 });
    expect(await endpointRow(insecure.id)).toMatchObject({ status: "disabled", disabledReason: "insecure_url", updatedAt: T0 });
    expect(await endpointRow(secure.id)).toMatchObject({ status: "enabled", disabledReason: null });
    expect(await endpointEvents(project)).toEqual([{ type: "webhook_endpoint.disabled", id: insecure.id, status: "disabled", disabled_reason: "insecure_url", createdAt: T0 }]);
    expect(await deliveryStatus(deliveries.get(insecure.id)!)).toBe("abandoned");
    expect(await deliveryStatus(deliveries.get(secure.id)!)).toBe("pending");
    expect(await notificationsOf(project)).toEqual([expectedNotification(insecure.id, receiverUrl)]);

    // Running again finds nothing to do: no second event, no second notification.
    expect(await maintenance.run()).toMatchObject({ insecureWebhookEndpointsDisabled: 0 });
    expect(await endpointEvents(project)).toHaveLength(1);
    expect(await notificationsOf(project)).toHaveLength(1);

    // No delivery is attempted to it.
    expect(await attemptDelivery(deliveries.get(insecure.id)!)).toBe("not_claimed");
    expect(requestsReceived).toBe(0);
  });

  it("is refused by the delivery path itself when an attempt reaches it first: nothing is sent, and it is disabled with its owner told once", async () => {
    freezeClock(T0);
    const project = await createTestProject({ ownerEmail: OWNER_EMAIL });
    const insecure = await endpointAt(project, receiverUrl);
    const first = (await deliveriesOfNewEvent(project)).get(insecure.id)!;
    const second = (await deliveriesOfNewEvent(project)).get(insecure.id)!;

    expect(await attemptDelivery(first)).toBe("abandoned");

    expect(requestsReceived).toBe(0);
    expect(await endpointRow(insecure.id)).toMatchObject({ status: "disabled", disabledReason: "insecure_url" });
    expect([await deliveryStatus(first), await deliveryStatus(second)]).toEqual(["abandoned", "abandoned"]);
    expect(await db().webhookAttempt.count({ where: { endpointId: insecure.id } })).toBe(0);
    expect(await endpointEvents(project)).toEqual([{ type: "webhook_endpoint.disabled", id: insecure.id, status: "disabled", disabled_reason: "insecure_url", createdAt: T0 }]);
    expect(await notificationsOf(project)).toEqual([expectedNotification(insecure.id, receiverUrl)]);
    expect(await maintenance.run()).toMatchObject({ insecureWebhookEndpointsDisabled: 0 });
  });

  it("cannot be enabled again by its owner until it has an https URL", async () => {
    freezeClock(T0);
    const project = await createTestProject({ ownerEmail: OWNER_EMAIL });
    const token = await mintToken(server.url, project);
    const insecure = await endpointAt(project, receiverUrl);
    await maintenance.run();
    const call = (method: string, route: string, body?: unknown) =>
      fetch(`${server.url}/partner/v1${route}`, bearer(token, body === undefined ? { method } : jsonRequest(method, body)));

    const read = await expectJson(await call("GET", `/webhook_endpoints/${insecure.id}`), 200);
    expect(read).toMatchObject({ id: insecure.id, url: receiverUrl, status: "disabled", disabled_reason: "insecure_url" });

    const refused = await expectApiError(await call("POST", `/webhook_endpoints/${insecure.id}/enable`), 422, "validation_failed");
    expect(refused.error.detail).toEqual([{ field: "url", reason: "must_be_https", message: MUST_BE_HTTPS }]);
    const stillRefused = await expectApiError(await call("POST", `/webhook_endpoints/${insecure.id}`, { disabled: false }), 422, "validation_failed");
    expect(stillRefused.error.detail).toEqual([{ field: "url", reason: "must_be_https", message: MUST_BE_HTTPS }]);
    expect(await endpointRow(insecure.id)).toMatchObject({ status: "disabled", disabledReason: "insecure_url", url: receiverUrl });

    const secureUrl = "https://hooks.partner.example.co.uk/moved";
    const enabled = await expectJson(await call("POST", `/webhook_endpoints/${insecure.id}`, { url: secureUrl, disabled: false }), 200);
    expect(enabled).toMatchObject({ id: insecure.id, url: secureUrl, status: "enabled", disabled_reason: null });
    expect(requestsReceived).toBe(0);
  });
});
