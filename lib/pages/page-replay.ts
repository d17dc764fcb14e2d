// The page cache at the door of our HTTP server (scripts/http-server.ts), before Next: a view of a replayed page
// (lib/pages/page-cache.ts) is answered from memory with a fresh nonce and the headers proxy.ts would have set
// (lib/pages/page-response.ts), or, the first time, rendered by Next as any page is, and its response kept on the
// way out. `X-Page-Cache` says which (hit or miss) on those pages.
import type http from "node:http";
import type { TLSSocket } from "node:tls";
import { gzipSync } from "node:zlib";
import { clock } from "../clock";
import { bodyWithNonce, headersWithNonce, isReplayablePageRequest, pageCache, policyWithNonce, storedPageFrom, type StoredPage } from "./page-cache";
import { csrfTokenToIssue, isServedOverHttps, newPageNonce, pageResponseHeaders } from "./page-response";

export type PageRenderer = (request: http.IncomingMessage, response: http.ServerResponse) => unknown;

/** A page is kept only up to this size; a larger one is served as rendered, every time. */
const MAX_STORED_BYTES = 1024 * 1024;

/** Serves `request` from the page cache when it can, else through `render`, keeping the page it renders. */
export function servePage(request: http.IncomingMessage, response: http.ServerResponse, render: PageRenderer): void {
  const url = request.url ?? "/";
  if (!isReplayablePageRequest({ method: request.method ?? "GET", url, headers: request.headers })) return void render(request, response);
  const cache = pageCache();
  const now = clock.now().getTime();
  const stored = cache.read(url, now);
  if (stored) return replay(stored, request, response);
  response.setHeader("X-Page-Cache", "miss");
  if (request.method === "GET" && cache.isKeeping()) {
    const version = cache.currentVersion();
    // The kept copy must be the page's text, not one client's compressed bytes: this view goes uncompressed.
    delete request.headers["accept-encoding"];
    captureResponse(response, (body) => {
      const page = storedPageFrom(response.statusCode, response.getHeaders(), body, now);
      if (page) cache.keep(url, version, page);
    });
  }
  render(request, response);
}

function replay(page: StoredPage, request: http.IncomingMessage, response: http.ServerResponse): void {
  const nonce = newPageNonce();
  const csrfToken = csrfTokenToIssue({ method: request.method ?? "GET", accept: request.headers.accept ?? null, cookie: request.headers.cookie ?? null });
  const protocol = (request.socket as TLSSocket).encrypted ? "https:" : "http:";
  const body = bodyWithNonce(page, nonce);
  const headers = new Map<string, string[]>();
  for (const [name, value] of headersWithNonce(page, nonce)) headers.set(name.toLowerCase(), [...(headers.get(name.toLowerCase()) ?? []), value]);
  // What proxy.ts decides for a page view replaces what the first view was given.
  for (const [name, value] of pageResponseHeaders("page", policyWithNonce(page, nonce), csrfToken, isServedOverHttps(protocol))) headers.set(name.toLowerCase(), [value]);
  for (const [name, values] of headers) response.setHeader(name, values.length === 1 ? values[0]! : values);
  // As Next would have sent it: gzip for a browser that takes it (about 0.1 ms for these pages, against a render's 10).
  const sent = acceptsGzip(request.headers["accept-encoding"]) ? gzipSync(body) : body;
  if (sent !== body) response.setHeader("Content-Encoding", "gzip");
  response.setHeader("Content-Length", sent.length);
  response.setHeader("X-Page-Cache", "hit");
  response.statusCode = page.status;
  response.end(request.method === "HEAD" ? undefined : sent);
}

/** Whether an Accept-Encoding header takes gzip (by name or `*`) with a quality above 0. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(",").some((entry) => {
    const [coding, ...parameters] = entry.split(";").map((part) => part.trim().toLowerCase());
    if (coding !== "gzip" && coding !== "*") return false;
    const quality = parameters.find((parameter) => parameter.startsWith("q="));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

/** Calls `done` with the body `response` wrote, once all of it has gone out (never for a response cut short). */
function captureResponse(response: http.ServerResponse, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const keep = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function" || size > MAX_STORED_BYTES) return;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    chunks.push(bytes);
  };
  const write = response.write;
  const end = response.end;
  response.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as http.ServerResponse["write"];
  response.end = function (this: http.ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    return (end as (...args: unknown[]) => http.ServerResponse).call(this, chunk, ...rest);
  } as http.ServerResponse["end"];
  response.once("finish", () => {
    if (size <= MAX_STORED_BYTES) done(Buffer.concat(chunks));
  });
}
