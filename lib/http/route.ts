// The route builder every partner, public and site route goes through. A route file declares its path and,
// per method, its schemas and handler; the builder composes the steps, each in its own module, in a fixed order:
//   request context (request-context.ts) → admission: authenticate, project bucket, scope (admission.ts)
//   → parse params, query, body (body.ts, validation.ts; skipped for `rawBody` endpoints, which read `request`
//   themselves) → Idempotency-Key (idempotent-handler.ts)
//   → route sub-limit (metering.ts) → handler
//   → map errors → finish: request id, RateLimit headers, one log line (request-context.ts)
// Partner routes take their scope from the one table in lib/oauth/route-scopes.ts. Methods a route does not
// declare answer 405 with `Allow`; HEAD runs GET without a body.
import { z } from "zod";
import { db, type DatabaseClient } from "../db";
import { config } from "../env";
import { PARTNER_ROUTE_SCOPES } from "../oauth/route-scopes";
import type { PartnerScope } from "../oauth/scopes";
import { admit, nothingToRelease } from "./admission";
import { assertSandbox, type Principal } from "./auth";
import { readBody, searchParamsToObject, type BodyFormat } from "./body";
import { ApiError, type Ring } from "./errors";
import { runIdempotently } from "./idempotent-handler";
import { meterAnonymousPartnerRequest, meterPublicRequest, meterRouteOperation } from "./metering";
import { corsHeaders, preflightHeaders } from "./cors";
import { errorResponse, finishRequest, startRequest, toResponse, type ErrorFormat, type RequestContext } from "./request-context";
import { parseWith } from "./validation";
import { statementsIn, type Statements } from "../statements";

export const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
type DeclarableMethod = Exclude<HttpMethod, "HEAD" | "OPTIONS">;

export type { Reply } from "./request-context";
import type { Reply } from "./request-context";

export const ok = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body, headers });
export const created = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 201, body, headers });
export const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });

type Output<S, Fallback> = S extends z.ZodType ? z.output<S> : Fallback;

export interface HandlerInput<P, Q, B> {
  request: Request;
  context: RequestContext;
  /** The authenticated caller of a partner route (reading it on a route without a bearer token throws). */
  principal: Principal;
  /**
   * Where the handler's writes go: the transaction that also records an Idempotency-Key's outcome. Not
   * available to a `batchedWrites` endpoint, whose writes go through `statements`.
   */
  database: DatabaseClient;
  /** The same place, for hand-written statements (lib/statements.ts). */
  statements: Statements;
  params: P;
  query: Q;
  body: B;
}

export interface EndpointConfig<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
> {
  params?: P;
  query?: Q;
  body?: B;
  /** Body encoding; JSON unless stated (the OAuth endpoints take forms). */
  bodyFormat?: BodyFormat;
  /** Error body shape: the API envelope unless stated (the OAuth endpoints answer in RFC 6749 form). */
  errorFormat?: ErrorFormat;
  /** Create-type partner POSTs: honour Idempotency-Key (spec 4.12). The handler must return a Reply. */
  idempotent?: boolean;
  /**
   * An idempotent endpoint whose handler writes only through `statements`: it runs in one batched transaction
   * on the fast lane (lib/statements.ts), Idempotency-Key or not, and `database` is not available to it.
   */
  batchedWrites?: boolean;
  /** A tighter body cap than BODY_LIMIT_BYTES, in bytes (public intake forms). */
  bodyLimitBytes?: number;
  /**
   * The builder neither reads nor validates the body (no `body` schema, no cap): the handler reads `request`
   * itself. For fail-open endpoints (public consent) that answer every body, however malformed, the same way.
   */
  rawBody?: boolean;
  /** Sandbox test helpers: for a live token the route does not exist (404 `route_not_found`), before any input is read. */
  sandboxOnly?: boolean;
  handler: (
    input: HandlerInput<Output<P, Record<string, string>>, Output<Q, Record<string, never>>, Output<B, undefined>>,
  ) => Promise<Reply | Response> | Reply | Response;
}

/** An endpoint with its types erased, ready for the builder. */
export interface Endpoint {
  readonly config: EndpointConfig<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>;
}

/** Declares one method's endpoint; exists so TypeScript infers the handler's input from the schemas. */
export function endpoint<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(config: EndpointConfig<P, Q, B>): Endpoint {
  return { config: config as unknown as Endpoint["config"] };
}

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (request: Request, context: NextRouteContext) => Promise<Response>;
export type RouteHandlers = Record<HttpMethod, RouteHandler>;

const NO_QUERY = z.strictObject({});
const NO_BODY = z.strictObject({}).optional();
const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

async function parseParams(schema: z.ZodType | undefined, context: NextRouteContext): Promise<unknown> {
  const raw = await context.params;
  if (!schema) return raw;
  try {
    return parseWith(schema, raw);
  } catch {
    // A path segment that cannot be an id of the resource names nothing: 404, not a validation error.
    throw new ApiError("not_found");
  }
}

async function parseRequestBody(declared: Endpoint["config"], request: Request, context: RequestContext): Promise<unknown> {
  if (declared.rawBody || (!declared.body && !METHODS_WITH_BODY.has(request.method))) return undefined;
  const limit = Math.min(declared.bodyLimitBytes ?? Number.POSITIVE_INFINITY, config().BODY_LIMIT_BYTES);
  const raw = await readBody(request, { format: declared.bodyFormat ?? "json", limit, ring: context.ring });
  return parseWith(declared.body ?? NO_BODY, raw);
}

function withoutPrincipal<T extends object>(input: T): T & { principal: Principal } {
  return Object.defineProperty(input, "principal", {
    get() {
      throw new Error("This route has no bearer authentication: it has no principal");
    },
  }) as T & { principal: Principal };
}

async function runEndpoint(
  ring: Ring,
  routeKey: string,
  scope: PartnerScope | null,
  target: Endpoint,
  request: Request,
  routeContext: NextRouteContext,
): Promise<Response> {
  const context = startRequest(request, ring);
  let response: Response;
  let release = nothingToRelease;
  try {
    const admission = await admit(ring, scope, request, context);
    release = admission.release;
    const principal = admission.principal;
    if (target.config.sandboxOnly && principal) assertSandbox(principal);
    const params = await parseParams(target.config.params, routeContext);
    const query = parseWith(target.config.query ?? NO_QUERY, searchParamsToObject(context.url.searchParams));
    const body = await parseRequestBody(target.config, request, context);
    const input = { request, context, params, query, body, database: db() as DatabaseClient, statements: statementsIn(db()) };
    const handlerInput = principal ? { ...input, principal } : withoutPrincipal(input);
    const meterOperation = () => (principal ? meterRouteOperation(principal, routeKey, context) : Promise.resolve());
    if (target.config.idempotent && principal) {
      const transaction = target.config.batchedWrites ? "batched" : "prisma";
      response = await runIdempotently(target.config.handler, handlerInput, { transaction, beforeHandler: meterOperation });
    } else {
      await meterOperation();
      response = toResponse(await target.config.handler(handlerInput as never));
    }
  } catch (error) {
    response = errorResponse(error, context, target.config.errorFormat);
  } finally {
    await release();
  }
  return finishWithCors(ring, request, response, context);
}

function finishWithCors(ring: Ring, request: Request, response: Response, context: RequestContext): Response {
  for (const [name, value] of Object.entries(corsHeaders(ring, request.method, request.headers.get("origin")))) response.headers.set(name, value);
  return finishRequest(response, context);
}

/** The scope a partner route needs, from the one table; a route missing from it is a programming error. */
function scopeFor(ring: Ring, method: DeclarableMethod, path: string): PartnerScope | null {
  if (ring !== "partner") return null;
  const key = `${method} ${path}`;
  const scope = PARTNER_ROUTE_SCOPES[key];
  if (scope === undefined) throw new Error(`Partner route "${key}" has no entry in lib/oauth/route-scopes.ts`);
  return scope;
}

/** A fixed error (404, 405) that still counts against the caller's per-address limit on metered rings. */
function answerWith(ring: Ring, error: () => ApiError): RouteHandler {
  return async (request) => {
    const context = startRequest(request, ring);
    try {
      if (ring === "public") await meterPublicRequest(request, context);
      if (ring === "partner") await meterAnonymousPartnerRequest(request, context);
      throw error();
    } catch (thrown) {
      return finishWithCors(ring, request, errorResponse(thrown, context), context);
    }
  };
}

function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers });
}

/**
 * Builds the full set of method handlers for a route file: `export const { GET, HEAD, ... } = defineRoute(...)`.
 * `path` is the route's pattern within its ring (`/keys/{id}` for /partner/v1/keys/[id]).
 */
export function defineRoute(ring: Ring, path: string, endpoints: Partial<Record<DeclarableMethod, Endpoint>>): RouteHandlers {
  const declared = Object.keys(endpoints) as DeclarableMethod[];
  const allowed = [...declared, ...(endpoints.GET ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const methodNotAllowed = answerWith(ring, () =>
    new ApiError("method_not_allowed", { headers: { Allow: allowed } }),
  );
  const handlerFor = (method: DeclarableMethod): RouteHandler => {
    const target = endpoints[method];
    if (!target) return methodNotAllowed;
    const scope = scopeFor(ring, method, path);
    const routeKey = `${method} ${path}`;
    return (request, context) => runEndpoint(ring, routeKey, scope, target, request, context);
  };
  const get = handlerFor("GET");
  return {
    GET: get,
    HEAD: endpoints.GET ? async (request, context) => withoutBody(await get(request, context)) : methodNotAllowed,
    OPTIONS: async (request) => {
      const context = startRequest(request, ring);
      return finishRequest(new Response(null, { status: 204, headers: { Allow: allowed, ...preflightHeaders(ring, request, allowed) } }), context);
    },
    POST: handlerFor("POST"),
    PUT: handlerFor("PUT"),
    PATCH: handlerFor("PATCH"),
    DELETE: handlerFor("DELETE"),
  };
}

/** Every method of an unmatched path under a ring answers 404 `route_not_found`. */
export function unmatchedRoute(ring: Ring): RouteHandlers {
  const notFound = answerWith(ring, () => new ApiError("route_not_found"));
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, notFound])) as RouteHandlers;
}
