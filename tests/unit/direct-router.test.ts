// The router that serves route handlers from node:http (lib/http/direct-router.ts): in production for the API
// rings, and in the test harness for every route. Next's file-system order, and what Next did around a handler.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findRoute, requestUrl, routeAt, routeOfFile, routeTable, serveRoute, type RouteModule } from "@/lib/http/direct-router";
import { jsonResponse } from "@/lib/wire/whole-body";
import { varyOnAcceptEncoding } from "../../scripts/direct-routes";

const files = ["(site)/apply/start", "partner/v1/[[...path]]", "partner/v1/keys", "partner/v1/keys/[id]", "partner/v1/keys/[id]/roll", "docs/[...slug]", "docs/a/b"];
const table = routeTable(files.map((file) => routeOfFile({ directories: file.split("/"), load: async () => file })));

describe("finding a route", () => {
  it("prefers static to [param] to [...catchAll] to [[...optional]], and leaves route groups out of the URL", () => {
    expect(findRoute(table, "/partner/v1/keys")?.route.pattern).toBe("/partner/v1/keys");
    expect(findRoute(table, "/partner/v1/keys/key_1")).toMatchObject({ route: { pattern: "/partner/v1/keys/[id]" }, params: { id: "key_1" } });
    expect(findRoute(table, "/partner/v1/keys/key_1/roll")?.route.pattern).toBe("/partner/v1/keys/[id]/roll");
    expect(findRoute(table, "/partner/v1/keys/key_1/polish")).toMatchObject({ route: { pattern: "/partner/v1/[[...path]]" }, params: { path: ["keys", "key_1", "polish"] } });
    expect(findRoute(table, "/partner/v1")).toMatchObject({ route: { pattern: "/partner/v1/[[...path]]" }, params: {} });
    expect(findRoute(table, "/apply/start")?.route.pattern).toBe("/apply/start");
    expect(findRoute(table, "/docs")).toBeNull();
    expect(findRoute(table, "/docs/a%2Fb")).toMatchObject({ params: { slug: ["a/b"] } });
    expect(findRoute(table, "/partner/v1/keys/%E0%A4%A")).toBeNull();
  });

  it("finds a static route by its path, unless a path escaping a slash only looks like it, or a route put first matches", () => {
    expect(findRoute(table, "/docs/a/b")).toMatchObject({ route: { pattern: "/docs/a/b" }, params: {} });
    expect(findRoute(table, "/docs/a%2Fb")).toMatchObject({ route: { pattern: "/docs/[...slug]" }, params: { slug: ["a/b"] } });
    const withFirst = routeTable(files.map((file) => routeOfFile({ directories: file.split("/"), load: async () => file })), [routeAt("/partner/[...rest]", async () => "first")]);
    expect(findRoute(withFirst, "/partner/v1/keys")).toMatchObject({ route: { pattern: "/partner/[...rest]" }, params: { rest: ["v1", "keys"] } });
    expect(findRoute(withFirst, "/apply/start")?.route.pattern).toBe("/apply/start");
  });
});

describe("serving a route file's handlers", () => {
  let server: http.Server;
  let base: string;
  let handlers: RouteModule;
  let aborted: Promise<void>;
  let markAborted: () => void;

  beforeAll(async () => {
    server = http.createServer((incoming, outgoing) => void serveRoute(handlers, { id: "x" }, incoming, outgoing, requestUrl(incoming)!));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("aborts the request's signal when the client leaves a streamed reply, and cancels the stream", async () => {
    let cancelled = false;
    aborted = new Promise((resolve) => (markAborted = resolve));
    handlers = {
      GET: async (request) => {
        request.signal.addEventListener("abort", () => markAborted());
        const body = new ReadableStream<Uint8Array>({
          start: (controller) => controller.enqueue(new TextEncoder().encode("event: ready\n\n")),
          cancel: () => void (cancelled = true),
        });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      },
    };
    const client = http.get(`${base}/stream`);
    const [response] = (await once(client, "response")) as [http.IncomingMessage];
    const [first] = (await once(response, "data")) as [Buffer];
    expect(first.toString()).toBe("event: ready\n\n");
    client.destroy();
    await aborted;
    expect(cancelled).toBe(true);
  });

  it("answers as Next does around the handlers: HEAD from GET, 405 for a method the file lacks, 400 for one Next does not know", async () => {
    handlers = {
      GET: async (_request, context) => Response.json({ id: (await context.params).id }, { headers: { "x-kind": "get" } }),
    };
    const head = await fetch(`${base}/x`, { method: "HEAD" });
    expect([head.status, head.headers.get("x-kind"), await head.text()]).toEqual([200, "get", ""]);
    expect(await (await fetch(`${base}/x`)).json()).toEqual({ id: "x" });
    const post = await fetch(`${base}/x`, { method: "POST", body: "{}" });
    expect([post.status, await post.text()]).toEqual([405, ""]);
    const unknown = await fetch(`${base}/x`, { method: "PROPFIND" });
    expect(unknown.status).toBe(400);
  });

  it("keeps every Set-Cookie, passes the body through, and answers a handler that throws with a bare 500", async () => {
    handlers = {
      POST: async (request) => {
        const headers = new Headers({ "content-type": "text/plain" });
        headers.append("set-cookie", "a=1; Path=/");
        headers.append("set-cookie", "b=2; Path=/");
        return new Response(`got ${await request.text()}`, { status: 201, headers });
      },
      DELETE: async () => {
        throw new Error("the handler failed");
      },
    };
    const created = await fetch(`${base}/x`, { method: "POST", body: "hello" });
    expect([created.status, created.headers.getSetCookie(), await created.text()]).toEqual([201, ["a=1; Path=/", "b=2; Path=/"], "got hello"]);
    const failed = await fetch(`${base}/x`, { method: "DELETE" });
    expect([failed.status, await failed.text()]).toEqual([500, ""]);
  });

  it("writes a body made whole in one piece with its length, and any other body chunked as it streams", async () => {
    const replies = {
      whole: () => jsonResponse({ café: "£1" }, { status: 201, headers: { "x-kind": "whole" } }),
      streamed: () => new Response(JSON.stringify({ café: "£1" }), { status: 201, headers: { "content-type": "application/json", "x-kind": "streamed" } }),
    };
    handlers = { GET: async (request) => replies[new URL(request.url).searchParams.get("kind") as keyof typeof replies]() };
    const framing = async (kind: string) => {
      const [response] = (await once(http.get(`${base}/x?kind=${kind}`), "response")) as [http.IncomingMessage];
      let body = "";
      for await (const chunk of response) body += chunk;
      const { "content-length": length, "transfer-encoding": encoding, "content-type": type, "x-kind": marker } = response.headers;
      return { status: response.statusCode, length, encoding, type, marker, body };
    };
    const body = JSON.stringify({ café: "£1" });
    expect(await framing("whole")).toEqual({ status: 201, length: String(Buffer.byteLength(body)), encoding: undefined, type: "application/json", marker: "whole", body });
    expect(await framing("streamed")).toEqual({ status: 201, length: undefined, encoding: "chunked", type: "application/json", marker: "streamed", body });
  });
});

describe("the reply to a client that names no encoding", () => {
  /** A reply's headers as `varyOnAcceptEncoding` leaves them. */
  function varied(headers: Record<string, string>): string | undefined {
    const response = new http.ServerResponse(new http.IncomingMessage(null as never));
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    varyOnAcceptEncoding(response);
    return response.getHeader("vary") as string | undefined;
  }

  it("names Accept-Encoding in Vary for a compressible reply, as the compression middleware does, once", () => {
    expect(varied({ "content-type": "application/json; charset=utf-8" })).toBe("Accept-Encoding");
    expect(varied({ "content-type": "application/problem+json", vary: "Origin" })).toBe("Origin, Accept-Encoding");
    expect(varied({ "content-type": "text/event-stream; charset=utf-8" })).toBe("Accept-Encoding");
    expect(varied({ "content-type": "text/plain", vary: "Origin, accept-encoding" })).toBe("Origin, accept-encoding");
  });

  it("leaves Vary alone for a reply that is not compressible, says no-transform, or varies on everything", () => {
    expect(varied({ "content-type": "image/png" })).toBeUndefined();
    expect(varied({})).toBeUndefined();
    expect(varied({ "content-type": "application/json", "cache-control": "no-store, no-transform" })).toBeUndefined();
    expect(varied({ "content-type": "application/json", vary: "*" })).toBe("*");
  });
});
