// Every kind of caller an endpoint may take (EndpointAuth), in one table: when and how the caller is
// authenticated and what that can refuse, the rings that may declare it, the per-address meter it is admitted
// by, the sub-limit it can be metered by, whether any origin may call it, and how the API reference shows it.
// A new kind of caller is one more row, and the compiler names every column it must fill; nothing else branches
// on the kind. A bearer endpoint that also takes a person (`person`) hands a token that is not a JWT to the
// person's row.
import { dashboardMemberOrThrow, dashboardParamsOf, type DashboardMember } from "../dashboard/access";
import { ApiError, type ErrorCode, type Ring } from "../errors";
import { authenticatePublishableKey, type PublishableKeyCaller } from "../keys/publishable";
import { authenticateClient, type AuthenticatedClient, type ClientCredentialsInput } from "../oauth/client-authentication";
import { signedInUserIdOf } from "../oidc/app-session";
import { ANONYMOUS_PARTNER_LIMIT, CLIENT_AUTHENTICATION_LIMIT, PERSON_ADDRESS_LIMIT, PERSON_LIMIT, PUBLIC_LIMIT, type RatePolicy, type SubLimit } from "../ratelimit/policies";
import type { Reader, Tenant } from "../tenant";
import { clientAddress } from "../wire/client-address";
import { assertFormFromOurSite, CSRF_COOKIE, CSRF_HEADER, csrfCookieOf, hasMatchingCsrfToken } from "../wire/csrf";
import { authenticatePartnerToken, authenticatePersonToken, looksLikeJwt, presentedBearerToken, type Principal, type SignedInPerson } from "./auth";
import type { EndpointAuth } from "./endpoint";
import { isOperatorRequest } from "./operator-access";

/** Who calls, once authenticated: one member per kind of EndpointAuth. */
export type Caller =
  | { kind: "bearer"; principal: Principal }
  | { kind: "person"; person: SignedInPerson }
  | { kind: "client"; client: AuthenticatedClient }
  | { kind: "publishable_key"; key: PublishableKeyCaller }
  | { kind: "operator" }
  | { kind: "site_visitor" }
  | { kind: "dashboard_member"; member: DashboardMember };

/** What an authentication reads: the request, and its body once decoded and its path parameters once parsed. */
export interface Presented {
  request: Request;
  body: unknown;
  params: unknown;
}

/** The callers an endpoint of each kind may be called by: a bearer endpoint that takes a person, by a person too. */
interface CallersOf {
  bearer: Extract<Caller, { kind: "bearer" | "person" }>;
  person: Extract<Caller, { kind: "person" }>;
  client: Extract<Caller, { kind: "client" }>;
  publishable_key: Extract<Caller, { kind: "publishable_key" }>;
  operator: Extract<Caller, { kind: "operator" }>;
  site_visitor: Extract<Caller, { kind: "site_visitor" }>;
  dashboard_member: Extract<Caller, { kind: "dashboard_member" }>;
  none: never;
}

interface AuthKind<A extends EndpointAuth, C extends Caller> {
  /** The rings on which an endpoint may take this kind of caller. */
  rings: readonly Ring[];
  /**
   * When the caller is known: from the request's headers, before any input is read; from the body, once it is
   * decoded; or never (no credential).
   */
  authenticatedFrom: "headers" | "body" | null;
  authenticate(presented: Presented, auth: A): Promise<C>;
  /** The project and environment the caller acts for, if any: its `tenant` handed to the handler, and its clock. */
  tenantOf(caller: C): Tenant | undefined;
  /** Whose objects the caller reads (the handler's `reader`), on endpoints a person may call. */
  readerOf(caller: C): Reader | undefined;
  /** The codes authenticating this kind of caller can raise. */
  refusals: readonly ErrorCode[];
  /** A refused request is metered per client address by this policy before its refusal is sent, if any. */
  meteredWhenRefused?: RatePolicy;
  /** The per-address policy the request is metered by before anything else, if any. */
  addressPolicy(ring: Ring, auth: A): RatePolicy | null;
  /** What a sub-limit can be spent by besides the client address (`per`), and the caller's key in its bucket. */
  subLimit: { per: SubLimit["per"]; keyOf(caller: C): string } | null;
  /** Browsers on every origin may call it (CORS). */
  anyOrigin: boolean;
  /** The OpenAPI security requirements. */
  security(auth: A): Record<string, string[]>[];
  /** The reference's facts about the caller, and the meters it is admitted by (`describe` spells a policy). */
  facts(auth: A): string[];
  limits(ring: Ring, auth: A, describe: (policy: RatePolicy) => string): string[];
  /** The operation's OpenAPI extensions (x-scope, ...). */
  extensions(auth: A): Record<string, unknown>;
}

const noCaller = (): Promise<never> => Promise.reject(new Error("This kind of endpoint authenticates no caller"));
const ownOrRingAddressPolicy = (ring: Ring, auth: { addressLimit?: RatePolicy }): RatePolicy | null => auth.addressLimit ?? (ring === "public" ? PUBLIC_LIMIT : null);

const bearerTenant = (principal: Principal): Tenant => ({ projectId: principal.projectId, environment: principal.environment, sandboxClockOffsetDays: principal.sandboxClockOffsetDays });

export const AUTH_KINDS: { [K in EndpointAuth["kind"]]: AuthKind<Extract<EndpointAuth, { kind: K }>, CallersOf[K]> } = {
  bearer: {
    rings: ["partner", "site"],
    authenticatedFrom: "headers",
    async authenticate({ request }, auth) {
      const token = presentedBearerToken(request);
      if (auth.person && !looksLikeJwt(token)) return { kind: "person", person: await authenticatePersonToken(token) };
      return { kind: "bearer", principal: await authenticatePartnerToken(token) };
    },
    tenantOf: (caller) => (caller.kind === "bearer" ? bearerTenant(caller.principal) : undefined),
    readerOf: (caller) => (caller.kind === "bearer" ? bearerTenant(caller.principal) : caller.person.holder),
    meteredWhenRefused: ANONYMOUS_PARTNER_LIMIT,
    refusals: ["unauthenticated", "invalid_api_key", "token_expired", "token_revoked", "environment_mismatch", "audience_mismatch"],
    addressPolicy: () => null,
    subLimit: { per: "project", keyOf: (caller) => (caller.kind === "bearer" ? `${caller.principal.projectId}:${caller.principal.environment}` : caller.person.userId) },
    anyOrigin: false,
    security: (auth): Record<string, string[]>[] => [{ partnerToken: [auth.scope] }, ...(auth.person ? [{ signInToken: [auth.person] }] : [])],
    facts: (auth) => [
      `**Scope:** \`${auth.scope}\`.`,
      ...(auth.person ? [personFact(auth.person)] : []),
      ...(auth.capability ? [`**Capability:** your project needs \`${auth.capability}\`, which we enable on request; without it, 403 \`capability_denied\`.`] : []),
      ...(auth.sandboxOnly ? ["**Sandbox only:** with a live token this route does not exist (404 `route_not_found`)."] : []),
    ],
    limits: (_ring, auth, describe) => [
      "Your project's bucket: the tier's sustained rate, burst and concurrent requests (see Rate limits).",
      ...(auth.person ? personLimits(describe) : []),
    ],
    extensions: (auth) => ({
      "x-scope": auth.scope,
      ...(auth.person ? { "x-person-scope": auth.person } : {}),
      ...(auth.capability ? { "x-capability": auth.capability } : {}),
      ...(auth.sandboxOnly ? { "x-sandbox-only": true } : {}),
    }),
  },
  person: {
    rings: ["partner"],
    authenticatedFrom: "headers",
    authenticate: async ({ request }) => ({ kind: "person", person: await authenticatePersonToken(presentedBearerToken(request)) }),
    tenantOf: () => undefined,
    readerOf: ({ person }) => person.holder,
    meteredWhenRefused: ANONYMOUS_PARTNER_LIMIT,
    refusals: ["unauthenticated"],
    addressPolicy: () => null,
    subLimit: { per: "user", keyOf: ({ person }) => person.userId },
    anyOrigin: false,
    security: (auth) => [{ signInToken: [auth.scope] }],
    facts: (auth) => [personFact(auth.scope)],
    limits: (_ring, _auth, describe) => personLimits(describe),
    extensions: (auth) => ({ "x-person-scope": auth.scope }),
  },
  client: {
    rings: ["partner", "site"],
    authenticatedFrom: "body",
    // An empty body is an empty form (oauthFormSchema).
    authenticate: async ({ request, body }) => ({ kind: "client", client: await authenticateClient({ authorization: request.headers.get("authorization"), form: (body ?? {}) as ClientCredentialsInput }) }),
    tenantOf: () => undefined,
    readerOf: () => undefined,
    refusals: ["invalid_client"],
    addressPolicy: () => CLIENT_AUTHENTICATION_LIMIT,
    subLimit: { per: "client", keyOf: ({ client }) => client.clientId },
    anyOrigin: false,
    // Client authentication may also come in the form, which OpenAPI cannot name: hence the empty alternative.
    security: () => [{ clientSecretBasic: [] }, {} as Record<string, string[]>],
    facts: () => ["**Client authentication:** HTTP Basic with your client id and a secret key, or `client_id` and `client_secret` in the form."],
    limits: (_ring, _auth, describe) => [`${describe(CLIENT_AUTHENTICATION_LIMIT)} per client address, before the client authenticates.`],
    extensions: () => ({}),
  },
  publishable_key: {
    rings: ["site"],
    authenticatedFrom: "body",
    authenticate: async ({ body }) => ({ kind: "publishable_key", key: await authenticatePublishableKeyOf(body) }),
    tenantOf: ({ key }) => key.tenant,
    readerOf: () => undefined,
    refusals: ["missing_api_key", "invalid_api_key", "key_revoked", "account_suspended"],
    addressPolicy: ownOrRingAddressPolicy,
    subLimit: { per: "publishable_key", keyOf: ({ key }) => key.keyId },
    anyOrigin: true,
    security: () => [],
    facts: () => [
      "**Publishable key:** `publishable_key` in the body (`pk_sandbox_…` or `pk_live_…`); a secret key is refused.",
      "**CORS:** any origin may call it from a browser (no credentials); the answer allows the caller's `Origin`.",
    ],
    limits: () => [],
    extensions: () => ({}),
  },
  operator: {
    rings: ["site"],
    authenticatedFrom: "headers",
    async authenticate({ request }: Presented) {
      // To anyone but an operator the route does not exist.
      if (!isOperatorRequest(request)) throw new ApiError("route_not_found");
      return { kind: "operator" as const };
    },
    tenantOf: () => undefined,
    readerOf: () => undefined,
    refusals: ["route_not_found"],
    addressPolicy: () => null,
    subLimit: null,
    anyOrigin: false,
    security: () => [],
    facts: () => [],
    limits: () => [],
    extensions: () => ({}),
  },
  site_visitor: {
    rings: ["site"],
    authenticatedFrom: "headers",
    async authenticate({ request }: Presented) {
      if (!hasMatchingCsrfToken(request)) throw new ApiError("csrf_token_invalid");
      return { kind: "site_visitor" as const };
    },
    tenantOf: () => undefined,
    readerOf: () => undefined,
    refusals: ["csrf_token_invalid"],
    addressPolicy: (_ring, auth) => auth.addressLimit,
    subLimit: null,
    anyOrigin: false,
    security: () => [],
    facts: () => [
      `**CSRF double-submit:** send the \`${CSRF_COOKIE}\` cookie our pages set and its value in the \`${CSRF_HEADER}\` header; a missing or different token is 403.`,
      "**Same origin only:** no CORS; the cookie is `SameSite=Strict`.",
    ],
    limits: () => [],
    extensions: () => ({}),
  },
  dashboard_member: {
    rings: ["site"],
    // The token is a field of the form, so the form is decoded first.
    authenticatedFrom: "body",
    async authenticate({ request, body, params }, auth) {
      const formToken = (body as { csrf_token?: unknown } | undefined)?.csrf_token;
      assertFormFromOurSite({
        formToken: typeof formToken === "string" ? formToken : undefined,
        cookieToken: csrfCookieOf(request),
        origin: request.headers.get("origin"),
        host: request.headers.get("host"),
      });
      const userId = await signedInUserIdOf(request);
      return { kind: "dashboard_member", member: await dashboardMemberOrThrow({ userId, params: dashboardParamsOf(params), action: auth.action }) };
    },
    tenantOf: ({ member }) => member.tenant,
    readerOf: () => undefined,
    refusals: ["csrf_token_invalid", "unauthenticated", "not_found", "role_forbidden"],
    addressPolicy: (_ring, auth) => auth.addressLimit,
    subLimit: null,
    anyOrigin: false,
    security: () => [],
    facts: (auth) => [
      `**Signed-in team member** with permission \`${auth.action}\` (docs/dashboard.md, "Teams and roles"): the dashboard's sign-in session cookie; not signed in is 401, outside the project's team 404, a role without the permission 403 \`role_forbidden\`.`,
      `**CSRF token in the form:** \`csrf_token\` echoes the \`${CSRF_COOKIE}\` cookie our pages set, posted from our site; else 403 \`csrf_token_invalid\`.`,
    ],
    limits: () => [],
    extensions: (auth) => ({ "x-dashboard-action": auth.action }),
  },
  none: {
    rings: ["partner", "public", "site"],
    authenticatedFrom: null,
    authenticate: noCaller,
    tenantOf: () => undefined,
    readerOf: () => undefined,
    refusals: [],
    addressPolicy: ownOrRingAddressPolicy,
    subLimit: null,
    anyOrigin: false,
    security: () => [],
    facts: () => [],
    limits: (ring, _auth, describe) => (ring === "partner" ? [`${describe(ANONYMOUS_PARTNER_LIMIT)} per client address.`] : []),
    extensions: () => ({}),
  },
};

function personFact(scope: string): string {
  return `**People:** a person's access token from our sign-in provider (spec 4.10) with \`${scope}\` also calls it, and sees only their company's accounts in their environment (docs/sign-in.md).`;
}

function personLimits(describe: (policy: RatePolicy) => string): string[] {
  return [`A person's requests: ${describe(PERSON_LIMIT)} per user, and ${describe(PERSON_ADDRESS_LIMIT)} per client address.`];
}

const rowOf = (kind: EndpointAuth["kind"]) => AUTH_KINDS[kind] as AuthKind<EndpointAuth, Caller>;

/** The row of `auth`'s kind, typed for `auth` itself. */
export function authKindOf(auth: EndpointAuth): AuthKind<EndpointAuth, Caller> {
  return rowOf(auth.kind);
}

/** The key `caller` spends a sub-limit `per` under (route.ts checks at declaration that its kind can be). */
export function subLimitKeyOf(per: SubLimit["per"], caller: Caller | null, request: Request): string {
  if (per === "address") return clientAddress(request);
  const subLimit = caller ? rowOf(caller.kind).subLimit : null;
  if (!caller || subLimit?.per !== per) throw new Error(`A per-${per} sub-limit needs an endpoint whose caller is metered per ${per}`);
  return subLimit.keyOf(caller);
}

/** The key a decoded body presents as `publishable_key` (the endpoint's schema requires it), authenticated. */
async function authenticatePublishableKeyOf(body: unknown): Promise<PublishableKeyCaller> {
  const presented = (body as { publishable_key?: unknown } | undefined)?.publishable_key;
  if (typeof presented !== "string") throw new ApiError("missing_api_key", { message: "Send your publishable key (pk_sandbox_… or pk_live_…) as publishable_key." });
  return authenticatePublishableKey(presented);
}

/** The project and environment the caller acts for, if it has one: a bearer's, or a publishable key's. */
export function tenantOf(caller: Caller | null): Tenant | undefined {
  return caller ? rowOf(caller.kind).tenantOf(caller) : undefined;
}

export function principalOf(caller: Caller | null): Principal | null {
  return caller?.kind === "bearer" ? caller.principal : null;
}

export function personOf(caller: Caller | null): SignedInPerson | null {
  return caller?.kind === "person" ? caller.person : null;
}

/** Whose objects the caller reads, on endpoints a person may call. */
export function readerOf(caller: Caller | null): Reader | undefined {
  return caller ? rowOf(caller.kind).readerOf(caller) : undefined;
}
