// The sign-in provider (spec 4.10, 5.3, 7.4) over HTTP: openid-client 6 as a strict relying party against the real
// oidc-provider mounted on the tests' server, a cookie jar in place of a browser, and a real PostgreSQL.
import { createHash } from "node:crypto";
import * as client from "openid-client";
import { base64url, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { findSignInAccessToken } from "@/lib/oidc/artifacts";
import { setSignInClientDisabled } from "@/lib/oidc/clients";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { captureLogs } from "../../helpers/logs";
import {
  authorizationStart,
  CLIENT_ADDRESS_HEADER,
  createTestClient,
  createTestUser,
  discover,
  followRedirects,
  interactionUid,
  locationOf,
  newBrowser,
  REDIRECT_URI,
  signInAndAllow,
  TEST_PASSWORD,
  type AuthorizationStart,
} from "../../helpers/sign-in";

let server: AppServer;
let sso: string;

beforeAll(async () => {
  server = await startAppServer();
  // The issuer is SSO_URL: this server's /sso, set before anything reads the configuration.
  sso = `${server.url}/sso`;
  process.env.SSO_URL = sso;
  process.env.HUB_URL = server.url;
  // Each test browser comes from an address of its own (tests/helpers/sign-in.ts), as people do.
  process.env.TRUSTED_PROXY_HEADER = CLIENT_ADDRESS_HEADER;
});
afterAll(() => server?.close());
afterEach(() => {
  vi.useRealTimers();
});

const STRICT_METADATA = { id_token_signed_response_alg: "ES256" } as const;

async function confidentialClient() {
  const registered = await createTestClient();
  const configuration = await client.discovery(new URL(sso), registered.client_id, STRICT_METADATA, client.ClientSecretBasic(registered.client_secret!), {
    execute: [client.allowInsecureRequests],
  });
  return { ...registered, configuration };
}

async function signedIn(scope?: string) {
  const rp = await confidentialClient();
  const user = await createTestUser();
  const start = await authorizationStart(rp.configuration, scope);
  const browser = newBrowser();
  const callback = await signInAndAllow(browser, start, sso, user.email);
  return { rp, user, start, browser, callback };
}

function exchange(configuration: client.Configuration, callback: URL, start: AuthorizationStart) {
  return client.authorizationCodeGrant(configuration, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state, expectedNonce: start.nonce });
}

/** The raw token endpoint, for asserting RFC 6749 error bodies exactly. */
async function tokenRequest(form: Record<string, string>, authorization?: string): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${sso}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(authorization ? { authorization } : {}) },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

/** An /authorize URL with every required parameter, then `changes` (undefined removes one). */
async function authorizeUrl(clientId: string, changes: Record<string, string | undefined> = {}): Promise<string> {
  const verifier = client.randomPKCECodeVerifier();
  const params: Record<string, string | undefined> = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: "openid profile",
    state: "state-123",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...changes,
  };
  const url = new URL(`${sso}/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/** The error a redirect carries back to the client: from the query, or the fragment for implicit-style types. */
function redirectError(location: string): Record<string, string> {
  const url = new URL(location);
  expect(`${url.origin}${url.pathname}`).toBe(REDIRECT_URI);
  const params = new URLSearchParams(url.search || url.hash.slice(1));
  return Object.fromEntries(params.entries());
}

async function expectErrorPage(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get("location")).toBeNull();
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  return response.text();
}

describe("discovery", () => {
  it("publishes every key spec 4.10 and issue 28 list, with the provider's paths under SSO_URL", async () => {
    const response = await fetch(`${sso}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const metadata = await response.json();
    expect(metadata).toMatchObject({
      issuer: sso,
      authorization_endpoint: `${sso}/authorize`,
      token_endpoint: `${sso}/token`,
      userinfo_endpoint: `${sso}/userinfo`,
      jwks_uri: `${sso}/.well-known/jwks.json`,
      end_session_endpoint: `${sso}/session/end`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["openid", "profile", "email", "business", "accounts.read"],
      subject_types_supported: ["public"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
      authorization_response_iss_parameter_supported: true,
      response_modes_supported: ["query"],
    });
    expect(metadata.id_token_signing_alg_values_supported[0]).toBe("ES256");
    expect(metadata.id_token_signing_alg_values_supported).toContain("RS256");
    expect(metadata.claims_supported).toEqual(
      expect.arrayContaining(["sub", "name", "given_name", "family_name", "updated_at", "email", "email_verified", "company_number", "company_name", "company_role"]),
    );
    // Nothing we turned off is advertised.
    for (const key of ["registration_endpoint", "introspection_endpoint", "device_authorization_endpoint", "pushed_authorization_request_endpoint", "revocation_endpoint"]) {
      expect(metadata).not.toHaveProperty(key);
    }
    // The partner OAuth server's issuer is HUB_URL: the two must differ.
    expect(metadata.issuer).not.toBe(server.url);
  });

  it("publishes an ES256 and an RS256 public key, each with a kid and no private part", async () => {
    const { keys } = (await (await fetch(`${sso}/.well-known/jwks.json`)).json()) as { keys: Record<string, string>[] };
    expect(keys.map((key) => [key.kty, key.alg])).toEqual([
      ["EC", "ES256"],
      ["RSA", "RS256"],
    ]);
    for (const key of keys) {
      expect(key.kid).toMatch(/^sso-/);
      expect(key).not.toHaveProperty("d");
    }
  });

  it("logs one line per request with its path but not its query", async () => {
    const rp = await createTestClient();
    const { entries } = await captureLogs(async () => {
      await fetch(await authorizeUrl(rp.client_id, { state: "secret-looking-state" }));
    });
    const lines = entries.filter((entry) => entry.msg === "sign-in request");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: "GET", path: "/sso/authorize", status: 303, request_id: expect.stringMatching(/^req_/) });
    expect(JSON.stringify(entries)).not.toContain("secret-looking-state");
  });
});

describe("the authorization code flow", () => {
  it("signs a person in, with an ES256 ID token carrying the claims of the granted scopes", async () => {
    const { rp, user, start, callback } = await signedIn();
    expect(callback.searchParams.get("iss")).toBe(sso);
    expect(callback.searchParams.get("state")).toBe(start.state);
    const tokens = await exchange(rp.configuration, callback, start);
    expect(tokens).toMatchObject({ token_type: "bearer", expires_in: 3600, scope: "openid profile email business accounts.read" });
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const header = decodeProtectedHeader(tokens.id_token!);
    expect(header.alg).toBe("ES256");
    const { payload } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${sso}/.well-known/jwks.json`)), { issuer: sso, audience: rp.client_id, algorithms: ["ES256"] });
    const keys = (await (await fetch(`${sso}/.well-known/jwks.json`)).json()) as { keys: { kid: string; alg: string }[] };
    expect(header.kid).toBe(keys.keys.find((key) => key.alg === "ES256")!.kid);
    expect(payload).toMatchObject({
      iss: sso,
      sub: user.id,
      aud: rp.client_id,
      nonce: start.nonce,
      name: "Ada Lovelace",
      given_name: "Ada",
      family_name: "Lovelace",
      email: user.email,
      email_verified: true,
      company_number: "01234567",
      company_name: "Analytical Engines Ltd",
      company_role: "director",
    });
    expect(payload.sub).toMatch(/^usr_/);
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(typeof payload.auth_time).toBe("number");
    const digest = createHash("sha256").update(tokens.access_token).digest();
    expect(payload.at_hash).toBe(base64url.encode(digest.subarray(0, 16)));
  });

  it("releases only the granted scopes' claims, in the ID token and from userinfo", async () => {
    const { rp, user, start, callback } = await signedIn("openid email");
    const tokens = await exchange(rp.configuration, callback, start);
    const idToken = decodeJwt(tokens.id_token!);
    expect(idToken).toMatchObject({ sub: user.id, email: user.email, email_verified: true });
    for (const claim of ["name", "given_name", "company_number", "company_name"]) expect(idToken).not.toHaveProperty(claim);

    const userinfo = await client.fetchUserInfo(rp.configuration, tokens.access_token, user.id);
    expect(userinfo).toEqual({ sub: user.id, email: user.email, email_verified: true });
  });

  it("gives a resource server the token's user, scopes, client and expiry from the table, which holds no usable token", async () => {
    const { rp, user, start, callback } = await signedIn("openid accounts.read");
    const tokens = await exchange(rp.configuration, callback, start);
    const found = await findSignInAccessToken(tokens.access_token);
    expect(found).toMatchObject({ userId: user.id, scopes: ["openid", "accounts.read"], clientId: rp.client_id });
    expect(found!.expiresAt.getTime() - Date.now()).toBeGreaterThan(3590_000);
    expect(await findSignInAccessToken(`${tokens.access_token}x`)).toBeNull();

    const stored = JSON.stringify(await db().oidcArtifact.findMany());
    for (const value of [tokens.access_token, tokens.refresh_token!, callback.searchParams.get("code")!]) expect(stored).not.toContain(value);
    const row = await db().oidcClient.findUniqueOrThrow({ where: { id: rp.client_id } });
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.secretHash).not.toContain(rp.client_secret!);
  });

  it("lets a browser app call userinfo from its own redirect origin, and no other", async () => {
    const { rp, start, callback } = await signedIn("openid");
    const tokens = await exchange(rp.configuration, callback, start);
    const from = (origin: string) => fetch(`${sso}/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}`, origin } });
    expect((await from("https://rp.example.test")).headers.get("access-control-allow-origin")).toBe("https://rp.example.test");
    expect((await from("https://evil.example.test")).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("works for a public client with PKCE alone", async () => {
    const registered = await createTestClient({ public: true });
    expect(registered).not.toHaveProperty("client_secret");
    const configuration = await discover(sso, registered.client_id);
    const user = await createTestUser();
    const start = await authorizationStart(configuration, "openid");
    const callback = await signInAndAllow(newBrowser(), start, sso, user.email);
    const tokens = await exchange(configuration, callback, start);
    expect(decodeJwt(tokens.id_token!).sub).toBe(user.id);
  });

  it("rotates refresh tokens: the old one is refused, and presenting it again revokes the whole family", async () => {
    const { rp, start, callback } = await signedIn();
    const first = await exchange(rp.configuration, callback, start);
    const second = await client.refreshTokenGrant(rp.configuration, first.refresh_token!);
    expect(second.refresh_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(decodeJwt(second.id_token!).sub).toBe(decodeJwt(first.id_token!).sub);

    const reused = await tokenRequest({ grant_type: "refresh_token", refresh_token: first.refresh_token! }, basic(rp.client_id, rp.client_secret!));
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // The newest refresh and access tokens went with the family.
    const newest = await tokenRequest({ grant_type: "refresh_token", refresh_token: second.refresh_token! }, basic(rp.client_id, rp.client_secret!));
    expect(newest).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const userinfo = await fetch(`${sso}/userinfo`, { headers: { authorization: `Bearer ${second.access_token}` } });
    expect(userinfo.status).toBe(401);
    expect(await findSignInAccessToken(second.access_token)).toBeNull();
  });

  it("keeps the session in an HttpOnly, SameSite=Lax cookie (Secure only when SSO_URL is https, which here it is not)", async () => {
    const rp = await createTestClient();
    const user = await createTestUser();
    const browser = newBrowser();
    const login = await followRedirects(browser, await authorizeUrl(rp.client_id), sso);
    const posted = await browser.post(`${sso}/interaction/${interactionUid(login.url)}/login`, { email: user.email, password: TEST_PASSWORD });
    const resumed = await browser.get(locationOf(posted, sso));
    const session = resumed.headers.getSetCookie().find((cookie) => cookie.startsWith("sso_session="));
    expect(session).toBeDefined();
    expect(session).toMatch(/; path=\/;/i);
    expect(session).toMatch(/; httponly/i);
    expect(session).toMatch(/; samesite=lax/i);
    expect(session).not.toMatch(/; secure/i);
  });

  it("skips the forms for a signed-in person who already allowed the client, and shows the form again with prompt=login", async () => {
    const { rp, browser } = await signedIn("openid");
    const again = await authorizationStart(rp.configuration, "openid");
    const straight = await followRedirects(browser, again.url.href, sso);
    expect(straight.url.startsWith(REDIRECT_URI)).toBe(true);
    expect(new URL(straight.url).searchParams.get("code")).toEqual(expect.any(String));

    const forced = await authorizationStart(rp.configuration, "openid", { prompt: "login" });
    const form = await followRedirects(browser, forced.url.href, sso);
    expect(form.url).toMatch(new RegExp(`^${sso}/interaction/[^/]+$`));
  });
});

describe("errors at /authorize", () => {
  it("answers an unknown client with an error page, never a redirect", async () => {
    const html = await expectErrorPage(await fetch(await authorizeUrl("sso_client_unknown")), 400);
    expect(html).toContain("Sorry, sign in did not work");
    expect(html).toContain("invalid_client");
  });

  it("answers a redirect_uri that is not registered exactly with an error page, never a redirect", async () => {
    const rp = await createTestClient();
    for (const redirect of ["https://evil.example.test/callback", `${REDIRECT_URI}/`, `${REDIRECT_URI}?x=1`]) {
      const html = await expectErrorPage(await fetch(await authorizeUrl(rp.client_id, { redirect_uri: redirect })), 400);
      expect(html).toContain("redirect_uri");
    }
  });

  it.each([
    ["response_type=token", { response_type: "token" }, "unsupported_response_type"],
    ["response_type=code id_token", { response_type: "code id_token" }, "unsupported_response_type"],
    ["a missing state", { state: undefined }, "invalid_request"],
    ["a missing code_challenge", { code_challenge: undefined, code_challenge_method: undefined }, "invalid_request"],
    ["code_challenge_method=plain", { code_challenge: "a".repeat(43), code_challenge_method: "plain" }, "invalid_request"],
    ["a scope without openid", { scope: "profile email" }, "invalid_request"],
    ["response_mode=form_post", { response_mode: "form_post" }, "invalid_request"],
  ] as [string, Record<string, string | undefined>, string][])("sends %s back to the client as %s", async (_case, changes, error) => {
    const rp = await createTestClient();
    const response = await fetch(await authorizeUrl(rp.client_id, changes), { redirect: "manual" });
    expect(response.status).toBe(303);
    const returned = redirectError(response.headers.get("location")!);
    expect(returned).toMatchObject({ error, iss: sso });
    expect(returned.error_description).toEqual(expect.any(String));
    if (!("state" in changes)) expect(returned.state).toBe("state-123");
  });

  it("answers prompt=none without a session with login_required", async () => {
    const rp = await createTestClient();
    const response = await fetch(await authorizeUrl(rp.client_id, { prompt: "none" }), { redirect: "manual" });
    expect(redirectError(response.headers.get("location")!)).toMatchObject({ error: "login_required", state: "state-123", iss: sso });
  });

  it("answers prompt=none with a session but no consent for this client with consent_required", async () => {
    const { browser } = await signedIn("openid");
    const other = await createTestClient({ name: "Another Service" });
    const response = await browser.get(await authorizeUrl(other.client_id, { prompt: "none", scope: "openid" }));
    expect(redirectError(locationOf(response, sso))).toMatchObject({ error: "consent_required", state: "state-123", iss: sso });
  });

  it("sends access_denied back when the person chooses Deny", async () => {
    const rp = await confidentialClient();
    const user = await createTestUser();
    const start = await authorizationStart(rp.configuration, "openid");
    const browser = newBrowser();
    const login = await followRedirects(browser, start.url.href, sso);
    const posted = await browser.post(`${sso}/interaction/${interactionUid(login.url)}/login`, { email: user.email, password: TEST_PASSWORD });
    const consent = await followRedirects(browser, locationOf(posted, sso), sso);
    const denied = await browser.post(`${sso}/interaction/${interactionUid(consent.url)}/consent`, { decision: "deny" });
    // Spec 7.4: 403, with a page that takes the person straight back through the provider to the client.
    expect(denied.status).toBe(403);
    const page = await denied.text();
    expect(page).toContain("You did not allow access");
    const [, refreshTo] = /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(page)!;
    expect(page).toContain(`<a href="${refreshTo}">`);
    const back = await followRedirects(browser, refreshTo!.replaceAll("&amp;", "&"), sso);
    expect(redirectError(back.url)).toMatchObject({ error: "access_denied", state: start.state, iss: sso });
  });
});

describe("the sign-in form", () => {
  async function atLoginForm() {
    const rp = await createTestClient();
    const browser = newBrowser();
    const login = await followRedirects(browser, await authorizeUrl(rp.client_id), sso);
    return { browser, uid: interactionUid(login.url) };
  }

  it("sends a wrong password and an unknown email back to the form alike, without saying which was wrong", async () => {
    const user = await createTestUser();
    const { browser, uid } = await atLoginForm();
    const wrongPassword = await browser.post(`${sso}/interaction/${uid}/login`, { email: user.email, password: "not the password at all" });
    const unknownEmail = await browser.post(`${sso}/interaction/${uid}/login`, { email: "nobody@example.test", password: TEST_PASSWORD });
    expect(wrongPassword.status).toBe(303);
    expect(wrongPassword.headers.get("location")).toBe(`${sso}/interaction/${uid}?error=credentials`);
    expect(unknownEmail.headers.get("location")).toBe(wrongPassword.headers.get("location"));
  });

  it("refuses a form with fields it does not know", async () => {
    const { browser, uid } = await atLoginForm();
    const response = await browser.post(`${sso}/interaction/${uid}/login`, { email: "a@example.test", password: "x", remember: "yes" });
    await expectErrorPage(response, 400);
  });

  it("answers 429 with Too many attempts once an email's attempts run out, and logs no email", async () => {
    // The limiter's time stands still, so no attempt is refilled however long the password checks take.
    freezeClock();
    const user = await createTestUser();
    const { browser, uid } = await atLoginForm();
    const { result: statuses, entries } = await captureLogs(async () => {
      const seen: number[] = [];
      for (let attempt = 0; attempt < 6; attempt += 1) {
        const response = await browser.post(`${sso}/interaction/${uid}/login`, { email: user.email, password: `wrong password ${attempt}` });
        seen.push(response.status);
        if (response.status === 429) {
          expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
          const html = await response.text();
          expect(html).toContain("Too many attempts");
          expect(html).toContain('<label for="email">Email</label>');
          expect(html).not.toContain(user.email);
        }
      }
      return seen;
    });
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429]);
    expect(JSON.stringify(entries)).not.toContain(user.email);
  });

  it("answers 429 once one address has tried 20 times, whatever the emails", async () => {
    freezeClock();
    const { browser, uid } = await atLoginForm();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 21; attempt += 1) {
      statuses.push((await browser.post(`${sso}/interaction/${uid}/login`, { email: `someone.${attempt}@example.test`, password: "wrong password" })).status);
    }
    expect(statuses).toEqual([...Array<number>(20).fill(303), 429]);
  });

  it("answers 401 sso_ticket_expired with a page saying to start again once the ticket is over 120 seconds old", async () => {
    const user = await createTestUser();
    vi.useFakeTimers({ toFake: ["Date"] });
    const { browser, uid } = await atLoginForm();
    vi.setSystemTime(Date.now() + 121_000);
    const response = await browser.post(`${sso}/interaction/${uid}/login`, { email: user.email, password: TEST_PASSWORD });
    const html = await expectErrorPage(response, 401);
    expect(html).toContain("Sign in took too long");
    expect(html).toContain("sso_ticket_expired");
    expect(html).toContain("start again");
  });
});

describe("errors at /token", () => {
  async function codeFor(scope = "openid") {
    const { rp, start, callback, browser } = await signedIn(scope);
    return { rp, start, callback, browser, code: callback.searchParams.get("code")! };
  }

  it("refuses a wrong verifier with invalid_grant", async () => {
    const { rp, code } = await codeFor();
    const answer = await tokenRequest(
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: client.randomPKCECodeVerifier() },
      basic(rp.client_id, rp.client_secret!),
    );
    expect(answer).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(answer.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("refuses a reused code with invalid_grant and revokes the tokens it issued", async () => {
    const { rp, start, callback } = await codeFor();
    const tokens = await exchange(rp.configuration, callback, start);
    const again = await tokenRequest(
      { grant_type: "authorization_code", code: callback.searchParams.get("code")!, redirect_uri: REDIRECT_URI, code_verifier: start.verifier },
      basic(rp.client_id, rp.client_secret!),
    );
    expect(again).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await fetch(`${sso}/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
    const refreshed = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! }, basic(rp.client_id, rp.client_secret!));
    expect(refreshed).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("refuses a code over 60 seconds old with invalid_grant", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { rp, start, code } = await codeFor();
    vi.setSystemTime(Date.now() + 61_000);
    const answer = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: start.verifier }, basic(rp.client_id, rp.client_secret!));
    expect(answer).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("refuses a redirect_uri other than the authorization's with invalid_grant", async () => {
    const { rp, start, code } = await codeFor();
    const answer = await tokenRequest(
      { grant_type: "authorization_code", code, redirect_uri: "https://rp.example.test/other", code_verifier: start.verifier },
      basic(rp.client_id, rp.client_secret!),
    );
    expect(answer).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("answers an unknown client, a disabled one and a wrong secret with 401 invalid_client", async () => {
    const { rp, start, code } = await codeFor();
    const form = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: start.verifier };
    expect(await tokenRequest(form, basic("sso_client_unknown", "whatever"))).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(await tokenRequest(form, basic(rp.client_id, `${rp.client_secret}x`))).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(await tokenRequest({ ...form, client_id: rp.client_id, client_secret: "sso_secret_wrong" })).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    await setSignInClientDisabled(db(), rp.client_id, true);
    expect(await tokenRequest(form, basic(rp.client_id, rp.client_secret!))).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });
});

describe("the relying party's checks", () => {
  /** A relying party whose token responses pass through `rewrite` on their way in. */
  async function rewritingClient(rewrite: (idToken: string) => Promise<string>) {
    const registered = await createTestClient();
    const configuration = await client.discovery(new URL(sso), registered.client_id, STRICT_METADATA, client.ClientSecretBasic(registered.client_secret!), {
      execute: [client.allowInsecureRequests],
    });
    // Verify the ID token's signature against the JWKS too (spec 4.10's ID-token checks), not only its claims.
    client.enableNonRepudiationChecks(configuration);
    configuration[client.customFetch] = async (url, options) => {
      const response = await fetch(url, options as RequestInit);
      if (!url.endsWith("/token") || response.status !== 200) return response;
      const body = (await response.json()) as { id_token: string };
      return new Response(JSON.stringify({ ...body, id_token: await rewrite(body.id_token) }), { status: 200, headers: { "content-type": "application/json" } });
    };
    return configuration;
  }

  async function exchangeThrough(configuration: client.Configuration) {
    const user = await createTestUser();
    const start = await authorizationStart(configuration, "openid");
    const callback = await signInAndAllow(newBrowser(), start, sso, user.email);
    return exchange(configuration, callback, start);
  }

  it("rejects an ID token whose payload was changed", async () => {
    const configuration = await rewritingClient(async (idToken) => {
      const [header, payload, signature] = idToken.split(".");
      const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
      return [header, Buffer.from(JSON.stringify({ ...claims, sub: "usr_someone_else" })).toString("base64url"), signature].join(".");
    });
    await expect(exchangeThrough(configuration)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/signature/i) } });
  });

  it("rejects an ID token re-signed with HS256 keyed by the public key (algorithm confusion)", async () => {
    const { keys } = (await (await fetch(`${sso}/.well-known/jwks.json`)).json()) as { keys: object[] };
    const configuration = await rewritingClient(async (idToken) =>
      new SignJWT(decodeJwt(idToken)).setProtectedHeader({ alg: "HS256", kid: decodeProtectedHeader(idToken).kid }).sign(new TextEncoder().encode(JSON.stringify(keys[0]))),
    );
    await expect(exchangeThrough(configuration)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/alg/i) } });
  });
});

describe("end session", () => {
  it("refuses a post_logout_redirect_uri the client did not register, with a page rather than a redirect", async () => {
    const rp = await createTestClient();
    const url = new URL(`${sso}/session/end`);
    url.searchParams.set("client_id", rp.client_id);
    url.searchParams.set("post_logout_redirect_uri", "https://evil.example.test/bye");
    const html = await expectErrorPage(await fetch(url, { redirect: "manual", headers: { accept: "text/html" } }), 400);
    expect(html).toContain("post_logout_redirect_uri");
  });

  it("asks a signed-in person to confirm, then signs them out and returns them to the registered post_logout_redirect_uri", async () => {
    const { rp, browser } = await signedIn("openid");
    const url = new URL(`${sso}/session/end`);
    url.searchParams.set("client_id", rp.client_id);
    url.searchParams.set("post_logout_redirect_uri", "https://rp.example.test/signed-out");
    url.searchParams.set("state", "bye-1");
    const response = await browser.get(url.href);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("form-action 'self' https://rp.example.test;");
    const html = await response.text();
    expect(html).toContain("Do you want to sign out?");
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    const confirmed = await browser.post(`${sso}/session/end/confirm`, { xsrf, logout: "yes" });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("https://rp.example.test/signed-out?state=bye-1");
    // Signed out: a silent sign-in now needs a login.
    const silent = await browser.get(await authorizeUrl(rp.client_id, { prompt: "none", scope: "openid" }));
    expect(redirectError(locationOf(silent, sso))).toMatchObject({ error: "login_required" });
  });
});

describe("the interaction forms", () => {
  it("answer a post for an interaction that does not exist with a 404 page", async () => {
    const response = await newBrowser().post(`${sso}/interaction/no-such-interaction/login`, { email: "a@example.test", password: "whatever it is" });
    const html = await expectErrorPage(response, 404);
    expect(html).toContain("This link is not valid");
    expect(html).not.toContain("no-such-interaction");
  });
});
