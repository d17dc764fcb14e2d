// The route builder's routes answer the same whether our server serves them from the build directly (as `npm start`
// does) or Next routes them (SERVE_API_THROUGH_NEXT, the second server of playwright.config.ts, on the same build and
// database). Every endpoint of the OpenAPI documents (generated from the route registry) is asked the same requests
// on both: without a credential, with a bad and an unknown id, with a bad body, and, for a GET that needs no id, as
// a caller it answers; then the paths around the endpoints: unknown paths, a wrong or unknown method, HEAD,
// preflights, a trailing slash. Status, headers and bodies must match, the values that differ per request aside.
import http from "node:http";
import path from "node:path";
import { expect, request as requestContext, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { proxyMatchers } from "../../scripts/direct-routes";
import { createProjectWithCli, sandboxHeaders } from "./cli-project";

const BUILD_SERVER = path.resolve(import.meta.dirname, "..", "..", ".next", "server");
/**
 * Per-request values: the date, ids, the rate-limit window's position, connection handling; and the body's framing,
 * the same bytes either way: served directly to a client that names no encoding, a body made whole goes with its
 * Content-Length, where Next sends every body chunked.
 */
const VOLATILE_HEADERS = new Set(["date", "x-request-id", "x-service-correlation-id", "ratelimit-remaining", "ratelimit-reset", "retry-after", "content-length", "transfer-encoding", "connection", "keep-alive"]);
const ID = /\b(req|cor)_[0-9a-z]{26}\b/g;
const TIMESTAMP = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g;
/** The health check's measured database round trip. */
const LATENCY = /"latencyMs":[\d.]+/g;
/** Enough below the sandbox's burst of 50 that no project's bucket runs dry on either server. */
const REQUESTS_PER_PROJECT = 40;
const BODY_METHODS = new Set(["post", "put", "patch"]);

type Ring = "partner" | "public" | "site";
const RING_BASES: Record<Ring, string> = { partner: "/partner/v1", public: "/public/v1", site: "" };

interface Operation {
  ring: Ring;
  method: string;
  path: string;
  hasBody: boolean;
  streams: boolean;
  idPrefixes: string[];
}

interface Exchange {
  name: string;
  method: string;
  path: string;
  credential?: boolean;
  headers?: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let throughNext: APIRequestContext;
const origins: string[] = [];

test.beforeAll(async ({ playwright }, info) => {
  const direct = new URL(info.project.use.baseURL!);
  const next = new URL(direct);
  next.port = String(Number(direct.port) + 1);
  origins.push(direct.origin, next.origin);
  throughNext = await playwright.request.newContext({ baseURL: next.origin });
});

test.afterAll(async () => {
  await throughNext.dispose();
});

async function operations(request: APIRequestContext): Promise<Operation[]> {
  const proxied = proxyMatchers(BUILD_SERVER);
  const found: Operation[] = [];
  for (const ring of Object.keys(RING_BASES) as Ring[]) {
    const document = await (await request.get(`/openapi/${ring}.json`)).json();
    for (const [pattern, item] of Object.entries<Record<string, { requestBody?: unknown; parameters?: { in: string; schema?: { pattern?: string } }[]; responses?: Record<string, { content?: Record<string, unknown> }> }>>(document.paths)) {
      const fullPath = `${RING_BASES[ring]}${pattern}`;
      // Pages' neighbours the proxy runs for go through Next on both servers alike.
      if (proxied.some((matcher) => matcher.test(fullPath.replace(/\{\w+\}/g, "x")))) continue;
      for (const [method, operation] of Object.entries(item)) {
        if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
        const idPrefixes = (operation.parameters ?? []).filter((parameter) => parameter.in === "path").map((parameter) => /^\^(\w+_)/.exec(parameter.schema?.pattern ?? "")?.[1] ?? "");
        const streams = Object.values(operation.responses ?? {}).some((response) => Object.keys(response.content ?? {}).includes("text/event-stream"));
        found.push({ ring, method: method.toUpperCase(), path: fullPath, hasBody: BODY_METHODS.has(method) && operation.requestBody !== undefined, streams, idPrefixes });
      }
    }
  }
  return found;
}

/** Each param replaced by `ids` in turn: a malformed id, or one of the right shape that names nothing. */
function withIds(pattern: string, ids: string[]): string {
  let index = 0;
  return pattern.replace(/\{\w+\}/g, () => ids[index++] ?? "nope");
}

function exchangesOf(operation: Operation): Exchange[] {
  const { method, path: pattern, ring } = operation;
  const hasParams = pattern.includes("{");
  const json = { "content-type": "application/json" };
  const emptyBody = BODY_METHODS.has(method.toLowerCase()) ? { headers: json, body: "{}" } : {};
  const exchanges: Exchange[] = [{ name: "no credential", method, path: withIds(pattern, []), ...emptyBody }];
  const credential = ring === "partner";
  if (hasParams) {
    exchanges.push({ name: "bad id", method, path: withIds(pattern, []), credential, ...emptyBody });
    const unknownIds = operation.idPrefixes.map((prefix) => (prefix ? `${prefix}${"0".repeat(26)}` : "unknown"));
    exchanges.push({ name: "unknown id", method, path: withIds(pattern, unknownIds), credential, ...emptyBody });
  }
  if (operation.hasBody) {
    exchanges.push({ name: "bad body", method, path: withIds(pattern, []), credential, headers: json, body: '{"unexpected": true}' });
    exchanges.push({ name: "malformed body", method, path: withIds(pattern, []), credential, headers: json, body: "{" });
  }
  if (method === "GET" && !hasParams && !operation.streams) exchanges.push({ name: "good", method, path: pattern, credential });
  return exchanges;
}

/** The answers' values that differ per request or per server, made alike. */
function comparable(response: APIResponse, body: string): Answer {
  const normalise = (text: string) => origins.reduce((value, origin) => value.replaceAll(origin, "<origin>"), text).replace(ID, "$1_<id>").replace(TIMESTAMP, "<time>").replace(LATENCY, '"latencyMs":0');
  const headers = Object.fromEntries(
    response
      .headersArray()
      .filter(({ name }) => !VOLATILE_HEADERS.has(name.toLowerCase()))
      // An ETag is of the body before its origin is made alike (apply.js names its server): only its presence counts.
      .map(({ name, value }) => [name.toLowerCase(), name.toLowerCase() === "etag" ? "<etag>" : normalise(value)] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  return { status: response.status(), headers, body: normalise(body) };
}

async function answer(context: APIRequestContext, exchange: Exchange, headers: Record<string, string>): Promise<Answer> {
  const response = await context.fetch(exchange.path, { method: exchange.method, headers, data: exchange.body, maxRedirects: 0, failOnStatusCode: false });
  return comparable(response, (await response.body()).toString("utf8"));
}

/** A project's access token from each server, each minted where it is used (both servers share one public address). */
interface Credentials {
  direct: Record<string, string>;
  next: Record<string, string>;
}

/** The same request to both servers, from an address of its own (each server keeps its own per-address buckets). */
async function compare(request: APIRequestContext, exchange: Exchange, credentials: Credentials | null, address: number): Promise<void> {
  const headers = { ...exchange.headers, "x-forwarded-for": `10.77.${address >> 8}.${address & 255}` };
  const credential = (server: keyof Credentials) => (exchange.credential && credentials ? credentials[server] : {});
  const [direct, next] = await Promise.all([answer(request, exchange, { ...headers, ...credential("direct") }), answer(throughNext, exchange, { ...headers, ...credential("next") })]);
  expect.soft(direct, `${exchange.name}: ${exchange.method} ${exchange.path}`).toEqual(next);
}

test("every endpoint answers the same served directly as through Next", async ({ request }) => {
  test.setTimeout(240_000);
  const exchanges = (await operations(request)).flatMap(exchangesOf);
  expect(exchanges.length).toBeGreaterThan(150);
  expect(exchanges.filter(({ name }) => name === "good").length).toBeGreaterThan(10);
  const credentialed = exchanges.filter(({ credential }) => credential).length;
  const credentials: Credentials[] = [];
  for (let index = 0; index < Math.ceil(credentialed / REQUESTS_PER_PROJECT); index += 1) {
    const project = await createProjectWithCli(`Parity ${index + 1}`);
    credentials.push({ direct: await sandboxHeaders(request, project), next: await sandboxHeaders(throughNext, project) });
  }
  let spent = 0;
  for (const [index, exchange] of exchanges.entries()) {
    const project = credentials[Math.floor(spent / REQUESTS_PER_PROJECT)] ?? null;
    if (exchange.credential) spent += 1;
    await compare(request, exchange, project, index + 1);
  }
});

test("the paths around the endpoints answer the same served directly as through Next", async ({ request }) => {
  const origin = { origin: "https://partner.example" };
  const exchanges: Exchange[] = [
    { name: "unknown partner path", method: "POST", path: "/partner/v1/widgets/wid_1/polish", headers: { "content-type": "application/json" }, body: "{}" },
    { name: "unknown public path", method: "GET", path: "/public/v1/nothing/here" },
    { name: "ring root", method: "GET", path: "/partner/v1" },
    { name: "wrong method", method: "DELETE", path: "/public/v1/healthz" },
    { name: "unknown method", method: "PROPFIND", path: "/healthz" },
    { name: "HEAD of a GET", method: "HEAD", path: "/public/v1/products" },
    { name: "HEAD of a site route", method: "HEAD", path: "/healthz" },
    { name: "preflight", method: "OPTIONS", path: "/public/v1/enquiries", headers: { ...origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" } },
    { name: "cross-origin GET", method: "GET", path: "/public/v1/products", headers: origin },
    { name: "trailing slash", method: "GET", path: "/healthz/" },
    { name: "escaped id", method: "GET", path: "/partner/v1/applications/app_%2F..%2Fx" },
    { name: "bad escape", method: "GET", path: "/partner/v1/applications/%E0%A4%A" },
    { name: "uncompressed", method: "GET", path: "/public/v1/products", headers: { "accept-encoding": "identity" } },
    { name: "OAuth metadata", method: "GET", path: "/.well-known/oauth-authorization-server" },
    { name: "MCP probe", method: "GET", path: "/mcp" },
    { name: "MCP stream refused", method: "GET", path: "/partner/v1/mcp", headers: { accept: "text/event-stream" } },
    { name: "Inngest, not configured", method: "GET", path: "/api/inngest" },
  ];
  for (const [index, exchange] of exchanges.entries()) await compare(request, exchange, null, 60_000 + index);
});

/** A GET sent with node:http, which names no Accept-Encoding (Playwright's requests always name some). */
function getWithoutEncodings(origin: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${origin}${path}`, { headers }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => {
          const kept = Object.entries(response.headers).filter(([name]) => !VOLATILE_HEADERS.has(name));
          resolve({ status: response.statusCode!, headers: Object.fromEntries(kept.map(([name, value]) => [name, String(value)])), body: body.replace(ID, "$1_<id>").replace(TIMESTAMP, "<time>") });
        });
      })
      .on("error", reject);
  });
}

test("a client that names no encoding gets the same reply, its Vary naming Accept-Encoding, served either way", async () => {
  const paths: { path: string; headers: Record<string, string> }[] = [
    { path: "/public/v1/products", headers: {} },
    { path: "/public/v1/products", headers: { origin: "https://partner.example" } },
    { path: "/healthz", headers: {} },
    { path: "/public/v1/nothing/here", headers: {} },
    { path: "/partner/v1/applications", headers: {} },
  ];
  for (const [index, { path: asked, headers }] of paths.entries()) {
    const sent = { ...headers, "x-forwarded-for": `10.78.0.${index + 1}` };
    const [direct, next] = await Promise.all(origins.map((origin) => getWithoutEncodings(origin, asked, sent)));
    expect(direct!.headers.vary, asked).toContain("Accept-Encoding");
    expect(direct!.headers["content-encoding"], asked).toBeUndefined();
    expect(direct, asked).toEqual(next);
  }
});

test("an event stream the client leaves gives its concurrent request slot back, served either way", async ({ request }) => {
  const project = await createProjectWithCli("Parity streams");
  // More streams, one after another, than a project's 10 concurrent slots: a stream whose handler never heard
  // the client go would keep its slot, and the eleventh would be refused.
  for (const [origin, context] of [[origins[0]!, request], [origins[1]!, throughNext]] as const) {
    const { authorization } = await sandboxHeaders(context, project);
    for (let index = 0; index < 12; index += 1) {
      const controller = new AbortController();
      const response = await fetch(`${origin}/partner/v1/events/stream`, { headers: { authorization }, signal: controller.signal });
      expect([response.status, response.headers.get("content-type")], `${origin}, stream ${index + 1}`).toEqual([200, "text/event-stream; charset=utf-8"]);
      const first = await response.body!.getReader().read();
      expect(first.done).toBe(false);
      controller.abort();
    }
  }
});
