// "Quote the correlation id to support" (docs/api-conventions.md) holds for every error: the one log line per
// request carries the correlation id the client was given and the error code, whatever produced the error (a
// guard, validation, the OAuth form, the catch-all route, the rate limiter, a fault); a success's line carries
// its request id and neither.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { defineRoute, endpoint } from "@/lib/http/route";
import type { LogEntry } from "@/lib/log";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { jsonRequest } from "../../helpers/http";
import { captureLogs } from "../../helpers/logs";
import { basicAuthorization, bearer, createTestProject, mintToken } from "../../helpers/partner";

const failingRoute = defineRoute("site", "/_probe/fault", {
  GET: endpoint({
    auth: { kind: "none" },
    handler: () => {
      throw new Error("the ledger is on fire");
    },
  }),
});

let server: AppServer;
let project: ProjectCredentials;
let token: string;

beforeAll(async () => {
  server = await startAppServer({ "/partner/v1/_probe/fault": failingRoute });
  project = await createTestProject();
  token = await mintToken(server.url, project);
});
afterAll(() => server?.close());

/** The response to `request` and the one request line logged for it. */
async function loggedRequest(request: () => Promise<Response>): Promise<{ response: Response; text: string; line: LogEntry }> {
  const { result, entries } = await captureLogs(async () => {
    const response = await request();
    return { response, text: await response.text() };
  });
  const lines = entries.filter((entry) => entry.msg === "request");
  expect(lines).toHaveLength(1);
  expect(lines[0]!.request_id).toBe(result.response.headers.get("x-request-id"));
  return { ...result, line: lines[0]! };
}

/** Asserts the line names the correlation id of the response (header, and envelope when there is one) and the code. */
function expectErrorLine(response: Response, text: string, line: LogEntry, status: number, code: string): void {
  expect(response.status).toBe(status);
  const correlationId = response.headers.get("x-service-correlation-id");
  expect(correlationId).toMatch(/^cor_[0-9a-z]{26}$/);
  const body = JSON.parse(text);
  if (typeof body.error === "object") expect(body.error).toMatchObject({ code, correlation_id: correlationId });
  else expect(body.error).toBe(code);
  expect(line).toMatchObject({ status, correlation_id: correlationId, error_code: code });
}

describe("the request log line", () => {
  it("carries the request id and no correlation id or error code on a success", async () => {
    const { response, line } = await loggedRequest(() => fetch(`${server.url}/partner/v1/applications`, bearer(token)));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-service-correlation-id")).toBeNull();
    expect(line).toMatchObject({ method: "GET", path: "/partner/v1/applications", status: 200, project_id: project.project_id });
    expect(line).not.toHaveProperty("correlation_id");
    expect(line).not.toHaveProperty("error_code");
  });

  it("carries the correlation id and code of a validation failure", async () => {
    const { response, text, line } = await loggedRequest(() =>
      fetch(`${server.url}/partner/v1/applications`, bearer(token, jsonRequest("POST", { amount_pence: "lots" }))),
    );
    expectErrorLine(response, text, line, 422, "validation_failed");
  });

  it("carries the original correlation id for a replayed error, the one its body repeats", async () => {
    const owner = await mintToken(server.url, await createTestProject());
    const keys = await (await fetch(`${server.url}/partner/v1/keys?type=secret`, bearer(owner))).json();
    const roll = (key: string) => () => fetch(`${server.url}/partner/v1/keys/${keys.data[0].id}/roll`, bearer(owner, jsonRequest("POST", {}, { "idempotency-key": key })));
    expect((await roll("roll-first")()).status).toBe(201);
    const refused = await loggedRequest(roll("roll-again"));
    expectErrorLine(refused.response, refused.text, refused.line, 409, "conflict");
    const replay = await loggedRequest(roll("roll-again"));
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expectErrorLine(replay.response, replay.text, replay.line, 409, "conflict");
    expect(replay.line.correlation_id).toBe(refused.line.correlation_id);
    expect(replay.line.request_id).not.toBe(refused.line.request_id);
  });

  it("carries them for a secret key sent as the bearer token", async () => {
    const { response, text, line } = await loggedRequest(() => fetch(`${server.url}/partner/v1/applications`, bearer(project.sandbox.secret_key)));
    expectErrorLine(response, text, line, 401, "unauthenticated");
  });

  it("carries them for a path no endpoint matches", async () => {
    const { response, text, line } = await loggedRequest(() => fetch(`${server.url}/partner/v1/nothing-here`));
    expectErrorLine(response, text, line, 404, "route_not_found");
  });

  it("carries them for a method the path does not allow", async () => {
    const { response, text, line } = await loggedRequest(() => fetch(`${server.url}/partner/v1/applications`, { method: "PUT" }));
    expectErrorLine(response, text, line, 405, "method_not_allowed");
  });

  it("carries them for an OAuth error, whose body has no correlation id but whose header does", async () => {
    const { response, text, line } = await loggedRequest(() =>
      fetch(`${server.url}/partner/v1/oauth/token`, {
        method: "POST",
        headers: { authorization: basicAuthorization(project.client_id, "sk_sandbox_wrong"), "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials",
      }),
    );
    expectErrorLine(response, text, line, 401, "invalid_client");
  });

  it("carries them for an OAuth form the endpoint cannot read, under the code the client was told", async () => {
    const { response, text, line } = await loggedRequest(() =>
      fetch(`${server.url}/partner/v1/oauth/token`, {
        method: "POST",
        headers: { authorization: basicAuthorization(project.client_id, project.sandbox.secret_key), "content-type": "application/x-www-form-urlencoded" },
        body: "scope=applications:read",
      }),
    );
    expectErrorLine(response, text, line, 400, "invalid_request");
  });

  it("carries them for a rate-limited request", async () => {
    freezeClock("2027-03-01T10:00:00.000Z");
    for (let index = 0; index < 60; index += 1) await (await fetch(`${server.url}/public/v1/nothing-here`)).arrayBuffer();
    const { response, text, line } = await loggedRequest(() => fetch(`${server.url}/public/v1/nothing-here`));
    expectErrorLine(response, text, line, 429, "rate_limited");
  });

  it("carries them for a fault, and the line with the cause carries the same id", async () => {
    const { result, entries } = await captureLogs(async () => {
      const response = await fetch(`${server.url}/partner/v1/_probe/fault`);
      return { response, text: await response.text() };
    });
    const line = entries.find((entry) => entry.msg === "request")!;
    expect(line.request_id).toBe(result.response.headers.get("x-request-id"));
    expectErrorLine(result.response, result.text, line, 500, "internal_error");
    expect(entries.find((entry) => entry.msg === "unhandled error")).toMatchObject({ level: "error", correlation_id: line.correlation_id, error: "the ledger is on fire" });
  });
});
