// A real HTTP server on 127.0.0.1 that serves the app's route handlers in the test process, routed by the
// same file-system conventions as Next.js (static beats [param] beats [...catchAll] beats [[...optional]]).
// Tests therefore speak HTTP to the real handlers while controlling the clock and database directly.
// The Playwright suite covers the same routes behind a real `next start`.
import { once } from "node:events";
import { readdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { expect } from "vitest";
import { listenForCommits } from "@/lib/background/start";
import { isSignInProviderRequest } from "@/lib/oidc/mount-path";
import { stampPeerAddress } from "@/lib/wire/client-address";
import type { RouteHandlers } from "@/lib/http/route";

const APP_DIR = path.resolve(import.meta.dirname, "..", "..", "app");

type Segment =
  | { kind: "static"; value: string }
  | { kind: "param"; name: string }
  | { kind: "catchAll"; name: string; optional: boolean };

interface RouteEntry {
  pattern: string;
  segments: Segment[];
  load: () => Promise<RouteHandlers>;
}

function parseSegment(segment: string): Segment {
  const optional = /^\[\[\.\.\.(\w+)\]\]$/.exec(segment);
  if (optional) return { kind: "catchAll", name: optional[1]!, optional: true };
  const catchAll = /^\[\.\.\.(\w+)\]$/.exec(segment);
  if (catchAll) return { kind: "catchAll", name: catchAll[1]!, optional: false };
  const param = /^\[(\w+)\]$/.exec(segment);
  if (param) return { kind: "param", name: param[1]! };
  return { kind: "static", value: segment };
}

function discoverRoutes(directory: string, prefix: string[] = []): RouteEntry[] {
  const entries: RouteEntry[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      // Route groups `(name)` do not appear in the URL.
      const next = /^\(.*\)$/.test(entry.name) ? prefix : [...prefix, entry.name];
      entries.push(...discoverRoutes(full, next));
    } else if (entry.name === "route.ts") {
      entries.push({
        pattern: `/${prefix.join("/")}`,
        segments: prefix.map(parseSegment),
        load: () => import(/* @vite-ignore */ full) as Promise<RouteHandlers>,
      });
    }
  }
  return entries;
}

const RANK = { static: 0, param: 1, catchAll: 2 } as const;

function specificity(a: RouteEntry, b: RouteEntry): number {
  const length = Math.max(a.segments.length, b.segments.length);
  for (let index = 0; index < length; index += 1) {
    const left = a.segments[index];
    const right = b.segments[index];
    if (!left || !right) return left ? -1 : 1;
    const leftRank = RANK[left.kind] + (left.kind === "catchAll" && left.optional ? 1 : 0);
    const rightRank = RANK[right.kind] + (right.kind === "catchAll" && right.optional ? 1 : 0);
    if (leftRank !== rightRank) return leftRank - rightRank;
  }
  return 0;
}

function match(route: RouteEntry, parts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (let index = 0; index < route.segments.length; index += 1) {
    const segment = route.segments[index]!;
    const part = parts[index];
    if (segment.kind === "catchAll") {
      const rest = parts.slice(index);
      if (rest.length === 0 && !segment.optional) return null;
      if (rest.length > 0) params[segment.name] = rest;
      return params;
    }
    if (part === undefined) return null;
    if (segment.kind === "static" && segment.value !== part) return null;
    if (segment.kind === "param") params[segment.name] = part;
  }
  return parts.length === route.segments.length ? params : null;
}

export interface AppServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the server. `extraRoutes` mounts test-only routes (pattern → handlers) ahead of the app's; `port` (a free
 * one when absent) lets a test restart a server where its clients expect it.
 */
export async function startAppServer(extraRoutes: Record<string, RouteHandlers> = {}, options: { port?: number } = {}): Promise<AppServer> {
  // As instrumentation.ts does for the real server, without its sweeps: a submission decides as its commit lands.
  listenForCommits();
  const extras: RouteEntry[] = Object.entries(extraRoutes).map(([pattern, handlers]) => ({
    pattern,
    segments: pattern.split("/").filter(Boolean).map(parseSegment),
    load: async () => handlers,
  }));
  const routes = [...extras, ...discoverRoutes(APP_DIR).sort(specificity)];

  const server = http.createServer(async (incoming, outgoing) => {
    // As scripts/http-server.ts does: the sign-in provider's requests go to it, not to the route handlers.
    if (isSignInProviderRequest(incoming.method ?? "GET", incoming.url ?? "/")) {
      stampPeerAddress(incoming);
      const { handleSignInProviderRequest } = await import("@/lib/oidc/mount");
      await handleSignInProviderRequest(incoming, outgoing);
      return;
    }
    try {
      const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "127.0.0.1"}`);
      const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
      let found: { route: RouteEntry; params: Record<string, string | string[]> } | null = null;
      for (const route of routes) {
        const params = match(route, parts);
        if (params) {
          found = { route, params };
          break;
        }
      }
      if (!found) {
        outgoing.writeHead(404, { "content-type": "text/plain" }).end("page not found");
        return;
      }
      const handlers = await found.route.load();
      const method = (incoming.method ?? "GET") as keyof RouteHandlers;
      const handler = handlers[method];
      if (!handler) {
        outgoing.writeHead(405).end();
        return;
      }
      // As scripts/serve.ts does for the real server: the socket peer, never a client-supplied address.
      stampPeerAddress(incoming);
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (Array.isArray(value)) value.forEach((item) => headers.append(name, item));
        else if (value !== undefined) headers.set(name, value);
      }
      const hasBody = method !== "GET" && method !== "HEAD";
      const request = new Request(url, {
        method,
        headers,
        body: hasBody ? (Readable.toWeb(incoming) as ReadableStream) : undefined,
        duplex: "half",
      } as RequestInit);
      const response = await handler(request, { params: Promise.resolve(found.params) });
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => (responseHeaders[name] = value));
      outgoing.writeHead(response.status, responseHeaders);
      if (!response.body) {
        outgoing.end();
        return;
      }
      // Streamed, not buffered, so server-sent events reach the client as they are written.
      const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
      outgoing.on("close", () => body.destroy());
      body.on("error", () => outgoing.destroy());
      body.pipe(outgoing);
    } catch (error) {
      outgoing.writeHead(599, { "content-type": "text/plain" }).end(`test server failure: ${String(error)}`);
    }
  });
  server.listen(options.port ?? 0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** GET /healthz/internal's `process`: this process's own figures vary from read to read; their shape does not. */
export const PROCESS_STATS_SHAPE = {
  rss_mb: expect.any(Number),
  heap_used_mb: expect.any(Number),
  event_loop_delay_ms: { p50: expect.any(Number), p99: expect.any(Number), max: expect.any(Number) },
};
