// The webhook "done when": a sandbox endpoint registered over HTTP receives application.created,
// application.submitted and decision.completed for an application created and submitted over HTTP, each
// verifiable with the documented scheme by an independent HMAC, and the CLI forwarder prints them. The platform
// delivers to an https receiver on 127.0.0.1 (webhook URLs are https only; its self-signed certificate is trusted
// by this process, tests/helpers/tls.ts); the forwarder posts to a plain http one, as on a developer's laptop.
import { createHmac, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it, onTestFinished } from "vitest";
import { decideOnItsClock } from "@/lib/decisions/background";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { startCli } from "../../helpers/cli";
import { jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { eventually } from "../../helpers/eventually";
import { trustedTestCertificate } from "../../helpers/tls";

interface Received {
  body: Buffer;
  signature: string | undefined;
  contentType: string | undefined;
}

let server: AppServer;
/** What the platform delivers to (https) and what the forwarder posts to (http), both recorded in `received`. */
let platformReceiver: https.Server;
let forwarderReceiver: http.Server;
let platformReceiverUrl: string;
let forwarderReceiverUrl: string;
const received: Received[] = [];

function record(request: http.IncomingMessage, response: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    received.push({ body: Buffer.concat(chunks), signature: request.headers["service-signature"] as string | undefined, contentType: request.headers["content-type"] });
    response.writeHead(200).end("ok");
  });
}

async function listenOnLoopback(receiver: http.Server): Promise<number> {
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  return (receiver.address() as AddressInfo).port;
}

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  server = await startAppServer();
  platformReceiver = https.createServer(trustedTestCertificate(), record);
  forwarderReceiver = http.createServer(record);
  platformReceiverUrl = `https://127.0.0.1:${await listenOnLoopback(platformReceiver)}/webhooks`;
  forwarderReceiverUrl = `http://127.0.0.1:${await listenOnLoopback(forwarderReceiver)}/webhooks`;
});
afterAll(async () => {
  await server?.close();
  platformReceiver?.close();
  forwarderReceiver?.close();
});

/**
 * The receiver side of spec 6.3, written from the spec with Node's crypto (not the platform's helper): some
 * `v1` is the HMAC-SHA256 of "<t>.<raw body>" under `secret`, compared in constant time, and `t` is recent.
 */
function signedWith(delivery: Received, secret: string): boolean {
  const parts = (delivery.signature ?? "").split(",").map((part) => part.split("=") as [string, string]);
  const timestamp = parts.find(([name]) => name === "t")?.[1];
  if (!timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(delivery.body).digest();
  return parts.some(([name, value]) => name === "v1" && Buffer.from(value, "hex").length === expected.length && timingSafeEqual(Buffer.from(value, "hex"), expected));
}

type DeliveredEvent = { id: string; type: string; data: { object: Record<string, unknown> } };

it("delivers the lifecycle's events, signed, to a registered sandbox endpoint, and the forwarder prints them", async () => {
  const project: ProjectCredentials = await createTestProject();
  const token = await mintToken(server.url, project);
  const call = (method: string, route: string, body?: unknown) =>
    fetch(`${server.url}/partner/v1${route}`, bearer(token, body === undefined ? { method } : jsonRequest(method, body)));

  const registered = await call("POST", "/webhook_endpoints", { url: platformReceiverUrl, enabled_events: ["*"], description: "local receiver" });
  expect(registered.status).toBe(201);
  const endpoint = await registered.json();
  expect(endpoint.secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);

  // The forwarder (cli listen) runs alongside, as an integrator would run it on their laptop.
  const cli = startCli(
    { LENDING_CLIENT_ID: project.client_id, LENDING_API_KEY: project.sandbox.secret_key },
    ...["listen", "--forward-to", forwarderReceiverUrl, "--api-url", server.url, "--max-events", "3", "--events", "application.created,application.submitted,decision.completed"],
  );
  onTestFinished(async () => {
    cli.stop();
    await cli.result;
  });
  const output = () => cli.output().stdout + cli.output().stderr;
  await eventually(async () => output(), (text) => text.includes("Ready."));
  const forwarderSecret = /signing secret is (whsec_\w+)/.exec(output())![1]!;

  const application = await (await call("POST", "/applications", {
    business: { company_number: "12345678" },
    amount_pence: 2_500_000,
    term_months: 12,
    applicant: { email: "director@example.co.uk" },
  })).json();
  expect((await call("POST", `/test_helpers/applications/${application.id}/submit`)).status).toBe(200);
  await eventually(async () => (await (await call("GET", `/applications/${application.id}`)).json()).status, (status) => status === "approved", {
    drive: () => decideOnItsClock(application.id),
  });

  // The test server runs no sweeps: deliver what is due, as the background driver does every second.
  await eventually(async () => received.filter((delivery) => signedWith(delivery, endpoint.secret)).length, (count) => count >= 3, { drive: deliverDueWebhooks });

  const signedByPlatform = received.filter((delivery) => signedWith(delivery, endpoint.secret));
  const platformDeliveries = signedByPlatform.map((delivery) => JSON.parse(delivery.body.toString("utf8")) as DeliveredEvent);
  expect(platformDeliveries.map((event) => event.type).sort()).toEqual(["application.created", "application.submitted", "decision.completed"]);
  for (const delivery of signedByPlatform) expect(delivery.contentType).toBe("application/json");

  // Each body is byte for byte the stored event, as GET /events/{id} renders it.
  for (const event of platformDeliveries) {
    const stored = await (await call("GET", `/events/${event.id}`)).text();
    const delivered = signedByPlatform.find((delivery) => delivery.body.includes(event.id))!;
    expect(delivered.body.toString("utf8")).toBe(stored);
  }
  const decision = platformDeliveries.find((event) => event.type === "decision.completed")!;
  expect(Object.keys(decision.data.object).sort()).toEqual(["application_id", "approved_amount_pence", "apr_bps", "id", "object", "outcome", "reference"]);

  expect((await cli.result).code).toBe(0);
  const forwardedLines = output().split("\n").filter((line) => line.includes("-->"));
  expect(forwardedLines.map((line) => /--> ([\w.]+)/.exec(line)![1])).toEqual(["application.created", "application.submitted", "decision.completed"]);
  for (const line of forwardedLines) expect(line).toMatch(/<-- 200$/);
  const forwarded = received.filter((delivery) => signedWith(delivery, forwarderSecret)).map((delivery) => delivery.body.toString("utf8"));
  // The forwarder carries the platform's bytes unchanged, re-signed with its own secret.
  expect(forwarded.sort()).toEqual(signedByPlatform.map((delivery) => delivery.body.toString("utf8")).sort());
});

