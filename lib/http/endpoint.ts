// What a route file declares for one method: everything that guards the endpoint (who may call it, its limits,
// its schemas, idempotency) and the handler that calls one service. The route builder (route.ts) runs the steps
// (steps.ts) these declarations select; the API reference (lib/openapi) reads the same declarations.
import type { z } from "zod";
import type { DashboardMember } from "../dashboard/access";
import type { TransactionKind } from "../db";
import type { ErrorCode, ErrorFormat } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import type { PublishableKeyCaller } from "../keys/publishable";
import type { BearerToken } from "../oauth/access-tokens";
import type { AuthenticatedClient } from "../oauth/client-authentication";
import type { PartnerScope } from "../oauth/scopes";
import type { PersonScope } from "../oidc/scopes";
import type { ProjectCapability } from "../projects/capabilities";
import type { DashboardAction } from "../team/permissions";
import type { RatePolicy, SubLimit } from "../ratelimit/policies";
import type { Reader, Tenant } from "../tenant";
import type { BodyFormat } from "./body";
import type { Reply, ReplyStatus } from "./reply";
import type { RequestContext } from "../wire/request-context";

export const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export type DeclarableMethod = Exclude<HttpMethod, "HEAD" | "OPTIONS">;

/**
 * Who may call the endpoint, and how the caller proves it: one kind per kind of caller, so a new kind of caller is
 * a new member here and a new row of AUTH_KINDS (auth-kinds.ts), never a new flag beside the others.
 */
export type EndpointAuth =
  /**
   * A partner's access token (spec 5.2) carrying `scope`. The project's bucket is spent before the scope is
   * checked. `capability`: a feature the platform enables per project (lib/projects/capabilities.ts), else 403
   * `capability_denied`, checked before any input is read, so the refusal is never kept under an
   * Idempotency-Key and spends no sub-limit. `sandboxOnly`: test helpers, which for a live token do not exist
   * (404 `route_not_found`). `person`: the endpoint also takes a person's sign-in access token carrying this
   * scope (the `person` kind's caller, below), told from a partner token by its shape and never taken for one.
   */
  | { kind: "bearer"; scope: PartnerScope; capability?: ProjectCapability; sandboxOnly?: true; person?: PersonScope }
  /**
   * A person signed in through our sign-in provider (spec 4.10), calling with its access token carrying `scope`:
   * an account holder (lib/tenant.ts), metered per user and per client address. The accounts reads take it beside
   * a partner token (`bearer` with `person`); no endpoint takes it alone yet.
   */
  | { kind: "person"; scope: PersonScope }
  /**
   * An OAuth client (RFC 6749 §2.3) from the Authorization header or the form: the request is metered per client
   * address before anything is read (CLIENT_AUTHENTICATION_LIMIT), and a per-client `rateLimit` only once the
   * client has authenticated.
   */
  | { kind: "client" }
  /**
   * The body's `publishable_key` (lib/keys/publishable.ts), authenticated once the body is parsed: the apply
   * widget's start, which a partner's page calls with no credential of the browser's, so browsers on every
   * origin may call it. A publishable key opens nothing else.
   */
  | { kind: "publishable_key"; addressLimit?: RatePolicy }
  /**
   * An operator of this process (lib/http/operator-access.ts): to anyone else the route does not exist (404
   * `route_not_found`).
   */
  | { kind: "operator" }
  /**
   * A visitor's browser on one of our own site's pages, proving it with the CSRF double-submit (spec 5.3,
   * lib/wire/csrf.ts: the `svc_csrf` cookie the pages set, echoed in `X-CSRF-Token`), else 403
   * `csrf_token_invalid`. Spends `addressLimit` per client address before the token is checked.
   */
  | { kind: "site_visitor"; addressLimit: RatePolicy }
  /**
   * A member of the project's team posting one of the dashboard's forms (docs/dashboard.md), checked in this order
   * once the form is decoded: its `csrf_token` echoes the `svc_csrf` cookie and it comes from our site
   * (lib/wire/csrf.ts), else 403 `csrf_token_invalid`; the next-auth session names a signed-in person, else 401
   * `unauthenticated`; they are in the team of the project in the address (/dashboard/{project}/{environment}/…),
   * else 404 `not_found`; their role may do `action` (lib/team/permissions.ts), else 403 `role_forbidden`. Spends
   * `addressLimit` per client address first.
   */
  | { kind: "dashboard_member"; action: DashboardAction; addressLimit: RatePolicy }
  /**
   * No credential. The ring decides the meter (the public ring's per-address window; none on the site and for
   * the partner ring's public OAuth keys), unless the endpoint has an `addressLimit` of its own, spent in place
   * of its ring's so the two never drain each other (PUBLIC_MCP_LIMIT).
   */
  | { kind: "none"; addressLimit?: RatePolicy };

type Output<S, Fallback> = S extends z.ZodType ? z.output<S> : Fallback;

/** The handler's transaction: an idempotent endpoint's own kind, Prisma's by default; none otherwise. */
type TransactionOf<I, K> = I extends true ? (K extends TransactionKind<infer T> ? T : Prisma.TransactionClient) : undefined;

/** What each kind of caller hands the handler: its tenant, and its token, OAuth client, publishable key or team member. */
type CallerOf<A extends EndpointAuth> = {
  /** The project and environment the caller acts for: a bearer's, a publishable key's or a team member's (none for a person). */
  tenant: A extends { kind: "bearer"; person: PersonScope } ? Tenant | undefined : A extends { kind: "bearer" | "publishable_key" | "dashboard_member" } ? Tenant : undefined;
  /** Whose objects the caller reads, on endpoints a person may call: the bearer's tenant, or the person's account holder. */
  reader: A extends { person: PersonScope } | { kind: "person" } ? Reader : undefined;
  /** The caller's access token (whose scopes a server of tools reads), when a partner calls. */
  token: A extends { kind: "bearer"; person: PersonScope } ? BearerToken | undefined : A extends { kind: "bearer" } ? BearerToken : undefined;
  /** The OAuth client that authenticated. */
  client: A extends { kind: "client" } ? AuthenticatedClient : undefined;
  /** The publishable key the body presented. */
  publishableKey: A extends { kind: "publishable_key" } ? PublishableKeyCaller : undefined;
  /** The dashboard's signed-in team member, allowed the endpoint's action. */
  member: A extends { kind: "dashboard_member" } ? DashboardMember : undefined;
};

export type HandlerInput<P, Q, B, T, A extends EndpointAuth = EndpointAuth> = CallerOf<A> & {
  request: Request;
  context: RequestContext;
  /**
   * The request's time, taken once when it arrived and on its tenant's clock (a sandbox project's test clock,
   * lib/tenant-clock.ts) when the caller has a tenant: what the request's validations reckon with.
   */
  now: Date;
  /**
   * An idempotent endpoint runs its handler in one transaction, which also records the Idempotency-Key's
   * outcome: the handler's writes go here. Other endpoints have none (their services open their own).
   */
  transaction: T;
  params: P;
  query: Q;
  body: B;
};

export interface EndpointConfig<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  I extends boolean = false,
  K extends TransactionKind<unknown> | undefined = undefined,
  A extends EndpointAuth = EndpointAuth,
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
   * Error codes the handler itself can answer (`not_found`, `conflict`, ...). Those of the builder's steps
   * (authentication, scope, validation, idempotency, rate limits) each step declares (steps.ts).
   */
  errors?: readonly ErrorCode[];
  /** Who may call the endpoint. */
  auth: A;
  /** The route's own rate limit (spec 8), from the named catalogue (SUB_LIMITS), spent just before the handler. */
  rateLimit?: SubLimit;
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
  handler: (
    input: HandlerInput<Output<P, Record<string, string>>, Output<Q, Record<string, never>>, Output<B, undefined>, TransactionOf<I, K>, A>,
  ) => Promise<Reply | Response> | Reply | Response;
}

/** An endpoint's config with its types erased, as the builder's steps and the reference read it. */
export type DeclaredConfig = EndpointConfig<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, boolean, TransactionKind<unknown> | undefined, EndpointAuth>;

/** An endpoint with its types erased, ready for the builder. */
export interface Endpoint {
  readonly config: DeclaredConfig;
}

/** Declares one method's endpoint; exists so TypeScript infers the handler's input from the config. */
export function endpoint<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  I extends boolean = false,
  K extends TransactionKind<unknown> | undefined = undefined,
  const A extends EndpointAuth = EndpointAuth,
>(config: EndpointConfig<P, Q, B, I, K, A>): Endpoint {
  return { config: config as unknown as DeclaredConfig };
}

/** The own per-address bucket of an endpoint whose caller has no credential of the request's to meter. */
export function addressLimitOf(auth: EndpointAuth): RatePolicy | undefined {
  return "addressLimit" in auth ? auth.addressLimit : undefined;
}
