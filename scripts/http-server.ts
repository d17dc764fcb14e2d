// Serves the Next.js app from our own Node HTTP server. It adds one thing Next cannot: the socket's peer
// address on a header the app trusts for per-address rate limits (lib/http/client-address.ts). A client's
// own X-Forwarded-For never reaches that decision.
import http from "node:http";
import path from "node:path";
import next from "next";
import { stampPeerAddress } from "../lib/http/client-address";

const ROOT = path.resolve(import.meta.dirname, "..");

export async function startHttpServer(options: { dev: boolean; port: number; hostname?: string }): Promise<http.Server> {
  const app = next({ dev: options.dev, dir: ROOT, port: options.port, hostname: options.hostname ?? "localhost", turbopack: options.dev });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = http.createServer((request, response) => {
    stampPeerAddress(request);
    void handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.hostname, resolve));
  return server;
}
