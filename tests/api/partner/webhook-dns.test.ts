// Resolving webhook hosts (spec 4.6, 6.4) against a DNS server this file runs on 127.0.0.1 (tests/helpers/dns-server.ts),
// named by WEBHOOK_DNS_SERVERS: resolution is bounded (a timeout per try, here WEBHOOK_DNS_TIMEOUT_MS of 300 ms, and a
// number of tries), a host that cannot be
// resolved is a 422 on the url at registration and a failed attempt, retried on the usual schedule, at delivery, and
// the connection goes to the address that was resolved and checked, whatever DNS says a moment later, moving on to the
// next resolved address only when one refuses the connection.
//
// Registration runs over HTTP with a live token (the sandbox skips address checks here, since this file turns on
// WEBHOOK_ALLOW_PRIVATE_TARGETS for its 127.0.0.1 receiver). Deliveries are attempted one by one on a frozen clock, as in
// webhook-delivery.test.ts.
import { once } from "node:events";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clock, freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { recordEvents } from "@/lib/events/events";
import { newId } from "@/lib/ids";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { attemptDelivery } from "@/lib/webhooks/deliver";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { startDnsServer, type DnsServer, type QueryType } from "../../helpers/dns-server";
import { expectApiError, expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { trustedTestCertificate } from "../../helpers/tls";

/** Spec 6.4: the wait before attempt 2 (±10% jitter). */
const MINUTE_MS = 60_000;
const T0 = new Date("2027-05-01T09:00:00.000Z");
/** Each try's wait for the name server, shortened from the 1 s default so a silent name server costs this file little. */
const DNS_TRY_TIMEOUT_MS = 300;
/**
 * Two tries per record type: a silent name server is given up on after two to three tries' timeouts (c-ares checks its
 * timers once per timeout); `below` leaves room for a loaded machine, yet is less than two tries of the 1 s default.
 */
const SILENT_RESOLUTION_MS = { atLeast: 2 * DNS_TRY_TIMEOUT_MS - 10, below: 6 * DNS_TRY_TIMEOUT_MS };
/** A registration refused for a silent name server answers well inside an attempt's 10-second deadline, request included. */
const SILENT_REGISTRATION_BELOW_MS = 5_000;
const PUBLIC_ADDRESS = "93.184.215.14";
const UNRESOLVABLE = "The url's host name could not be resolved: DNS gave no address for it, or no answer in time.";

let dns: DnsServer;
let server: AppServer;
let receiver: https.Server;
let receiverPort: number;
let receiverConnections = 0;
const receivedHosts: string[] = [];
let project: ProjectCredentials;
let liveToken: string;

beforeAll(async () => {
  dns = await startDnsServer();
  process.env.WEBHOOK_DNS_SERVERS = dns.address;
  process.env.WEBHOOK_DNS_TIMEOUT_MS = String(DNS_TRY_TIMEOUT_MS);
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  server = await startAppServer();
  receiver = https.createServer(trustedTestCertificate(), (request, response) => {
    request.resume();
    request.on("end", () => {
      receivedHosts.push(request.headers.host ?? "");
      response.writeHead(204).end();
    });
  });
  receiver.on("connection", () => (receiverConnections += 1));
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  receiverPort = (receiver.address() as AddressInfo).port;
  project = await createTestProject();
  liveToken = await mintToken(server.url, project, { environment: "live" });
});
afterAll(async () => {
  await server?.close();
  receiver?.close();
  await dns?.close();
});
beforeEach(() => {
  dns.queries.length = 0;
  dns.answer = () => "silence";
});

/** How many queries of each type the DNS server saw for `name`. */
function queriesFor(name: string): Partial<Record<QueryType, number>> {
  const counts: Partial<Record<QueryType, number>> = {};
  for (const query of dns.queries.filter((candidate) => candidate.name === name)) counts[query.type] = (counts[query.type] ?? 0) + 1;
  return counts;
}

function call(method: string, route: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}/partner/v1${route}`, bearer(liveToken, body === undefined ? { method } : jsonRequest(method, body)));
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; elapsedMs: number }> {
  const started = performance.now();
  const result = await work();
  return { result, elapsedMs: performance.now() - started };
}

describe("configuration of this file", () => {
  it("resolves webhook hosts with the DNS server it runs, waiting 300 ms a try", () => {
    expect(config().WEBHOOK_DNS_SERVERS).toEqual([dns.address]);
    expect(config().WEBHOOK_DNS_TIMEOUT_MS).toBe(DNS_TRY_TIMEOUT_MS);
  });
});

describe("registration", () => {
  it("refuses a host whose name server never answers with 422 unresolvable on url, after two tries per record type, in two to three tries' timeouts", async () => {
    const { result: response, elapsedMs } = await timed(() => call("POST", "/webhook_endpoints", { url: "https://silent.example.test/hooks", enabled_events: ["*"] }));

    const body = await expectApiError(response, 422, "webhook_endpoint_url_invalid");
    expect(body.error.detail).toEqual([{ field: "url", reason: "unresolvable", message: UNRESOLVABLE }]);
    expect(queriesFor("silent.example.test")).toEqual({ A: 2, AAAA: 2 });
    expect(elapsedMs).toBeGreaterThanOrEqual(SILENT_RESOLUTION_MS.atLeast);
    expect(elapsedMs).toBeLessThan(SILENT_REGISTRATION_BELOW_MS);
    expect(await db().webhookEndpoint.count({ where: { projectId: project.project_id, environment: "live" } })).toBe(0);
  });

  it("refuses a name that does not exist with 422 unresolvable at once, asking once per record type", async () => {
    dns.answer = () => "nxdomain";
    const { result: response, elapsedMs } = await timed(() => call("POST", "/webhook_endpoints", { url: "https://missing.example.test/hooks", enabled_events: ["*"] }));

    const body = await expectApiError(response, 422, "webhook_endpoint_url_invalid");
    expect(body.error.detail).toEqual([{ field: "url", reason: "unresolvable", message: UNRESOLVABLE }]);
    expect(queriesFor("missing.example.test")).toEqual({ A: 1, AAAA: 1 });
    expect(elapsedMs).toBeLessThan(SILENT_RESOLUTION_MS.atLeast);
  });

  it("accepts a name the name server resolves to public addresses, and refuses one with any private address", async () => {
    dns.answer = ({ name }) => ({
      addresses: name === "public.example.test" ? [PUBLIC_ADDRESS, "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] : [PUBLIC_ADDRESS, "10.1.2.3"],
    });

    const accepted = await expectJson<{ id: string; url: string }>(await call("POST", "/webhook_endpoints", { url: "https://public.example.test/hooks", enabled_events: ["*"] }), 201);
    const refused = await expectApiError(await call("POST", "/webhook_endpoints", { url: "https://mixed.example.test/hooks", enabled_events: ["*"] }), 422, "webhook_endpoint_url_invalid");

    expect(accepted.url).toBe("https://public.example.test/hooks");
    expect(refused.error.detail).toEqual([expect.objectContaining({ field: "url", reason: "private_address" })]);
    expect(queriesFor("public.example.test")).toEqual({ A: 1, AAAA: 1 });
    await call("DELETE", `/webhook_endpoints/${accepted.id}`);
  });

  it("applies the same bounded resolution when an update changes the url", async () => {
    dns.answer = ({ name }) => (name === "public.example.test" ? { addresses: [PUBLIC_ADDRESS] } : "silence");
    const endpoint = await expectJson<{ id: string }>(await call("POST", "/webhook_endpoints", { url: "https://public.example.test/hooks", enabled_events: ["*"] }), 201);

    const { result: response, elapsedMs } = await timed(() => call("POST", `/webhook_endpoints/${endpoint.id}`, { url: "https://silent.example.test/hooks" }));

    const body = await expectApiError(response, 422, "webhook_endpoint_url_invalid");
    expect(body.error.detail).toEqual([{ field: "url", reason: "unresolvable", message: UNRESOLVABLE }]);
    expect(queriesFor("silent.example.test")).toEqual({ A: 2, AAAA: 2 });
    expect(elapsedMs).toBeLessThan(SILENT_REGISTRATION_BELOW_MS);
    await call("DELETE", `/webhook_endpoints/${endpoint.id}`);
  });
});

describe("delivery", () => {
  /** An endpoint row at `url` (written directly: sandbox registration does not resolve, live would refuse loopback). */
  async function endpointAt(tenant: Tenant, url: string) {
    return db().webhookEndpoint.create({
      data: { id: newId("webhookEndpoint"), projectId: tenant.projectId, environment: tenant.environment, url, enabledEvents: ["*"], secret: `whsec_${"d".repeat(40)}`, createdAt: clock.now(), updatedAt: clock.now() },
    });
  }

  /** The pending delivery of a fresh event to `endpointId`. */
  async function deliveryTo(tenant: Tenant, endpointId: string) {
    const [eventId] = await db().$transaction((transaction) =>
      recordEvents(transaction, [{ projectId: tenant.projectId, environment: tenant.environment, type: "application.created", object: { id: "app_dns", object: "application" }, createdAt: clock.now() }]),
    );
    return db().webhookDelivery.findFirstOrThrow({ where: { eventId: eventId!, endpointId } });
  }

  async function freshTenant(environment: Tenant["environment"]): Promise<Tenant> {
    return { projectId: (await createTestProject()).project_id, environment };
  }

  it("connects to the address the name server gives and verifies the certificate for the URL's name", async () => {
    freezeClock(T0);
    dns.answer = () => ({ addresses: ["127.0.0.1"] });
    const tenant = await freshTenant("sandbox");
    const endpoint = await endpointAt(tenant, `https://hooks.example.test:${receiverPort}/hooks`);
    const delivery = await deliveryTo(tenant, endpoint.id);
    receivedHosts.length = 0;

    expect(await attemptDelivery(delivery.id)).toBe("succeeded");

    expect(receivedHosts).toEqual([`hooks.example.test:${receiverPort}`]);
    expect(queriesFor("hooks.example.test")).toEqual({ A: 1, AAAA: 1 });
  });

  it("moves on to the next address the name server gives when one refuses connections, and delivers there", async () => {
    freezeClock(T0);
    // Nothing listens on 127.0.0.2 at the receiver's port: the first address refuses the connection.
    dns.answer = () => ({ addresses: ["127.0.0.2", "127.0.0.1"] });
    const tenant = await freshTenant("sandbox");
    const endpoint = await endpointAt(tenant, `https://hooks.example.test:${receiverPort}/hooks`);
    const delivery = await deliveryTo(tenant, endpoint.id);
    receivedHosts.length = 0;

    expect(await attemptDelivery(delivery.id)).toBe("succeeded");

    const attempts = await db().webhookAttempt.findMany({ where: { deliveryId: delivery.id } });
    expect(attempts).toEqual([expect.objectContaining({ number: 1, responseStatus: 204, error: null, succeeded: true })]);
    expect(receivedHosts).toEqual([`hooks.example.test:${receiverPort}`]);
    expect(queriesFor("hooks.example.test")).toEqual({ A: 1, AAAA: 1 });
  });

  it("fails an attempt as connection_refused, naming every address, when each address the name server gives refuses", async () => {
    freezeClock(T0);
    dns.answer = () => ({ addresses: ["127.0.0.2", "127.0.0.3"] });
    const tenant = await freshTenant("sandbox");
    const endpoint = await endpointAt(tenant, `https://hooks.example.test:${receiverPort}/hooks`);
    const delivery = await deliveryTo(tenant, endpoint.id);
    receivedHosts.length = 0;

    expect(await attemptDelivery(delivery.id)).toBe("retry_scheduled");

    const [attempt] = await db().webhookAttempt.findMany({ where: { deliveryId: delivery.id } });
    expect(attempt).toMatchObject({ number: 1, responseStatus: null, error: "connection_refused", succeeded: false });
    expect(attempt!.responseExcerpt).toBe(
      `No address of hooks.example.test took the connection: connect ECONNREFUSED 127.0.0.2:${receiverPort}; connect ECONNREFUSED 127.0.0.3:${receiverPort}`,
    );
    expect(receivedHosts).toEqual([]);
  });

  it("fails an attempt whose name server never answers as dns_failure in two to three tries' timeouts, and retries it on the usual schedule", async () => {
    const time = freezeClock(T0);
    const tenant = await freshTenant("sandbox");
    const endpoint = await endpointAt(tenant, `https://hooks.example.test:${receiverPort}/hooks`);
    const delivery = await deliveryTo(tenant, endpoint.id);
    receivedHosts.length = 0;

    expect(await attemptDelivery(delivery.id)).toBe("retry_scheduled");

    const [attempt] = await db().webhookAttempt.findMany({ where: { deliveryId: delivery.id } });
    expect(attempt).toMatchObject({ number: 1, responseStatus: null, error: "dns_failure", succeeded: false });
    expect(attempt!.responseExcerpt).toBe("Could not resolve hooks.example.test: queryA ETIMEOUT hooks.example.test");
    // The resolver gave up, well before the 10-second deadline of the whole attempt.
    expect(attempt!.latencyMs).toBeGreaterThanOrEqual(SILENT_RESOLUTION_MS.atLeast);
    expect(attempt!.latencyMs).toBeLessThan(SILENT_RESOLUTION_MS.below);
    expect(queriesFor("hooks.example.test")).toEqual({ A: 2, AAAA: 2 });
    const retry = (await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).nextAttemptAt!;
    expect(retry.getTime() - T0.getTime()).toBeGreaterThanOrEqual(0.9 * MINUTE_MS);
    expect(retry.getTime() - T0.getTime()).toBeLessThanOrEqual(1.1 * MINUTE_MS);
    expect(receivedHosts).toEqual([]);

    // The name server answers again: the retry, when due, is delivered.
    dns.answer = () => ({ addresses: ["127.0.0.1"] });
    time.set(retry);
    expect(await attemptDelivery(delivery.id)).toBe("succeeded");
    expect(receivedHosts).toEqual([`hooks.example.test:${receiverPort}`]);
  });

  it("resolves a live endpoint's host once per attempt and connects to the public address it checked, though DNS rebinds to loopback a moment later", async () => {
    freezeClock(T0);
    dns.answer = ({ type }) => (type === "A" && dns.queries.filter((query) => query.type === "A").length === 1 ? { addresses: [PUBLIC_ADDRESS] } : { addresses: ["127.0.0.1"] });
    const tenant = await freshTenant("live");
    const endpoint = await endpointAt(tenant, `https://rebind.example.test:${receiverPort}/hooks`);
    const delivery = await deliveryTo(tenant, endpoint.id);
    const connectionsBefore = receiverConnections;

    expect(await attemptDelivery(delivery.id, { timeoutMs: 1_000 })).toBe("retry_scheduled");

    const [attempt] = await db().webhookAttempt.findMany({ where: { deliveryId: delivery.id } });
    // Not blocked_address: the checked address was public. What the network does with a connection to it depends on
    // the machine (refused, no route, or silence until the timeout); either way it never reached the loopback receiver.
    expect(["connection_refused", "connection_error", "timeout"]).toContain(attempt!.error);
    expect(receiverConnections).toBe(connectionsBefore);
    expect(queriesFor("rebind.example.test")).toEqual({ A: 1, AAAA: 1 });
  });
});
