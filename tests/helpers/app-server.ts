// A real HTTP server on 127.0.0.1 that serves the app's route handlers in the test process, from source, through
// the same router that serves the API rings in production (lib/http/direct-router.ts).
// Tests therefore speak HTTP to the real handlers while controlling the clock and database directly.
// The Playwright suite covers the same routes on the production build, served directly and through Next
// (tests/e2e/direct-parity.spec.ts compares the two).
import { once } from "node:events";
import { readdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect } from "vitest";
import { listenForCommits } from "@/lib/background/start";
import { findRoute, requestUrl, routeAt, routeOfFile, routeTable, serveRoute, type RouteEntry, type RouteFile } from "@/lib/http/direct-router";
import { isSignInProviderRequest } from "@/lib/oidc/mount-path";
import { stampPeerAddress } from "@/lib/wire/client-address";
import type { RouteHandlers } from "@/lib/http/route";

const APP_DIR = path.resolve(import.meta.dirname, "..", "..", "app");

/** Every route.ts under app/, loaded from source. */
function routeFiles(directory: string, directories: string[] = []): RouteFile[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry): RouteFile[] => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(full, [...directories, entry.name]);
    return entry.name === "route.ts" ? [{ directories, load: () => import(/* @vite-ignore */ full) }] : [];
  });
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
  const extras: RouteEntry[] = Object.entries(extraRoutes).map(([pattern, handlers]) => routeAt(pattern, async () => handlers));
  const routes = routeTable(routeFiles(APP_DIR).map(routeOfFile), extras);

  const server = http.createServer(async (incoming, outgoing) => {
    // As scripts/http-server.ts does: the sign-in provider's requests go to it, not to the route handlers.
    if (isSignInProviderRequest(incoming.method ?? "GET", incoming.url ?? "/")) {
      stampPeerAddress(incoming);
      const { handleSignInProviderRequest } = await import("@/lib/oidc/mount");
      await handleSignInProviderRequest(incoming, outgoing);
      return;
    }
    const url = requestUrl(incoming);
    const found = url && findRoute(routes, url.pathname);
    if (!found) {
      outgoing.writeHead(404, { "content-type": "text/plain" }).end("page not found");
      return;
    }
    // As scripts/http-server.ts does for the real server: the socket peer, never a client-supplied address.
    stampPeerAddress(incoming);
    try {
      await serveRoute(await found.route.load(), found.params, incoming, outgoing, url, {
        onError: (error) => void outgoing.writeHead(599, { "content-type": "text/plain" }).end(`test server failure: ${String(error)}`),
      });
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
  heap_total_mb: expect.any(Number),
  external_mb: expect.any(Number),
  event_loop_delay_ms: { p50: expect.any(Number), p99: expect.any(Number), max: expect.any(Number) },
};
