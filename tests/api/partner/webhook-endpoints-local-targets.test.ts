// What WEBHOOK_ALLOW_PRIVATE_TARGETS does, over HTTP (spec 4.6): sandbox endpoints may reach loopback and private
// addresses, over https, and nothing more. Plain http is refused in both environments, on registration and on update,
// and live endpoints keep every address rule. Both refusals name the forwarder command of the README, the way to
// receive sandbox events on a local http receiver. This file runs WITH the flag (webhook-endpoints-api.test.ts runs
// without it). The sandbox receiver serves https with a certificate this process trusts (tests/helpers/tls.ts).
import { once } from "node:events";
import { readFileSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { attemptDelivery } from "@/lib/webhooks/deliver";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { trustedTestCertificate } from "../../helpers/tls";

const FORWARDER_COMMAND = "npm run --silent cli -- listen --forward-to http://localhost:4242/webhooks";
const MUST_BE_HTTPS = `Webhook URLs must use https. For a receiver on your own machine, run the forwarder: ${FORWARDER_COMMAND}`;
const PRIVATE_ADDRESS = `The url resolves to a loopback, private, link-local or metadata address. For a receiver on your own machine, run the forwarder: ${FORWARDER_COMMAND}`;

let server: AppServer;
let receiver: https.Server;
let receiverPort: number;
const receivedPaths: string[] = [];
let project: ProjectCredentials;
let sandboxToken: string;
let liveToken: string;

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  server = await startAppServer();
  receiver = https.createServer(trustedTestCertificate(), (request, response) => {
    request.resume();
    request.on("end", () => {
      receivedPaths.push(request.url ?? "");
      response.writeHead(204).end();
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  receiverPort = (receiver.address() as AddressInfo).port;
  project = await createTestProject();
  sandboxToken = await mintToken(server.url, project);
  liveToken = await mintToken(server.url, project, { environment: "live" });
});
afterAll(async () => {
  await server?.close();
  receiver?.close();
});

function call(token: string, method: string, route: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}/partner/v1${route}`, bearer(token, body === undefined ? { method } : jsonRequest(method, body)));
}

const register = (token: string, url: string) => call(token, "POST", "/webhook_endpoints", { url, enabled_events: ["*"] });
const endpointsOf = (environment: "sandbox" | "live") => db().webhookEndpoint.findMany({ where: { projectId: project.project_id, environment } });

const environments = [
  ["sandbox", () => sandboxToken],
  ["live", () => liveToken],
] as const;

describe("configuration of this file", () => {
  it("runs with WEBHOOK_ALLOW_PRIVATE_TARGETS on", () => {
    expect(config().WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(true);
  });

  it("names the forwarder command exactly as the README and docs/webhooks.md give it", () => {
    const root = path.resolve(import.meta.dirname, "..", "..", "..");
    for (const document of ["README.md", "docs/webhooks.md"]) expect(readFileSync(path.join(root, document), "utf8")).toContain(FORWARDER_COMMAND);
  });
});

describe.each(environments)("plain http for a %s token", (environment, token) => {
  it.each([
    () => `http://127.0.0.1:${receiverPort}/hooks`,
    () => "http://localhost:4242/webhooks",
    () => "http://93.184.215.14/hooks",
  ])("is refused on registration with 422 validation_failed must_be_https, pointing to cli listen (%#)", async (url) => {
    const body = await expectApiError(await register(token(), url()), 422, "validation_failed");
    expect(body.error.message).toBe(MUST_BE_HTTPS);
    expect(body.error.detail).toEqual([{ field: "url", reason: "must_be_https", message: MUST_BE_HTTPS }]);
    expect(await endpointsOf(environment)).toEqual([]);
  });
});

describe("a sandbox endpoint", () => {
  it("may be registered at https://127.0.0.1 and https://localhost, and its events are delivered there", async () => {
    const loopback = await expectJson<{ id: string; url: string }>(await register(sandboxToken, `https://127.0.0.1:${receiverPort}/loopback`), 201);
    const localhost = await expectJson<{ id: string; url: string }>(await register(sandboxToken, `https://localhost:${receiverPort}/localhost`), 201);
    expect([loopback.url, localhost.url]).toEqual([`https://127.0.0.1:${receiverPort}/loopback`, `https://localhost:${receiverPort}/localhost`]);

    const created = await call(sandboxToken, "POST", "/applications", {
      business: { company_number: "12345678" },
      amount_pence: 2_500_000,
      term_months: 12,
      applicant: { email: "director@example.co.uk" },
    });
    await expectJson(created, 201);
    const deliveries = await db().webhookDelivery.findMany({
      where: { endpointId: { in: [loopback.id, localhost.id] }, event: { type: "application.created" } },
      orderBy: { endpointId: "asc" },
    });
    expect(deliveries).toHaveLength(2);
    for (const delivery of deliveries) expect(await attemptDelivery(delivery.id)).toBe("succeeded");
    expect(receivedPaths.sort()).toEqual(["/localhost", "/loopback"]);
    await Promise.all([loopback.id, localhost.id].map((id) => call(sandboxToken, "DELETE", `/webhook_endpoints/${id}`)));
  });

  it("cannot be moved to plain http by an update: 422 must_be_https, and its url stays as it was", async () => {
    const url = `https://127.0.0.1:${receiverPort}/kept`;
    const endpoint = await expectJson<{ id: string }>(await register(sandboxToken, url), 201);

    const response = await call(sandboxToken, "POST", `/webhook_endpoints/${endpoint.id}`, { url: `http://127.0.0.1:${receiverPort}/kept` });

    const body = await expectApiError(response, 422, "validation_failed");
    expect(body.error.detail).toEqual([{ field: "url", reason: "must_be_https", message: MUST_BE_HTTPS }]);
    expect((await expectJson<{ url: string }>(await call(sandboxToken, "GET", `/webhook_endpoints/${endpoint.id}`), 200)).url).toBe(url);
    await call(sandboxToken, "DELETE", `/webhook_endpoints/${endpoint.id}`);
  });
});

describe("a live endpoint, whatever the flag says", () => {
  it.each(["https://127.0.0.1/hooks", "https://localhost/hooks", "https://10.0.0.1/hooks", "https://[::1]/hooks", "https://169.254.169.254/latest"])(
    "is refused at %s with 422 webhook_endpoint_url_invalid private_address, pointing to cli listen",
    async (url) => {
      const body = await expectApiError(await register(liveToken, url), 422, "webhook_endpoint_url_invalid");
      expect(body.error.message).toBe(PRIVATE_ADDRESS);
      expect(body.error.detail).toEqual([{ field: "url", reason: "private_address", message: PRIVATE_ADDRESS }]);
      expect(await endpointsOf("live")).toEqual([]);
    },
  );

  it("cannot be moved to a loopback address by an update, nor to plain http", async () => {
    const publicUrl = "https://93.184.215.14/hooks";
    const endpoint = await expectJson<{ id: string }>(await register(liveToken, publicUrl), 201);

    const toLoopback = await expectApiError(await call(liveToken, "POST", `/webhook_endpoints/${endpoint.id}`, { url: `https://127.0.0.1:${receiverPort}/live` }), 422, "webhook_endpoint_url_invalid");
    expect(toLoopback.error.detail).toEqual([{ field: "url", reason: "private_address", message: PRIVATE_ADDRESS }]);
    const toHttp = await expectApiError(await call(liveToken, "POST", `/webhook_endpoints/${endpoint.id}`, { url: "http://93.184.215.14/hooks" }), 422, "validation_failed");
    expect(toHttp.error.detail).toEqual([{ field: "url", reason: "must_be_https", message: MUST_BE_HTTPS }]);
    expect((await endpointsOf("live")).map((row) => row.url)).toEqual([publicUrl]);
    await call(liveToken, "DELETE", `/webhook_endpoints/${endpoint.id}`);
  });
});
