// Serves route handlers from a plain `node:http` server, routed by Next.js's file-system conventions (route groups
// `(name)` leave no segment; static beats [param] beats [...catchAll] beats [[...optional]]). In production our
// HTTP server (scripts/http-server.ts, scripts/direct-routes.ts) serves the API rings this way, from the build's
// compiled route modules, without Next's router in front of every request; the test harness
// (tests/helpers/app-server.ts) serves every route file this way from source (docs/architecture.md).
import type { IncomingMessage, ServerResponse } from "node:http";
import { nodeBodyRequest } from "../wire/node-body-request";
import { wholeBodyOf } from "../wire/whole-body";
import type { RouteHandler, RouteHandlers } from "./route";

type Segment = { kind: "static"; value: string } | { kind: "param"; name: string } | { kind: "catchAll"; name: string; optional: boolean };

export type RouteParams = Record<string, string | string[]>;
export type RouteModule = Partial<RouteHandlers>;

/** A route file: the directories from app/ to it (`["(site)", "apply", "start"]`) and how to load its module. */
export interface RouteFile<Loaded = RouteModule> {
  directories: string[];
  load: () => Promise<Loaded>;
}

export interface RouteEntry<Loaded = RouteModule> {
  /** The route's URL pattern in Next's notation: `/partner/v1/keys/[id]`. */
  pattern: string;
  segments: Segment[];
  load: () => Promise<Loaded>;
}

export interface RouteMatch<Loaded = RouteModule> {
  route: RouteEntry<Loaded>;
  params: RouteParams;
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

/** A route at a URL pattern (`/test/items/[id]`), as a route file there would be. */
export function routeAt<Loaded>(pattern: string, load: () => Promise<Loaded>): RouteEntry<Loaded> {
  const parts = pattern.split("/").filter(Boolean);
  return { pattern: `/${parts.join("/")}`, segments: parts.map(parseSegment), load };
}

/** The route of a route file: route groups `(name)` do not appear in the URL. */
export function routeOfFile<Loaded>(file: RouteFile<Loaded>): RouteEntry<Loaded> {
  return routeAt(file.directories.filter((directory) => !/^\(.*\)$/.test(directory)).join("/"), file.load);
}

const RANK = { static: 0, param: 1, catchAll: 2 } as const;

function rankOf(segment: Segment): number {
  return RANK[segment.kind] + (segment.kind === "catchAll" && segment.optional ? 1 : 0);
}

function specificity(a: RouteEntry<unknown>, b: RouteEntry<unknown>): number {
  const length = Math.max(a.segments.length, b.segments.length);
  for (let index = 0; index < length; index += 1) {
    const left = a.segments[index];
    const right = b.segments[index];
    if (!left || !right) return left ? -1 : 1;
    const difference = rankOf(left) - rankOf(right);
    if (difference !== 0) return difference;
  }
  return 0;
}

function match(route: RouteEntry<unknown>, parts: string[]): RouteParams | null {
  const params: RouteParams = {};
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

/**
 * Routes in the order they are tried. A route of static segments only is found by its path at once; the others
 * are tried in order, up to the static route that path names, which beats any tried after it.
 */
export interface RouteTable<Loaded> {
  /** Each static route's place in the order, by its segments joined with NUL (which no segment of a file path holds). */
  staticAt: Map<string, { route: RouteEntry<Loaded>; order: number }>;
  patterned: { route: RouteEntry<Loaded>; order: number }[];
}

/** Routes in the order they are tried: `first` (ahead of all), then the rest most specific first. */
export function routeTable<Loaded>(routes: RouteEntry<Loaded>[], first: RouteEntry<Loaded>[] = []): RouteTable<Loaded> {
  const table: RouteTable<Loaded> = { staticAt: new Map(), patterned: [] };
  for (const [order, route] of [...first, ...[...routes].sort(specificity)].entries()) {
    const staticValues = route.segments.flatMap((segment) => (segment.kind === "static" ? [segment.value] : []));
    const key = staticValues.join("\0");
    if (staticValues.length < route.segments.length) table.patterned.push({ route, order });
    else if (!table.staticAt.has(key)) table.staticAt.set(key, { route, order });
  }
  return table;
}

/** The route a path names, with its params; null when none does, or the path is not one (a bad escape). */
export function findRoute<Loaded>(table: RouteTable<Loaded>, pathname: string): RouteMatch<Loaded> | null {
  let parts: string[];
  try {
    parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
  const exact = table.staticAt.get(parts.join("\0"));
  for (const { route, order } of table.patterned) {
    if (exact && order > exact.order) break;
    const params = match(route, parts);
    if (params) return { route, params };
  }
  return exact ? { route: exact.route, params: {} } : null;
}

const NEXT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"]);

/**
 * As Next answers for a route file: a method it does not know is a 400; HEAD runs GET without its body when the
 * file has no HEAD of its own; a method the file lacks is a 405, without a body.
 */
function handlerFor(handlers: RouteModule, method: string): RouteHandler | null {
  if (!NEXT_METHODS.has(method)) return async () => new Response(null, { status: 400 });
  const own = handlers[method as keyof RouteHandlers];
  if (own) return own;
  const get = handlers.GET;
  if (method === "HEAD" && get) return async (request, context) => new Response(null, (({ status, statusText, headers }) => ({ status, statusText, headers }))(await get(request, context)));
  return null;
}

/** The Node request as a web Request whose signal aborts when the client goes away before the reply is done. */
function webRequest(incoming: IncomingMessage, outgoing: ServerResponse, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) controller.abort();
  });
  const method = incoming.method ?? "GET";
  const init = { method, headers, signal: controller.signal };
  return method === "GET" || method === "HEAD" ? new Request(url, init) : nodeBodyRequest(url, init, incoming);
}

/**
 * Writes a web Response to Node's. A body made whole (lib/wire/whole-body.ts) goes in one call, with its length;
 * any other is streamed as written, each chunk flushed, as Next flushes it, so server-sent events reach the client
 * at once through a compressing response too.
 */
async function writeResponse(response: Response, outgoing: ServerResponse, options: ServeOptions): Promise<void> {
  outgoing.statusCode = response.status;
  if (response.statusText) outgoing.statusMessage = response.statusText;
  for (const [name, value] of response.headers) if (name !== "set-cookie") outgoing.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing.setHeader("set-cookie", cookies);
  options.onHeaders?.(outgoing);
  // Before `response.body`, which makes a whole body's stream.
  const whole = options.streamWholeBodies ? undefined : wholeBodyOf(response);
  if (whole !== undefined) {
    outgoing.end(whole);
    return;
  }
  if (!response.body) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  // One listener of each for the whole body, however often it waits for the socket to drain.
  let wake: (() => void) | null = null;
  const resume = () => {
    const waiting = wake;
    wake = null;
    waiting?.();
  };
  outgoing.on("drain", resume);
  outgoing.once("close", () => {
    void reader.cancel().catch(() => undefined);
    resume();
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outgoing.destroyed) return;
      const drained = outgoing.write(value);
      (outgoing as { flush?: () => void }).flush?.();
      if (!drained) await new Promise<void>((resolve) => (wake = resolve));
    }
    outgoing.end();
  } catch {
    // The body failed midway (or the client left): the reply cannot be finished, so the connection is cut.
    outgoing.destroy();
  }
}

export interface ServeOptions {
  /** The answer when the handler throws; unset, Next's: 500 with no body, the error in the log. */
  onError?: (error: unknown, outgoing: ServerResponse) => void;
  /** Called once the reply's headers are set on `outgoing`, before any of it is written. */
  onHeaders?: (outgoing: ServerResponse) => void;
  /**
   * Stream even a body known whole, as Next writes every body: set when the compression middleware wraps the
   * reply, which compresses a streamed body whatever its size, as through Next.
   */
  streamWholeBodies?: boolean;
}

/** Answers a request with a route file's handlers, as Next would call them. */
export async function serveRoute(handlers: RouteModule, params: RouteParams, incoming: IncomingMessage, outgoing: ServerResponse, url: URL, options: ServeOptions = {}): Promise<void> {
  const handler = handlerFor(handlers, incoming.method ?? "GET");
  if (!handler) {
    outgoing.writeHead(405).end();
    return;
  }
  let response: Response;
  try {
    response = await handler(webRequest(incoming, outgoing, url), { params: Promise.resolve(params) });
  } catch (error) {
    if (options.onError) return options.onError(error, outgoing);
    // As Next answers a handler that throws: 500, no body, the error in the log.
    console.error(error);
    if (!outgoing.headersSent) outgoing.writeHead(500).end();
    return;
  }
  await writeResponse(response, outgoing, options);
}

/** The request's URL, as the route handler sees it (Next's `request.url`): the Host it was sent to. */
export function requestUrl(incoming: IncomingMessage): URL | null {
  try {
    return new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "localhost"}`);
  } catch {
    return null;
  }
}
