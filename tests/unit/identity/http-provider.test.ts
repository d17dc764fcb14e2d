// The live identity provider adapter against a real HTTP server on 127.0.0.1 standing in for the provider: the
// request it sends (the contract in docs/identity.md), how it reads an answer, and every way an answer can be
// unusable, each of which is IdentityProviderUnavailableError (the check is retried, never decided).
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HttpIdentityProvider, PROVIDER_TIMEOUT_MS } from "@/lib/identity/http-provider";
import { IdentityProviderUnavailableError, type IdentityCheckRequest } from "@/lib/identity/provider";
import { freePort } from "../../helpers/free-port";

interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Answer = (request: Received, response: http.ServerResponse) => void;

const received: Received[] = [];
let answer: Answer = (_request, response) => response.end();
let server: http.Server;
let baseUrl: string;
const sockets = new Set<import("node:net").Socket>();

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const entry = { method: request.method!, path: request.url!, headers: request.headers, body };
      received.push(entry);
      answer(entry, response);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  received.length = 0;
  for (const socket of sockets) socket.destroy();
});
afterAll(async () => {
  await new Promise((resolve) => (server ? server?.close(resolve) : resolve(undefined)));
});

function json(status: number, body: unknown): Answer {
  return (_request, response) => {
    response.writeHead(status, { "Content-Type": "application/json" });
    response.end(typeof body === "string" ? body : JSON.stringify(body));
  };
}

const REQUEST: IdentityCheckRequest = {
  reference: "idv_01jzzzzzzzzzzzzzzzzzzzzzzz",
  companyNumber: "SC123456",
  people: [
    { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1985-12-10", role: "director" },
    { first_name: "Grace", last_name: "Hopper", date_of_birth: "1976-12-09", role: "psc" },
  ],
};

const provider = (options: { apiKey?: string; timeoutMs?: number; url?: string } = {}) =>
  new HttpIdentityProvider({ url: options.url ?? `${baseUrl}/v1/checks`, apiKey: options.apiKey, timeoutMs: options.timeoutMs });

async function unavailable(promise: Promise<unknown>): Promise<IdentityProviderUnavailableError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the provider to be unavailable");
    },
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(IdentityProviderUnavailableError);
  return error as IdentityProviderUnavailableError;
}

describe("the request", () => {
  it("POSTs the company and the people as JSON to the configured URL, with the check's id as Idempotency-Key and the key as a bearer token", async () => {
    answer = json(200, { id: "prov-981", people: [{ result: "verified" }, { result: "verified" }] });
    await provider({ apiKey: "idp_secret_1" }).check(REQUEST);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: "POST", path: "/v1/checks" });
    expect(request!.headers).toMatchObject({
      "content-type": "application/json",
      accept: "application/json",
      "idempotency-key": "idv_01jzzzzzzzzzzzzzzzzzzzzzzz",
      authorization: "Bearer idp_secret_1",
    });
    expect(JSON.parse(request!.body)).toEqual({
      reference: "idv_01jzzzzzzzzzzzzzzzzzzzzzzz",
      company_number: "SC123456",
      people: [
        { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1985-12-10", role: "director" },
        { first_name: "Grace", last_name: "Hopper", date_of_birth: "1976-12-09", role: "psc" },
      ],
    });
  });

  it("sends no Authorization header without a key", async () => {
    answer = json(200, { people: [{ result: "verified" }, { result: "verified" }] });
    await provider().check(REQUEST);
    expect(received[0]!.headers.authorization).toBeUndefined();
  });
});

describe("the answer", () => {
  it("gives each person's result in order, and the provider's id", async () => {
    answer = json(200, { id: "prov-982", people: [{ result: "verified" }, { result: "review_required", reason: "pep_match" }], extra: true });
    expect(await provider().check(REQUEST)).toEqual({ providerReference: "prov-982", results: ["verified", "review_required"] });
  });

  it("takes a failed person's result", async () => {
    answer = json(200, { people: [{ result: "failed", reason: "sanctions_match" }, { result: "verified" }] });
    expect(await provider().check(REQUEST)).toEqual({ providerReference: null, results: ["failed", "verified"] });
  });

  it("takes a 201 as well, and no id as none", async () => {
    answer = json(201, { people: [{ result: "review_required" }, { result: "verified" }] });
    expect(await provider().check(REQUEST)).toEqual({ providerReference: null, results: ["review_required", "verified"] });
  });
});

describe("an unusable answer", () => {
  it.each([
    [500, { error: "boom" }],
    [503, ""],
    [401, { error: "bad key" }],
    [422, { error: "invalid" }],
  ])("a %i is unavailable, with its status", async (status, body) => {
    answer = json(status, body);
    const error = await unavailable(provider().check(REQUEST));
    expect(error.status).toBe(status);
    expect(error.message).toBe(`The identity provider answered ${status}`);
  });

  it("a body that is not JSON is unavailable", async () => {
    answer = json(200, "<html>maintenance</html>");
    expect((await unavailable(provider().check(REQUEST))).message).toBe("The identity provider answered with a body that is not JSON");
  });

  it.each([
    ["no people", { id: "x" }],
    ["an unknown result", { people: [{ result: "verified" }, { result: "maybe" }] }],
    ["a person without a result", { people: [{ result: "verified" }, {}] }],
    ["an id that is not a string", { id: 7, people: [{ result: "verified" }, { result: "verified" }] }],
  ])("an answer with %s is unavailable", async (_what, body) => {
    answer = json(200, body);
    expect((await unavailable(provider().check(REQUEST))).message).toBe("The identity provider's answer is not in the contract's shape");
  });

  it("an answer for a different number of people is unavailable", async () => {
    answer = json(200, { people: [{ result: "verified" }] });
    expect((await unavailable(provider().check(REQUEST))).message).toBe("The identity provider answered for 1 people; 2 were sent");
  });

  it("a redirect is not followed", async () => {
    answer = (_request, response) => {
      response.writeHead(307, { Location: `${baseUrl}/elsewhere` });
      response.end();
    };
    await unavailable(provider().check(REQUEST));
    expect(received.map((request) => request.path)).toEqual(["/v1/checks"]);
  });

  it("a provider that does not answer in time is unavailable", async () => {
    answer = () => undefined;
    const started = performance.now();
    const error = await unavailable(provider({ timeoutMs: 200 }).check(REQUEST));
    expect(error.message).toBe("The identity provider could not be reached, or did not answer in time");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("a provider nobody listens for is unavailable", async () => {
    const url = `http://127.0.0.1:${await freePort()}/v1/checks`;
    expect((await unavailable(provider({ url }).check(REQUEST))).message).toBe("The identity provider could not be reached, or did not answer in time");
  });

  it("waits at most 4 seconds by default: inside the 5 seconds of the request's transaction", () => {
    expect(PROVIDER_TIMEOUT_MS).toBe(4_000);
  });
});
