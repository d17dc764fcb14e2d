// The route builder every partner, public and site route goes through. A route file declares its path and, per
// method, everything that guards the endpoint (endpoint.ts: who may call it, its limits, schemas, idempotency) and
// the one service its handler calls; the builder starts the request, runs the steps of steps.ts in their one
// order, then finishes it (request id, RateLimit headers, CORS, one log line). Every endpoint registers its config
// (route-registry.ts), so tables other code needs come from the configs. Methods a route does not declare answer
// 405 with `Allow`; HEAD runs GET without a body.
import { ApiError, type ErrorFormat, type Ring } from "../errors";
import type { RatePolicy } from "../ratelimit/policies";
import { corsHeaders, preflightHeaders } from "../wire/cors";
import { errorResponse } from "../wire/error-outcome";
import type { RequestContext } from "../wire/request-context";
import { markBuilt } from "./built-route";
import { addressLimitOf, HTTP_METHODS, type DeclarableMethod, type Endpoint, type HttpMethod } from "./endpoint";
import { countRequest } from "../usage/counter";
import { AUTH_KINDS, authKindOf, tenantOf } from "./auth-kinds";
import { meterAddressRequest, meterAnonymousPartnerRequest } from "./metering";
import { finishRequest, startRequest } from "./request-edges";
import { registerEndpoint } from "./route-registry";
import type { Exchange, NextRouteContext } from "./step";
import { runSteps } from "./steps";

export type RouteHandler = (request: Request, context: NextRouteContext) => Promise<Response>;
export type RouteHandlers = Record<HttpMethod, RouteHandler>;

async function runEndpoint(ring: Ring, path: string, target: Endpoint, request: Request, routeContext: NextRouteContext): Promise<Response> {
  const context = startRequest(request, ring, path);
  const exchange: Exchange = {
    ring,
    config: target.config,
    request,
    routeContext,
    context,
    caller: null,
    now: context.receivedAt,
    params: undefined,
    query: undefined,
    body: undefined,
    transaction: undefined,
  };
  await runSteps(exchange);
  countUsage(exchange);
  return finishWithCors(ring, request, exchange.response!, context, authKindOf(target.config.auth).anyOrigin);
}

/**
 * The partner ring's usage per project and day (lib/usage): every request whose caller authenticated, so whose
 * project is known, refused or not; 429s apart. A request without a valid credential has no project to count for.
 */
function countUsage(exchange: Exchange): void {
  if (exchange.ring !== "partner") return;
  const tenant = tenantOf(exchange.caller);
  if (tenant) countRequest(tenant, exchange.context.receivedAt, exchange.response!.status === 429);
}

function finishWithCors(ring: Ring, request: Request, response: Response, context: RequestContext, anyOrigin = false): Response {
  for (const [name, value] of Object.entries(corsHeaders(ring, request.method, request.headers.get("origin"), anyOrigin))) response.headers.set(name, value);
  return finishRequest(response, context);
}

/**
 * What the types cannot say: each kind of caller belongs on some rings only (the public ring takes no
 * credential); a sub-limit is spent per a key the endpoint's caller has; and only an idempotent endpoint stores
 * replies, so only it may name fields to withhold from them.
 */
function assertGuardsDeclared(ring: Ring, key: string, target: Endpoint): void {
  const { auth, secretFields, idempotent, rateLimit } = target.config;
  if (!auth) throw new Error(`Endpoint "${key}" declares no auth`);
  const kind = authKindOf(auth);
  if (!kind.rings.includes(ring)) throw new Error(`Endpoint "${key}" is on the ${ring} ring, which takes no ${auth.kind} caller (only ${kind.rings.join(", ")})`);
  if (rateLimit && rateLimit.per !== "address" && kind.subLimit?.per !== rateLimit.per) {
    throw new Error(`Endpoint "${key}" spends a sub-limit per ${rateLimit.per}, which its ${auth.kind} caller does not have`);
  }
  if (rateLimit && rateLimit.per !== "address" && auth.kind === "bearer" && auth.person) {
    throw new Error(`Endpoint "${key}" takes a person too, who has no ${rateLimit.per} to spend a sub-limit per`);
  }
  if (secretFields?.length && !idempotent) throw new Error(`Endpoint "${key}" declares secretFields but is not idempotent`);
}

/**
 * A fixed error (404, 405) that still counts against the caller's per-address limit on metered rings, or against
 * the route's own bucket when its endpoints have one; in the error shape its endpoints answer in.
 */
function answerWith(ring: Ring, path: string | null, error: () => ApiError, addressLimit?: RatePolicy, format?: ErrorFormat): RouteHandler {
  // The request presents no credential the route takes: it is metered as one without.
  const addressPolicy = AUTH_KINDS.none.addressPolicy(ring, { kind: "none", addressLimit });
  return async (request) => {
    const context = startRequest(request, ring, path);
    try {
      if (addressPolicy) await meterAddressRequest(addressPolicy, request, context);
      if (ring === "partner") await meterAnonymousPartnerRequest(request, context);
      throw error();
    } catch (thrown) {
      return finishWithCors(ring, request, errorResponse(thrown, context, format), context);
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
  for (const method of declared) assertGuardsDeclared(ring, `${method} ${path}`, endpoints[method]!);
  const allowed = [...declared, ...(endpoints.GET ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const ownBucket = Object.values(endpoints)
    .map((target) => addressLimitOf(target.config.auth))
    .find(Boolean);
  const anyOriginMethods = new Set(declared.filter((method) => authKindOf(endpoints[method]!.config.auth).anyOrigin));
  // A route whose endpoints all answer the site's `{ok: false, error}` (spec 7.4) answers 405 in it too. (The OAuth
  // form has no code for a wrong method, and a JSON-RPC route's GET answers the envelope.)
  const siteShaped = declared.every((method) => endpoints[method]!.config.errorFormat === "site");
  const methodNotAllowed = answerWith(ring, path, () => new ApiError("method_not_allowed", { headers: { Allow: allowed } }), ownBucket, siteShaped ? "site" : undefined);
  const handlerFor = (method: DeclarableMethod): RouteHandler => {
    const target = endpoints[method];
    if (!target) return methodNotAllowed;
    registerEndpoint({ ring, method, path, config: target.config });
    return (request, context) => runEndpoint(ring, path, target, request, context);
  };
  const get = handlerFor("GET");
  return markBuilt({
    GET: get,
    HEAD: endpoints.GET ? async (request, context) => withoutBody(await get(request, context)) : methodNotAllowed,
    OPTIONS: async (request) => {
      const context = startRequest(request, ring, path);
      return finishRequest(new Response(null, { status: 204, headers: { Allow: allowed, ...preflightHeaders(ring, request, allowed, anyOriginMethods) } }), context);
    },
    POST: handlerFor("POST"),
    PUT: handlerFor("PUT"),
    PATCH: handlerFor("PATCH"),
    DELETE: handlerFor("DELETE"),
  });
}

/** Every method of an unmatched path under a ring answers 404 `route_not_found`. */
export function unmatchedRoute(ring: Ring): RouteHandlers {
  const notFound = answerWith(ring, null, () => new ApiError("route_not_found"));
  return markBuilt(Object.fromEntries(HTTP_METHODS.map((method) => [method, notFound])) as RouteHandlers);
}

// Route files take the builder's whole vocabulary from here.
export { endpoint } from "./endpoint";
export { created, ok, reply } from "./reply";
export type { BearerToken } from "../oauth/access-tokens";
