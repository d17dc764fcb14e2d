// The sign-in provider (spec 4.10, docs/sign-in.md): oidc-provider, configured. Issuer SSO_URL; authorization code
// with PKCE (S256) the only flow; a refresh token on every code exchange, rotated on every use; ID tokens ES256 by
// default (RS256 for clients that ask). Its interaction pages are ours (app/sso/interaction/[uid]); the rest of what a
// person may see from it (error pages, sign-out) is rendered by lib/oidc/pages.ts with our headers.
//
// oidc-provider is a Koa application: it runs only inside our own HTTP server (lib/oidc/mount.ts), never in
// anything Next bundles (tests/unit/oidc-bundling.test.ts holds that).
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { config } from "../env";
import { PrismaSignInAdapter } from "./adapter";
import { signInClientSecretMatches } from "./clients";
import { loadSignInProviderKeys } from "./keys";
import { providerPagePolicy } from "./pages";
import { renderProviderErrorPage, renderSignedOutPage, renderSignOutPage } from "./provider-pages";
import { CLAIMS_BY_SCOPE, SIGN_IN_SCOPES } from "./scopes";
import { findSignInUser, userClaims } from "./users";

/** Lifetimes, in seconds (spec 5.3: access tokens one hour; the SSO session ticket, our interaction, 120 s). */
export const SIGN_IN_LIFETIMES = {
  AccessToken: 3600,
  AuthorizationCode: 60,
  IdToken: 3600,
  Interaction: 120,
  RefreshToken: 30 * 24 * 3600,
  Session: 24 * 3600,
  Grant: 30 * 24 * 3600,
} as const;

/** Where oidc-provider sends a person to sign in or consent: our page. */
export function interactionUrl(uid: string): string {
  return `${config().SSO_URL}/interaction/${uid}`;
}

function requireState(_ctx: KoaContextWithOIDC, value: string | undefined): void {
  // Spec 4.10 makes state required; oidc-provider treats it as optional. Checked once the client and its
  // redirect_uri are known, so the error goes back to the client as a redirect.
  if (!value) throw new errors.InvalidRequest("state is required");
}

/** Marks a request that asked for a response mode other than the query (pageDefaults takes it off first). */
const REFUSED_RESPONSE_MODE = Symbol("refusedResponseMode");

function onlyQueryResponseMode(ctx: KoaContextWithOIDC): void {
  // The code comes back in the query (spec 4.10), never in a page that posts itself to the client.
  if ((ctx.state as Record<symbol, unknown>)[REFUSED_RESPONSE_MODE]) throw new errors.InvalidRequest("response_mode must be query");
}

async function configuration(): Promise<Configuration> {
  const keys = await loadSignInProviderKeys();
  const secure = config().SSO_URL.startsWith("https:");
  return {
    adapter: PrismaSignInAdapter,
    jwks: { keys: keys.signingJwks as never },
    cookies: {
      keys: keys.cookieKeys,
      long: { httpOnly: true, sameSite: "lax", secure, signed: true },
      short: { httpOnly: true, sameSite: "lax", secure, signed: true },
      names: { session: "sso_session", interaction: "sso_interaction", resume: "sso_resume" },
    },
    routes: {
      authorization: "/authorize",
      token: "/token",
      userinfo: "/userinfo",
      jwks: "/.well-known/jwks.json",
      end_session: "/session/end",
    },
    responseTypes: ["code"],
    pkce: { required: () => true },
    scopes: [...SIGN_IN_SCOPES],
    claims: Object.fromEntries(Object.entries(CLAIMS_BY_SCOPE).map(([scope, claims]) => [scope, [...claims]])),
    // Claims of the granted scopes go in the ID token too, not only behind userinfo.
    conformIdTokenClaims: false,
    subjectTypes: ["public"],
    clientAuthMethods: ["none", "client_secret_basic", "client_secret_post"],
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      id_token_signed_response_alg: "ES256",
      token_endpoint_auth_method: "client_secret_basic",
    },
    enabledJWA: { idTokenSigningAlgValues: ["ES256", "RS256"] },
    // A scope without openid is refused by oidc-provider itself (invalid_request): our clients all require_auth_time.
    extraParams: { state: requireState, response_mode: onlyQueryResponseMode },
    ttl: { ...SIGN_IN_LIFETIMES },
    issueRefreshToken: async () => true,
    rotateRefreshToken: () => true,
    allowOmittingSingleRegisteredRedirectUri: false,
    findAccount: async (_ctx, sub) => {
      const user = await findSignInUser(sub);
      if (!user) return undefined;
      return { accountId: user.id, claims: async () => userClaims(user) as { sub: string } };
    },
    interactions: { url: async (_ctx, interaction) => interactionUrl(interaction.uid) },
    // A browser app may call /token and /userinfo from its own pages: the origins of its redirect URIs.
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) ?? false,
    features: {
      devInteractions: { enabled: false },
      introspection: { enabled: false },
      revocation: { enabled: false },
      registration: { enabled: false },
      deviceFlow: { enabled: false },
      clientCredentials: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: { enabled: false },
      claimsParameter: { enabled: false },
      requestObjects: { enabled: false },
      backchannelLogout: { enabled: false },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource: renderSignOutPage, postLogoutSuccessSource: renderSignedOutPage },
    },
    renderError: renderProviderErrorPage,
  };
}

export async function createSignInProvider(): Promise<Provider> {
  const provider = new Provider(config().SSO_URL, await configuration());
  // Every URL it writes is SSO_URL's: our mount sets the forwarded host and protocol from it (lib/oidc/mount.ts).
  provider.proxy = true;
  // Secrets are kept as hashes (lib/oidc/clients.ts): compare the presented one against the hash.
  provider.Client.prototype.compareClientSecret = function compareHashedSecret(this: { clientId: string }, presented: string) {
    return signInClientSecretMatches(this.clientId, presented);
  };
  bindIdTokensToAccessTokens(provider);
  provider.use(pageDefaults);
  return provider;
}

/**
 * Every answer starts with a policy under which nothing runs and nobody frames it; a page of ours sets its own
 * (lib/oidc/pages.ts), and oidc-provider adds the hash of the one inline script it writes (the sign-out form that
 * posts itself) to script-src. Discovery lists only the query response mode, the one we accept.
 */
async function pageDefaults(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  ctx.set("Content-Security-Policy", providerPagePolicy([], { scripts: "'strict-dynamic'" }));
  ctx.set("X-Content-Type-Options", "nosniff");
  if (ctx.path === "/authorize" && ctx.method !== "GET") {
    // Spec 4.10 names GET only; a POSTed authorization request could not be answered in the query.
    ctx.status = 405;
    ctx.set("Allow", "GET");
    return;
  }
  const responseMode = ctx.query.response_mode;
  if (ctx.path === "/authorize" && responseMode !== undefined && responseMode !== "query") {
    // Taken off so the error about it goes back in the query, not by the mode it asked for.
    (ctx.state as Record<symbol, unknown>)[REFUSED_RESPONSE_MODE] = true;
    const { response_mode: _refused, ...rest } = ctx.query;
    ctx.query = rest;
  }
  await next();
  if (ctx.oidc?.route === "discovery" && ctx.body && typeof ctx.body === "object") {
    (ctx.body as Record<string, unknown>).response_modes_supported = ["query"];
  }
  // The sign-out form goes on to the client's post-logout page: the policy must let the form's redirect go there.
  if (ctx.oidc?.route === "end_session" && ctx.oidc.client) {
    const origins = (ctx.oidc.client.postLogoutRedirectUris ?? []).map((uri: string) => new URL(uri).origin);
    const policy = String(ctx.response.get("Content-Security-Policy"));
    if (origins.length > 0) ctx.set("Content-Security-Policy", policy.replace("form-action 'self';", `form-action 'self' ${origins.join(" ")};`));
  }
}

/**
 * oidc-provider puts `at_hash` only in ID tokens issued beside an access token at the authorization endpoint (the
 * hybrid flow, which we do not offer). Ours come from the token endpoint beside one; `at_hash` binds the two, so a
 * relying party can check it (OIDC Core 3.1.3.6 allows it there).
 */
function bindIdTokensToAccessTokens(provider: Provider): void {
  type IssuedIdToken = { ctx?: KoaContextWithOIDC; set(claim: string, value: unknown): void };
  const issue = provider.IdToken.prototype.issue as (this: IssuedIdToken, options: { use: string }) => Promise<string>;
  provider.IdToken.prototype.issue = function issueWithAccessTokenHash(this: IssuedIdToken, options: { use: string }) {
    const accessToken = this.ctx?.oidc.entities.AccessToken as { jti?: string } | undefined;
    if (options.use === "idtoken" && this.ctx?.oidc.route === "token" && accessToken?.jti) this.set("at_hash", accessToken.jti);
    return issue.call(this, options);
  } as typeof provider.IdToken.prototype.issue;
}
