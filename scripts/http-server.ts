// Serves the Next.js app from our own Node HTTP server. It adds what Next cannot: the socket's peer address on a
// header the app trusts for per-address rate limits (lib/wire/client-address.ts; a client's own X-Forwarded-For
// never reaches that decision), and, in production, the site's visitor-independent pages replayed from memory
// with a fresh nonce instead of rendered per view (lib/pages/page-replay.ts).
import http from "node:http";
import path from "node:path";
import next from "next";
import { isSignInProviderRequest } from "../lib/oidc/mount-path";
import { servePage } from "../lib/pages/page-replay";
import { relayedByUntrustedProxy, stampPeerAddress } from "../lib/wire/client-address";
import { directRoutes } from "./direct-routes";
import { loadRepeatedChunksOnce } from "./shared-chunks";

const ROOT = path.resolve(import.meta.dirname, "..");

/** The request headers Next's router varies pages on; they mean nothing to an API reply or a script. */
const ROUTER_VARY = new Set(["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch"]);
const ROUTED_CONTENT = /^text\/(html|x-component)\b/;

/**
 * Next adds `Vary: rsc, next-router-state-tree, ...` to every reply, API replies included, which makes caches
 * keep a copy per router header for JSON that never varies on them. Keep them on pages (HTML and their RSC
 * payloads) and drop them elsewhere, leaving any other Vary (Origin, for CORS) as it was.
 */
function withoutRouterVary(response: http.ServerResponse): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: http.ServerResponse, ...args: Parameters<http.ServerResponse["writeHead"]>) {
    const vary = this.getHeader("vary");
    if (typeof vary === "string" && !ROUTED_CONTENT.test(String(this.getHeader("content-type") ?? ""))) {
      const kept = vary.split(",").map((token) => token.trim()).filter((token) => token && !ROUTER_VARY.has(token.toLowerCase()));
      if (kept.length > 0) this.setHeader("vary", kept.join(", "));
      else this.removeHeader("vary");
    }
    return writeHead.apply(this, args);
  } as http.ServerResponse["writeHead"];
}

/**
 * The sign-in provider (oidc-provider, a Koa app) runs here, beside Next and never inside it: loaded on the first
 * sign-in request, so a process that serves none never loads it.
 */
async function handleSignIn(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const { handleSignInProviderRequest } = await import("../lib/oidc/mount");
  await handleSignInProviderRequest(request, response);
}

let proxyWarned = false;

/** Once per process: a same-host proxy without TRUSTED_PROXY_HEADER puts every caller in one bucket (docs/limits-and-idempotency.md). */
function warnOfUntrustedProxy(request: http.IncomingMessage): void {
  if (proxyWarned || !relayedByUntrustedProxy(request)) return;
  proxyWarned = true;
  console.warn(
    "A reverse proxy on this machine is relaying requests, but TRUSTED_PROXY_HEADER is not set: every caller has the proxy's address and shares one rate-limit bucket. Set TRUSTED_PROXY_HEADER to the header the proxy writes the client's address to.",
  );
}

/**
 * `direct`: the route builder's routes are answered from the build without Next's router (scripts/direct-routes.ts);
 * off in development, where Next compiles each route as it is edited, and with SERVE_API_THROUGH_NEXT.
 */
export async function startHttpServer(options: { dev: boolean; direct: boolean; port: number; hostname?: string }): Promise<http.Server> {
  const distDir = path.join(ROOT, ".next");
  if (!options.dev) loadRepeatedChunksOnce(path.join(distDir, "server"));
  const app = next({ dev: options.dev, dir: ROOT, port: options.port, hostname: options.hostname ?? "localhost", turbopack: options.dev });
  await app.prepare();
  const handle = app.getRequestHandler();
  const throughNext = (request: http.IncomingMessage, response: http.ServerResponse) => {
    withoutRouterVary(response);
    // Development renders every view, so an edited page shows at once.
    if (options.dev) return void handle(request, response);
    servePage(request, response, handle);
  };
  const serve = options.direct && !options.dev ? directRoutes(distDir, throughNext) : throughNext;
  const server = http.createServer((request, response) => {
    stampPeerAddress(request);
    warnOfUntrustedProxy(request);
    if (isSignInProviderRequest(request.method ?? "GET", request.url ?? "/")) return void handleSignIn(request, response);
    serve(request, response);
  });
  // Idle keep-alive connections stay open longer than the 60 s load balancers and HTTP clients commonly keep theirs:
  // when the server closes first, a client that sends on the connection as it closes gets "other side closed".
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Development: the browser's hot-reload socket.
  if (options.dev) server.on("upgrade", app.getUpgradeHandler());
  await new Promise<void>((resolve) => server.listen(options.port, options.hostname, resolve));
  return server;
}
