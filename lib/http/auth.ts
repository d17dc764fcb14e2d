// The bearer token's checks, which the steps run (auth-kinds.ts, admission.ts): authenticate the access token,
// then check the route's scope, the sandbox, and the environment of the objects a request touches.
import { SCOPE_SPELLINGS, type PartnerScope } from "../oauth/scopes";
import { TokenRejectedError, verifyAccessToken } from "../oauth/access-tokens";
import { isRevokedByProject, readProjectState } from "../projects/project-state";
import type { ProjectLimitSettings } from "../ratelimit/policies";
import { config } from "../env";
import { ApiError, type ErrorCode } from "../errors";
import { personOfAccessToken, type SignedInPerson } from "../oidc/people";
import type { PersonScope } from "../oidc/scopes";
import type { TenantEnvironment } from "../tenant";

export interface Principal {
  projectId: string;
  clientId: string;
  environment: TenantEnvironment;
  livemode: boolean;
  scopes: ReadonlySet<string>;
  tokenId: string;
  limitSettings: ProjectLimitSettings;
  /** The project's sandbox test-clock offset, read with its state (0 in live: live time is real time). */
  sandboxClockOffsetDays: number;
}

/**
 * A 401's challenge names the protected-resource metadata (RFC 9728, section 5.1), where a client such as an MCP
 * client finds the authorization server to get a token from.
 */
function rejected(code: ErrorCode, description: string): ApiError {
  const metadata = `${config().HUB_URL}/.well-known/oauth-protected-resource`;
  return new ApiError(code, {
    message: description,
    headers: { "WWW-Authenticate": `Bearer realm="partner", resource_metadata="${metadata}", error="invalid_token", error_description="${description}"` },
  });
}

const TOKEN_ENDPOINT = "POST /partner/v1/oauth/token";

/**
 * A credential of ours that is not an access token, sent where one belongs (as the bearer token or as the
 * whole header): the answer says what to send instead. Checked by prefix alone, before any verification.
 */
function misplacedCredential(header: string): ApiError | null {
  const credential = header.trim().replace(/^Bearer\s+/i, "");
  if (/^sk_(sandbox|live)_/.test(credential)) {
    return rejected(
      "unauthenticated",
      `A secret key cannot call the API directly: exchange it for an access token at ${TOKEN_ENDPOINT} (grant_type=client_credentials, your client_id and this key as client_secret), then send Authorization: Bearer <access_token>.`,
    );
  }
  if (/^pk_(sandbox|live)_/.test(credential)) {
    return rejected(
      "unauthenticated",
      `A publishable key cannot call the partner API: it only starts the hosted apply widget in a browser. Get an access token at ${TOKEN_ENDPOINT} with your client_id and a secret key (sk_...), then send Authorization: Bearer <access_token>.`,
    );
  }
  if (credential.startsWith("whsec_")) {
    return rejected("unauthenticated", `A webhook signing secret only verifies deliveries; it cannot call the API. Get an access token at ${TOKEN_ENDPOINT} with your client_id and a secret key (sk_...).`);
  }
  return null;
}

/** The bearer token the Authorization header presents, refusing our other credentials and a malformed header. */
export function presentedBearerToken(request: Request): string {
  const header = request.headers.get("authorization");
  const misplaced = header ? misplacedCredential(header) : null;
  if (misplaced) throw misplaced;
  const match = header ? /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim()) : null;
  if (!match) throw rejected("unauthenticated", `Send an access token: Authorization: Bearer <access_token>, from ${TOKEN_ENDPOINT}.`);
  return match[1]!;
}

/**
 * Partner access tokens are JWTs (spec 5.2); the sign-in provider's access tokens are opaque. The shape picks the
 * one verification a token gets, so neither is ever tried as the other.
 */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

export async function authenticateBearer(request: Request): Promise<Principal> {
  return authenticatePartnerToken(presentedBearerToken(request));
}

export async function authenticatePartnerToken(token: string): Promise<Principal> {
  let claims;
  try {
    claims = await verifyAccessToken(token);
  } catch (error) {
    if (!(error instanceof TokenRejectedError)) throw error;
    if (error.reason === "expired") throw rejected("token_expired", "The access token has expired; request a new one.");
    if (error.reason === "wrong_audience") throw rejected("audience_mismatch", "The access token was not issued for this API.");
    throw rejected("unauthenticated", "The access token is not valid.");
  }
  const environment: TenantEnvironment = claims.livemode ? "live" : "sandbox";
  const project = await readProjectState(claims.sub);
  if (!project) throw rejected("unauthenticated", "The access token is not valid.");
  if (project.status === "suspended") throw new ApiError("account_suspended");
  if (isRevokedByProject(project, environment, claims.iat)) throw rejected("token_revoked", "The access token has been revoked.");
  return {
    projectId: claims.sub,
    clientId: claims.client_id,
    environment,
    livemode: claims.livemode,
    scopes: new Set(claims.scope.split(" ").filter(Boolean)),
    tokenId: claims.jti,
    limitSettings: project.limitSettings,
    sandboxClockOffsetDays: environment === "sandbox" ? project.sandboxClockOffsetDays : 0,
  };
}

export function assertScope(principal: Principal, scope: PartnerScope): void {
  if (principal.scopes.has(scope) || SCOPE_SPELLINGS[scope]?.some((spelling) => principal.scopes.has(spelling))) return;
  throw new ApiError("insufficient_scope", {
    message: `This endpoint requires the ${scope} scope.`,
    headers: { "WWW-Authenticate": `Bearer realm="partner", error="insufficient_scope", scope="${scope}"` },
  });
}

/** Sandbox test helpers do not exist for live tokens: 404 `route_not_found`, as for any unknown path. */
export function assertSandbox(principal: Principal): void {
  if (principal.environment !== "sandbox") {
    throw new ApiError("route_not_found", { message: "Test helpers exist only in the sandbox; use a sandbox token." });
  }
}

export type { SignedInPerson };

/**
 * A sign-in access token (spec 4.10) and the person it names. Every refusal reads the same, so it tells nothing
 * about the token.
 */
export async function authenticatePersonToken(token: string): Promise<SignedInPerson> {
  const person = await personOfAccessToken(token);
  if (!person) throw rejected("unauthenticated", "The access token is not valid, or has expired or been revoked.");
  return person;
}

/** The person's token must carry the sign-in scope the endpoint names: 403 `insufficient_scope` otherwise. */
export function assertPersonScope(person: SignedInPerson, scope: PersonScope): void {
  if (person.scopes.has(scope)) return;
  throw new ApiError("insufficient_scope", {
    message: `This endpoint requires the ${scope} scope on your sign-in access token.`,
    headers: { "WWW-Authenticate": `Bearer realm="partner", error="insufficient_scope", scope="${scope}"` },
  });
}
