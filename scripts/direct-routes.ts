// In production, the route files the route builder made, served straight from the build without Next's router in
// front (docs/architecture.md, "How requests are served"). Next's router costs every request more than our own code
// does (docs/performance.md, "Serving the API rings"). Which requests come here is read from the build itself:
// - the routes are the build's app paths (.next/server/app-paths-manifest.json), pages included, ordered as Next
//   orders them, so a path Next would answer with a page is still Next's;
// - a path the proxy (proxy.ts) runs for is Next's: its matchers are the build's (functions-config-manifest.json);
// - a route file is served here only when every handler it exports is the route builder's (lib/http/built-route.ts);
//   next-auth's and Inngest's stay with Next.
// The modules are the build's compiled route modules, loaded with Node's require as Next's server loads them: one
// module cache, so Next's pages and this path share one copy of every module (one database pool, one in-process
// rate limiter, one set of caches).
import { readFileSync } from "node:fs";
import type http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { isBuiltRoute } from "../lib/http/built-route";
import { findRoute, requestUrl, routeOfFile, routeTable, serveRoute, type RouteEntry, type RouteModule, type ServeOptions } from "../lib/http/direct-router";

const require = createRequire(import.meta.url);

type Middleware = (request: http.IncomingMessage, response: http.ServerResponse, next: () => void) => void;

/**
 * Next's own response compression, as its router applies it (next/dist/server/lib/router-server.js): gzip or br when
 * the client accepts it and the build's config leaves `compress` on, and the zlib stream released when the client
 * leaves midway.
 */
function nextCompression(distDir: string): ((request: http.IncomingMessage, response: http.ServerResponse) => ServeOptions) | null {
  const { config } = readJson<{ config: { compress?: boolean } }>(path.join(distDir, "required-server-files.json"));
  if (config.compress === false) return null;
  const compress = (require("next/dist/compiled/compression") as () => Middleware)();
  const { releaseCompressionStream } = require("next/dist/server/lib/release-compression-stream") as { releaseCompressionStream: (response: http.ServerResponse) => void };
  return (request, response) => {
    // A client that names no encoding gets none: all the middleware would do is name Accept-Encoding in Vary, which
    // costs far less done directly than its wrapping of the response (about a sixth of the floor's time).
    if (request.headers["accept-encoding"] === undefined) return { onHeaders: varyOnAcceptEncoding };
    compress(request, response, () => undefined);
    response.once("close", () => {
      if (!response.writableFinished) releaseCompressionStream(response);
    });
    return { streamWholeBodies: true };
  };
}

/** The compression middleware's `compressible` for the replies route handlers give: text, JSON and `+json` types. */
const COMPRESSIBLE_TYPE = /^(?:text\/[^;\s]+|[^;\s]+[/+]json)\s*(?:;|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/** As the compression middleware marks a compressible reply it leaves alone: `Vary: Accept-Encoding` added to any Vary. */
export function varyOnAcceptEncoding(response: http.ServerResponse): void {
  if (!COMPRESSIBLE_TYPE.test(String(response.getHeader("content-type") ?? ""))) return;
  if (NO_TRANSFORM.test(String(response.getHeader("cache-control") ?? ""))) return;
  const fields = String(response.getHeader("vary") ?? "").split(",").map((field) => field.trim()).filter(Boolean);
  if (fields.some((field) => field === "*" || field.toLowerCase() === "accept-encoding")) return;
  response.setHeader("vary", [...fields, "Accept-Encoding"].join(", "));
}

/** What Next's compiled route.js exports: its route module holds the route file's own exports once loaded. */
interface CompiledRoute {
  routeModule?: { ensureUserland?: () => Promise<void>; userland: Record<string, unknown> };
}

type Served = RouteModule | null;

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

/** The compiled route file's handlers when the route builder made them all; null for Next to answer. */
async function loadCompiled(file: string): Promise<Served> {
  const compiled = require(file) as CompiledRoute;
  const routeModule = compiled.routeModule;
  if (!routeModule) return null;
  await routeModule.ensureUserland?.();
  return isBuiltRoute(routeModule.userland) ? (routeModule.userland as RouteModule) : null;
}

/** The paths the proxy runs for, as the build compiled its matchers. */
export function proxyMatchers(serverDir: string): RegExp[] {
  type Matchers = { matchers?: { regexp: string }[] };
  const functions = readJson<{ functions?: Record<string, Matchers> }>(path.join(serverDir, "functions-config-manifest.json")).functions ?? {};
  const edge = readJson<{ middleware?: Record<string, Matchers> }>(path.join(serverDir, "middleware-manifest.json")).middleware ?? {};
  return [...Object.values(functions), ...Object.values(edge)].flatMap((entry) => entry.matchers ?? []).map(({ regexp }) => new RegExp(regexp));
}

/** Every app path of the build (`/(site)/apply/start/route`): a route file to load, or a page, which is Next's. */
function builtRoutes(serverDir: string): RouteEntry<Served>[] {
  const appPaths = readJson<Record<string, string>>(path.join(serverDir, "app-paths-manifest.json"));
  return Object.entries(appPaths).map(([appPath, file]) => {
    const directories = appPath.split("/").filter(Boolean);
    const kind = directories.pop();
    const full = path.join(serverDir, file);
    return routeOfFile<Served>({
      // Parallel-route slots (`@name`) do not appear in the URL either.
      directories: directories.filter((directory) => !directory.startsWith("@")),
      load: kind === "route" ? () => loadCompiled(full) : async () => null,
    });
  });
}

export type RequestListener = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/**
 * A request listener that answers the route builder's routes itself and hands every other request to `next`.
 * `distDir` is the build (.next).
 */
export function directRoutes(distDir: string, next: RequestListener): RequestListener {
  const serverDir = path.join(distDir, "server");
  const proxied = proxyMatchers(serverDir);
  const table = routeTable(builtRoutes(serverDir));
  const compress = nextCompression(distDir);
  const loaded = new Map<RouteEntry<Served>, Promise<Served>>();
  const resolved = new Map<RouteEntry<Served>, Served>();

  const load = (route: RouteEntry<Served>): Promise<Served> => {
    let loading = loaded.get(route);
    if (!loading) {
      loading = route.load().then((served) => (resolved.set(route, served), served));
      loaded.set(route, loading);
      // A module that fails to load is tried again on the next request, as Next would.
      loading.catch(() => loaded.delete(route));
    }
    return loading;
  };

  const serve = (handlers: RouteModule, params: Record<string, string | string[]>, request: http.IncomingMessage, response: http.ServerResponse, url: URL) => {
    serveRoute(handlers, params, request, response, url, compress?.(request, response)).catch((error: unknown) => {
      console.error(error);
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  };

  return (request, response) => {
    const url = requestUrl(request);
    // Next redirects a trailing slash and answers odd paths in its own way; it keeps those.
    if (!url || url.pathname.endsWith("/") || url.pathname.includes("//") || proxied.some((matcher) => matcher.test(url.pathname))) return next(request, response);
    const found = findRoute(table, url.pathname);
    if (!found) return next(request, response);
    const handlers = resolved.get(found.route);
    if (handlers !== undefined) return handlers ? serve(handlers, found.params, request, response, url) : next(request, response);
    load(found.route).then(
      (served) => (served ? serve(served, found.params, request, response, url) : next(request, response)),
      (error: unknown) => {
        console.error(error);
        response.writeHead(500).end();
      },
    );
  };
}
