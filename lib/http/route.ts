// The route builder every partner, public and site route goes through. A route file declares its path and,
// per method, everything that guards the endpoint (scope, rate limit, schemas, idempotency) and the one
// service its handler calls; the builder composes the steps, each in its own module, in a fixed order:
//   request context (request-context.ts) → admission: authenticate, project bucket, scope (admission.ts)
//   → the project's capability, on the routes of a feature enabled per project (lib/projects/capabilities.ts)
//   → parse params, query, body (body.ts, validation.ts) → the OAuth client, on the endpoints that authenticate one;
//   the publishable key, on the apply widget's start (lib/keys/publishable.ts)
//   → Idempotency-Key and the handler's transaction (idempotent-handler.ts) → sub-limit (metering.ts) → handler
//   → map errors (lib/errors.ts) → finish: request id, RateLimit headers, one log line (request-context.ts)
// Every endpoint registers its config (route-registry.ts), so tables other code needs come from the configs.
// Methods a route does not declare answer 405 with `Allow`; HEAD runs GET without a body.
import { z } from "zod";
import { config } from "../env";
import { ApiError, type ErrorCode, type ErrorFormat, type Ring } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { authenticatePublishableKey, type PublishableKeyCaller } from "../keys/publishable";
import { authenticateClient, type AuthenticatedClient, type ClientCredentialsInput } from "../oauth/client-authentication";
import type { PartnerScope } from "../oauth/scopes";
import { assertCapability, type ProjectCapability } from "../projects/capabilities";
import type { RatePolicy, SubLimit } from "../ratelimit/policies";
import type { Tenant } from "../tenant";
import type { TransactionKind } from "../db";
import { runForProject } from "../pool-bulkhead";
import { admit, nothingToRelease } from "./admission";
import { assertSandbox } from "./auth";
import { readBody, searchParamsToObject, type BodyFormat } from "./body";
import { runIdempotently } from "./idempotent-handler";
import { meterAddressRequest, meterAnonymousPartnerRequest, meterPublicRequest, meterSubLimit } from "./metering";
import { corsHeaders, preflightHeaders } from "./cors";
import { errorResponse, finishRequest, startRequest, toResponse, type RequestContext } from "./request-context";
import { registerEndpoint } from "./route-registry";
import { parseWith } from "./validation";

export const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export type DeclarableMethod = Exclude<HttpMethod, "HEAD" | "OPTIONS">;

export type { Reply } from "./request-context";
import type { Reply } from "./request-context";

export const ok = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body, headers });
export const created = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 201, body, headers });
export const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });

/**
 * The statuses of replies a handler returns itself (a 503 that carries the public health object, say; a 303
 * that sends a browser's form post back to its page).
 */
export type ReplyStatus = 200 | 201 | 202 | 204 | 303 | 503;

type Output<S, Fallback> = S extends z.ZodType ? z.output<S> : Fallback;

/** The handler's transaction: an idempotent endpoint's own kind, Prisma's by default; none otherwise. */
type TransactionOf<I, K> = I extends true ? (K extends TransactionKind<infer T> ? T : Prisma.TransactionClient) : undefined;

/** A route that requires a scope has a bearer-authenticated caller; any other has none. */
type TenantOf<S> = S extends PartnerScope ? Tenant : undefined;

/** The access token a bearer-authenticated caller sent: what it carries beyond the tenant. */
export interface BearerToken {
  scopes: ReadonlySet<string>;
  clientId: string;
  /** The token's `jti`. */
  tokenId: string;
}

/** An endpoint that authenticates an OAuth client gets the client; any other has none. */
type ClientOf<A> = A extends true ? AuthenticatedClient : undefined;

/** An endpoint that authenticates a publishable key gets the key's project and environment; any other has none. */
type PublishableKeyOf<W> = W extends true ? PublishableKeyCaller : undefined;

export interface HandlerInput<P, Q, B, T, C = Tenant, A = undefined, W = undefined> {
  request: Request;
  context: RequestContext;
  /** The project and environment of a bearer-authenticated partner route's caller. */
  tenant: C;
  /** The OAuth client that authenticated (RFC 6749 §2.3), on the endpoints that authenticate one. */
  client: A;
  /** The publishable key the body presented, on the endpoints that authenticate one. */
  publishableKey: W;
  /** The caller's access token, on a bearer-authenticated route (whose scopes a server of tools reads). */
  token: C extends Tenant ? BearerToken : undefined;
  /**
   * An idempotent endpoint runs its handler in one transaction, which also records the Idempotency-Key's
   * outcome: the handler's writes go here. Other endpoints have none (their services open their own).
   */
  transaction: T;
  params: P;
  query: Q;
  body: B;
}

export interface EndpointConfig<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  I extends boolean = false,
  K extends TransactionKind<unknown> | undefined = undefined,
  S extends PartnerScope | null | undefined = undefined,
  A extends boolean = false,
  W extends boolean = false,
> {
  /** One line for the API reference: the OpenAPI operation's summary (lib/openapi). */
  summary?: string;
  /** Further prose for the reference, in Markdown: what the endpoint does that its schemas cannot say. */
  description?: string;
  /**
   * The replies the handler returns, by status: the schema of each body (the serializer's zod schema, beside it in
   * lib/<domain>/), or `null` for a reply without a body. The reference documents them, and
   * tests/api/openapi checks each against what the route returns.
   */
  responses?: Partial<Record<ReplyStatus, z.ZodType | null>>;
  /**
   * Error codes the handler itself can answer (`not_found`, `conflict`, ...). Those the builder's guards imply
   * (authentication, scope, validation, idempotency, rate limits) are added by the reference itself.
   */
  errors?: readonly ErrorCode[];
  /**
   * Partner routes: the scope the bearer token must carry (spec 5.2). `null` for the OAuth endpoints, which take
   * no bearer token (they authenticate the client themselves, or are public). Required on the partner ring.
   */
  scope?: S;
  /**
   * Partner routes of a feature the platform enables per project (lib/projects/capabilities.ts): without it the
   * caller gets 403 `capability_denied`, checked with the scope, before any input is read, so the refusal is
   * never kept under an Idempotency-Key and spends no sub-limit.
   */
  capability?: ProjectCapability;
  /**
   * The OAuth endpoints that authenticate a client (scope `null`): such a request is metered per client address
   * before anything is read (CLIENT_AUTHENTICATION_LIMIT), then the client authenticates from the Authorization
   * header or the form, and a per-client `rateLimit` is spent only after that.
   */
  authenticatesClient?: A;
  /**
   * The apply widget's start: the body's `publishable_key` is authenticated once the body is parsed
   * (lib/keys/publishable.ts), and the handler gets its project and environment. Never with a bearer scope or
   * an OAuth client: a publishable key opens nothing else.
   */
  authenticatesPublishableKey?: W;
  /**
   * Browsers on every origin may call the endpoint: its answers and their preflight allow the caller's Origin.
   * Only for an endpoint no browser credential opens (no cookie is read; the caller presents a publishable key).
   */
  anyOrigin?: boolean;
  /** The route's own rate limit (spec 8), from the named catalogue (SUB_LIMITS), spent just before the handler. */
  rateLimit?: SubLimit;
  /**
   * A per-address bucket of the endpoint's own, spent at admission in place of its ring's (the public ring's
   * window; the site ring has none), so the two never drain each other: the public MCP server's (PUBLIC_MCP_LIMIT).
   * Only for endpoints without a bearer token or an OAuth client.
   */
  addressLimit?: RatePolicy;
  params?: P;
  query?: Q;
  body?: B;
  /** Body encoding; JSON unless stated (the OAuth endpoints take forms). */
  bodyFormat?: BodyFormat;
  /** Error body shape: the API envelope unless stated (the OAuth endpoints answer in RFC 6749 form). */
  errorFormat?: ErrorFormat;
  /**
   * Create-type partner POSTs: honour Idempotency-Key (spec 4.12) and run the handler in one transaction,
   * key or not. The handler must return a Reply.
   */
  idempotent?: I;
  /**
   * Top-level fields of an idempotent endpoint's reply that carry a secret shown once (spec 5.1: only a hash is
   * stored). The Idempotency-Key's record stores the reply without them, so a replay returns the object without
   * them and names them in `Idempotent-Withheld-Fields`.
   */
  secretFields?: readonly string[];
  /**
   * The idempotent handler's kind of transaction, when not Prisma's: the application create's batched transaction
   * on the fast lane, which is measured (docs/performance.md); a deferred one (lib/deferred-transaction.ts), opened
   * only when the handler first writes, for a handler that waits on a slow provider before it writes.
   */
  transactionKind?: K;
  /** A tighter body cap than BODY_LIMIT_BYTES, in bytes (public intake forms). */
  bodyLimitBytes?: number;
  /**
   * A body that cannot be read or fails its schema reaches the handler as `null` instead of an error (give a
   * schema that accepts null): for fail-open endpoints (public consent) that answer every body the same way.
   */
  bodyFailsOpen?: boolean;
  /**
   * The response body is a long-lived stream (server-sent events): the request's concurrency slot is taken for
   * up to STREAM_MAX_SECONDS and held until the body ends or the client goes, so open streams count against
   * the project's concurrent requests (spec 8) like any other request in flight.
   */
  streams?: boolean;
  /** Sandbox test helpers: for a live token the route does not exist (404 `route_not_found`), before any input is read. */
  sandboxOnly?: boolean;
  handler: (
    input: HandlerInput<Output<P, Record<string, string>>, Output<Q, Record<string, never>>, Output<B, undefined>, TransactionOf<I, K>, TenantOf<S>, ClientOf<A>, PublishableKeyOf<W>>,
  ) => Promise<Reply | Response> | Reply | Response;
}

/** An endpoint with its types erased, ready for the builder. */
export interface Endpoint {
  readonly config: EndpointConfig<
    z.ZodType | undefined,
    z.ZodType | undefined,
    z.ZodType | undefined,
    boolean,
    TransactionKind<unknown> | undefined,
    PartnerScope | null | undefined,
    boolean,
    boolean
  >;
}

/** Declares one method's endpoint; exists so TypeScript infers the handler's input from the config. */
export function endpoint<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  I extends boolean = false,
  K extends TransactionKind<unknown> | undefined = undefined,
  S extends PartnerScope | null | undefined = undefined,
  A extends boolean = false,
  W extends boolean = false,
>(config: EndpointConfig<P, Q, B, I, K, S, A, W>): Endpoint {
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
  if (!declared.body && !METHODS_WITH_BODY.has(request.method)) return undefined;
  const limit = Math.min(declared.bodyLimitBytes ?? Number.POSITIVE_INFINITY, config().BODY_LIMIT_BYTES);
  try {
    const raw = await readBody(request, { format: declared.bodyFormat ?? "json", limit, ring: context.ring });
    return parseWith(declared.body ?? NO_BODY, raw);
  } catch (error) {
    if (declared.bodyFailsOpen && error instanceof ApiError) return null;
    throw error;
  }
}

async function runEndpoint(ring: Ring, path: string, target: Endpoint, request: Request, routeContext: NextRouteContext): Promise<Response> {
  const declared = target.config;
  const context = startRequest(request, ring, path);
  let response: Response;
  let release = nothingToRelease;
  try {
    const admission = await admit(ring, {
      scope: declared.scope ?? null,
      authenticatesClient: declared.authenticatesClient ?? false,
      streams: declared.streams ?? false,
      addressLimit: declared.addressLimit ?? null,
    }, request, context);
    release = admission.release;
    const principal = admission.principal;
    if (declared.sandboxOnly && principal) assertSandbox(principal);
    if (declared.capability && principal) await assertCapability(principal.projectId, declared.capability);
    const params = await parseParams(declared.params, routeContext);
    const query = parseWith(declared.query ?? NO_QUERY, searchParamsToObject(context.url.searchParams));
    const body = await parseRequestBody(declared, request, context);
    const client = declared.authenticatesClient ? await authenticateClient({ authorization: request.headers.get("authorization"), form: body as ClientCredentialsInput }) : null;
    const publishableKey = declared.authenticatesPublishableKey ? await authenticatePublishableKeyOf(body, context) : null;
    const tenant: Tenant | undefined = principal
      ? { projectId: principal.projectId, environment: principal.environment, sandboxClockOffsetDays: principal.sandboxClockOffsetDays }
      : undefined;
    const token: BearerToken | undefined = principal ? { scopes: principal.scopes, clientId: principal.clientId, tokenId: principal.tokenId } : undefined;
    const handlerInput = { request, context, tenant, token, client: client ?? undefined, publishableKey: publishableKey ?? undefined, params, query, body, transaction: undefined };
    const meterOperation = () => meterSubLimit(declared.rateLimit, { principal, client, publishableKey, request }, context);
    // The handler's database work counts against its caller's project's share of the pool (lib/pool-bulkhead.ts).
    const forCaller = <T>(work: () => T): T => (principal ? runForProject(principal.projectId, work) : work());
    if (declared.idempotent) {
      response = await forCaller(() =>
        runIdempotently(declared.handler, handlerInput, {
          tenant,
          transactionKind: declared.transactionKind,
          secretFields: declared.secretFields ?? [],
          beforeHandler: meterOperation,
        }),
      );
    } else {
      await meterOperation();
      response = toResponse(await forCaller(() => declared.handler(handlerInput as never)));
      if (declared.streams) {
        response = releasingWhenStreamEnds(response, release, request.signal);
        release = nothingToRelease;
      }
    }
  } catch (error) {
    response = errorResponse(error, context, declared.errorFormat);
  } finally {
    await release();
  }
  return finishWithCors(ring, request, response, context, declared.anyOrigin);
}

/** The key a parsed body presents as `publishable_key` (the endpoint's schema requires it), authenticated. */
async function authenticatePublishableKeyOf(body: unknown, context: RequestContext): Promise<PublishableKeyCaller> {
  const presented = (body as { publishable_key?: unknown } | undefined)?.publishable_key;
  if (typeof presented !== "string") throw new ApiError("missing_api_key", { message: "Send your publishable key (pk_sandbox_… or pk_live_…) as publishable_key." });
  const caller = await authenticatePublishableKey(presented);
  context.logFields.project_id = caller.tenant.projectId;
  context.logFields.environment = caller.tenant.environment;
  return caller;
}

/** The response, whose body gives the request's slot back when it ends, fails or is cancelled, or the client goes. */
function releasingWhenStreamEnds(response: Response, release: () => Promise<void>, clientGone: AbortSignal): Response {
  let released = false;
  const releaseOnce = () => {
    if (released) return;
    released = true;
    void release();
  };
  if (!response.body) {
    releaseOnce();
    return response;
  }
  clientGone.addEventListener("abort", releaseOnce);
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (!done) return controller.enqueue(value);
        controller.close();
      } catch (error) {
        controller.error(error);
      }
      releaseOnce();
    },
    cancel(reason) {
      releaseOnce();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

function finishWithCors(ring: Ring, request: Request, response: Response, context: RequestContext, anyOrigin = false): Response {
  for (const [name, value] of Object.entries(corsHeaders(ring, request.method, request.headers.get("origin"), anyOrigin))) response.headers.set(name, value);
  return finishRequest(response, context);
}

/**
 * A partner endpoint must say which scope it needs (or `null`); the public ring has none, and the site has one
 * bearer-authenticated endpoint (the partner MCP server at /partner/mcp). An endpoint that
 * authenticates an OAuth client takes no bearer token, nor does one that authenticates a publishable key, and
 * no bearer route is open to every origin. A capability belongs to the caller's project, so only a
 * bearer route can require one. Only an idempotent endpoint stores replies, so only it may name fields to
 * withhold from them. A per-address bucket replaces the ring's, which a caller with credentials never has.
 */
function assertGuardsDeclared(ring: Ring, key: string, target: Endpoint): void {
  const { scope, authenticatesClient } = target.config;
  if (ring === "partner" && scope === undefined) throw new Error(`Partner endpoint "${key}" declares no scope`);
  if (ring === "public" && scope) throw new Error(`Endpoint "${key}" is on the public ring, which takes no credential: it cannot require a scope`);
  if (authenticatesClient && scope) throw new Error(`Endpoint "${key}" authenticates an OAuth client: it cannot also require a bearer scope`);
  if (target.config.capability && !scope) throw new Error(`Endpoint "${key}" requires a capability but no bearer scope: there is no project to check`);
  if (target.config.secretFields?.length && !target.config.idempotent) throw new Error(`Endpoint "${key}" declares secretFields but is not idempotent`);
  if (target.config.addressLimit && (scope || authenticatesClient)) throw new Error(`Endpoint "${key}" has a caller to meter: it cannot take a per-address bucket instead`);
  if (target.config.authenticatesPublishableKey && (scope !== undefined || authenticatesClient)) throw new Error(`Endpoint "${key}" authenticates a publishable key: it takes no other credential`);
  if (target.config.anyOrigin && (ring === "partner" || scope)) throw new Error(`Endpoint "${key}" takes a bearer token: it cannot be open to every origin`);
}

/**
 * A fixed error (404, 405) that still counts against the caller's per-address limit on metered rings, or against
 * the route's own bucket when its endpoints have one.
 */
function answerWith(ring: Ring, path: string | null, error: () => ApiError, addressLimit?: RatePolicy): RouteHandler {
  return async (request) => {
    const context = startRequest(request, ring, path);
    try {
      if (addressLimit) await meterAddressRequest(addressLimit, request, context);
      else if (ring === "public") await meterPublicRequest(request, context);
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
  const ownBucket = Object.values(endpoints).find((target) => target?.config.addressLimit)?.config.addressLimit;
  const anyOriginMethods = new Set(declared.filter((method) => endpoints[method]?.config.anyOrigin));
  const methodNotAllowed = answerWith(ring, path, () => new ApiError("method_not_allowed", { headers: { Allow: allowed } }), ownBucket);
  const handlerFor = (method: DeclarableMethod): RouteHandler => {
    const target = endpoints[method];
    if (!target) return methodNotAllowed;
    assertGuardsDeclared(ring, `${method} ${path}`, target);
    registerEndpoint({ ring, method, path, config: target.config });
    return (request, context) => runEndpoint(ring, path, target, request, context);
  };
  const get = handlerFor("GET");
  return {
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
  };
}

/** Every method of an unmatched path under a ring answers 404 `route_not_found`. */
export function unmatchedRoute(ring: Ring): RouteHandlers {
  const notFound = answerWith(ring, null, () => new ApiError("route_not_found"));
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, notFound])) as RouteHandlers;
}
