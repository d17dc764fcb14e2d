// The OAuth 2.0 client-credentials server (spec 4.7, 5.2) and bearer enforcement on the partner API, driven
// over HTTP. A real RP-side client (oauth4webapi) obtains tokens; jose verifies them against the JWKS.
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as oauth from "oauth4webapi";
import { base64url, createRemoteJWKSet, decodeJwt, jwtVerify, SignJWT, UnsecuredJWT } from "jose";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { revokeOutstandingTokens, setProjectStatus } from "@/lib/projects/manage-project";
import { signingKeys } from "@/lib/oauth/signing-keys";
import { DEFAULT_SCOPES, GRANTABLE_SCOPES } from "@/lib/oauth/scopes";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { runCli } from "../../helpers/cli";
import { expectApiError } from "../../helpers/http";
import { basicAuthorization, bearer, createTestProject, mintToken, requestToken } from "../../helpers/partner";

let server: AppServer;
let project: ProjectCredentials;

beforeAll(async () => {
  server = await startAppServer();
  // The issuer is HUB_URL; point it at this server before anything reads the configuration.
  process.env.HUB_URL = server.url;
});
// A project per test: each has its own token-endpoint rate limit (10 a second per client), and tests that
// freeze the clock must not inherit a bucket drained at another time.
beforeEach(async () => {
  project = await createTestProject();
});
afterAll(() => server?.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const FORM = { "content-type": "application/x-www-form-urlencoded" };

async function expectOAuthError(response: Response, status: number, error: string) {
  const body = await response.json();
  expect({ status: response.status, body }).toMatchObject({ status, body: { error } });
  expect(typeof body.error_description).toBe("string");
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  return body;
}

describe("a standard OAuth client", () => {
  const clientFor = (credentials: ProjectCredentials): oauth.Client => ({ client_id: credentials.client_id });
  const options = { [oauth.allowInsecureRequests]: true };

  async function discover(): Promise<oauth.AuthorizationServer> {
    const issuer = new URL(server.url);
    return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }));
  }

  it.each([
    ["client_secret_basic", (secret: string) => oauth.ClientSecretBasic(secret)],
    ["client_secret_post", (secret: string) => oauth.ClientSecretPost(secret)],
  ])("obtains a token with %s that verifies against the JWKS", async (_method, authenticate) => {
    const as = await discover();
    const response = await oauth.clientCredentialsGrantRequest(as, clientFor(project), authenticate(project.sandbox.secret_key), { scope: "partner:manage applications:read" }, options);
    const token = await oauth.processClientCredentialsResponse(as, clientFor(project), response);
    expect(token).toMatchObject({ token_type: "bearer", expires_in: 3600, scope: "partner:manage applications:read" });

    const jwks = createRemoteJWKSet(new URL(as.jwks_uri!));
    const { payload, protectedHeader } = await jwtVerify(token.access_token, jwks, { issuer: server.url, audience: "partner/v1" });
    expect(protectedHeader).toEqual({ alg: "EdDSA", kid: "hub-oauth-ed25519", typ: "at+jwt" });
    expect(payload).toMatchObject({ sub: project.project_id, client_id: project.client_id, scope: "partner:manage applications:read", livemode: false });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(payload.jti).toEqual(expect.any(String));
  });

  it("gets the same behaviour from /oauth/token on the site", async () => {
    const response = await requestToken(server.url, project, { environment: "live" }, "/oauth/token");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.scope).toBe(DEFAULT_SCOPES.join(" "));
    expect(decodeJwt(body.access_token)).toMatchObject({ livemode: true, sub: project.project_id });
  });

  it("introspects an active token through the standard client", async () => {
    const as = await discover();
    const token = await mintToken(server.url, project);
    const response = await oauth.introspectionRequest(as, clientFor(project), oauth.ClientSecretBasic(project.sandbox.secret_key), token, options);
    const result = await oauth.processIntrospectionResponse(as, clientFor(project), response);
    expect(result).toMatchObject({ active: true, sub: project.project_id, client_id: project.client_id, token_type: "Bearer", aud: "partner/v1", iss: server.url });
    expect(result.exp! - result.iat!).toBe(3600);
  });
});

describe("token endpoint errors (RFC 6749 §5.2)", () => {
  const tokenEndpoint = () => `${server.url}/partner/v1/oauth/token`;

  it("refuses an unknown client with 401 invalid_client and WWW-Authenticate: Basic", async () => {
    const response = await fetch(tokenEndpoint(), {
      method: "POST",
      headers: { ...FORM, authorization: basicAuthorization("svc_client_unknown", project.sandbox.secret_key) },
      body: form({ grant_type: "client_credentials" }),
    });
    await expectOAuthError(response, 401, "invalid_client");
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic/);
  });

  it("refuses a wrong secret, and another project's secret, with invalid_client", async () => {
    const other = await createTestProject();
    for (const secret of [`sk_sandbox_${"x".repeat(40)}`, other.sandbox.secret_key, "not-a-key"]) {
      await expectOAuthError(await requestToken(server.url, project, { secret }), 401, "invalid_client");
    }
  });

  it("refuses a publishable key used as a secret", async () => {
    const body = await expectOAuthError(await requestToken(server.url, project, { secret: project.sandbox.publishable_key }), 401, "invalid_client");
    expect(body.error_description).toContain("publishable");
  });

  it("refuses missing client authentication with invalid_client", async () => {
    const response = await fetch(tokenEndpoint(), { method: "POST", headers: FORM, body: form({ grant_type: "client_credentials" }) });
    await expectOAuthError(response, 401, "invalid_client");
  });

  it("refuses Basic and client_secret_post together with invalid_request", async () => {
    const response = await fetch(tokenEndpoint(), {
      method: "POST",
      headers: { ...FORM, authorization: basicAuthorization(project.client_id, project.sandbox.secret_key) },
      body: form({ grant_type: "client_credentials", client_id: project.client_id, client_secret: project.sandbox.secret_key }),
    });
    await expectOAuthError(response, 400, "invalid_request");
  });

  it("accepts client_secret_post alone", async () => {
    const response = await fetch(tokenEndpoint(), {
      method: "POST",
      headers: FORM,
      body: form({ grant_type: "client_credentials", client_id: project.client_id, client_secret: project.sandbox.secret_key }),
    });
    expect(response.status).toBe(200);
  });

  it.each([
    [{}, 400, "invalid_request"],
    [{ grant_type: "password" }, 400, "unsupported_grant_type"],
    [{ grant_type: "client_credentials", scope: "partner:manage loans:write" }, 400, "invalid_scope"],
    [{ grant_type: "client_credentials", audience: "internal/v1" }, 400, "invalid_request"],
    [{ grant_type: "client_credentials", audience: "https://elsewhere" }, 400, "invalid_request"],
  ])("answers %o with %i %s", async (fields, status, error) => {
    const response = await fetch(tokenEndpoint(), {
      method: "POST",
      headers: { ...FORM, authorization: basicAuthorization(project.client_id, project.sandbox.secret_key) },
      body: form(fields as Record<string, string>),
    });
    await expectOAuthError(response, status, error);
  });

  it("refuses a JSON body and a repeated parameter with invalid_request", async () => {
    const headers = { authorization: basicAuthorization(project.client_id, project.sandbox.secret_key) };
    const json = await fetch(tokenEndpoint(), { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ grant_type: "client_credentials" }) });
    await expectOAuthError(json, 400, "invalid_request");
    const repeated = await fetch(tokenEndpoint(), { method: "POST", headers: { ...headers, ...FORM }, body: "grant_type=client_credentials&grant_type=client_credentials" });
    await expectOAuthError(repeated, 400, "invalid_request");
  });

  it("refuses a malformed Basic header with invalid_request", async () => {
    const response = await fetch(tokenEndpoint(), { method: "POST", headers: { ...FORM, authorization: "Basic !!!" }, body: form({ grant_type: "client_credentials" }) });
    await expectOAuthError(response, 400, "invalid_request");
  });

  it("ignores parameters it does not know, as RFC 6749 requires", async () => {
    const response = await fetch(tokenEndpoint(), {
      method: "POST",
      headers: { ...FORM, authorization: basicAuthorization(project.client_id, project.sandbox.secret_key) },
      body: form({ grant_type: "client_credentials", resource_hint: "x" }),
    });
    expect(response.status).toBe(200);
  });

  it("answers GET with 405", async () => {
    const response = await fetch(tokenEndpoint());
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("narrows the token to a requested subset of scopes, de-duplicated", async () => {
    const response = await requestToken(server.url, project, { scope: "applications:read  applications:read" });
    expect((await response.json()).scope).toBe("applications:read");
  });

  it("mints internal/v1 tokens only for a provisioned project, and they do not open the partner API", async () => {
    const provisioned = await createTestProject();
    await db().project.update({ where: { id: provisioned.project_id }, data: { internalAudience: true } });
    const response = await fetch(tokenEndpoint(), {
      method: "POST",
      headers: { ...FORM, authorization: basicAuthorization(provisioned.client_id, provisioned.sandbox.secret_key) },
      body: form({ grant_type: "client_credentials", audience: "internal/v1" }),
    });
    expect(response.status).toBe(200);
    const token = (await response.json()).access_token;
    expect(decodeJwt(token).aud).toBe("internal/v1");
    await expectApiError(await fetch(`${server.url}/partner/v1/keys`, bearer(token)), 401, "audience_mismatch");
  });

  it("refuses a suspended project at the token endpoint (403) and on the API", async () => {
    const suspended = await createTestProject();
    const token = await mintToken(server.url, suspended);
    await setProjectStatus(db(), suspended.project_id, "suspended");
    await expectOAuthError(await requestToken(server.url, suspended), 403, "account_suspended");
    await expectApiError(await fetch(`${server.url}/partner/v1/keys`, bearer(token)), 403, "account_suspended");
    await setProjectStatus(db(), suspended.project_id, "active");
    expect((await fetch(`${server.url}/partner/v1/keys`, bearer(token))).status).toBe(200);
  });
});

describe("bearer enforcement", () => {
  const keysUrl = () => `${server.url}/partner/v1/keys`;

  async function expectInvalidToken(response: Response, code = "unauthenticated") {
    await expectApiError(response, 401, code);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/);
  }

  it("refuses a request without a token", async () => {
    await expectInvalidToken(await fetch(keysUrl()));
  });

  it("refuses a malformed Authorization header and a garbage token", async () => {
    await expectInvalidToken(await fetch(keysUrl(), { headers: { authorization: "Token abc" } }));
    await expectInvalidToken(await fetch(keysUrl(), bearer("not.a.jwt")));
  });

  it("refuses an expired token with token_expired", async () => {
    const clock = freezeClock("2026-03-01T10:00:00Z");
    const token = await mintToken(server.url, project);
    clock.advance(3599_000);
    expect((await fetch(keysUrl(), bearer(token))).status).toBe(200);
    clock.advance(2_000);
    await expectInvalidToken(await fetch(keysUrl(), bearer(token)), "token_expired");
  });

  it("refuses a token whose payload was altered", async () => {
    const token = await mintToken(server.url, project, { scope: "applications:read" });
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forged = base64url.encode(JSON.stringify({ ...claims, scope: "partner:manage" }));
    await expectInvalidToken(await fetch(keysUrl(), bearer(`${header}.${forged}.${signature}`)));
  });

  it("refuses alg: none", async () => {
    const claims = decodeJwt(await mintToken(server.url, project));
    const unsigned = new UnsecuredJWT(claims).encode();
    await expectInvalidToken(await fetch(keysUrl(), bearer(unsigned)));
  });

  it("refuses HS256 signed with the public key (algorithm confusion)", async () => {
    const claims = decodeJwt(await mintToken(server.url, project));
    const publicKey = (await signingKeys()).publicJwks[0]!;
    const confused = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: "hub-oauth-ed25519", typ: "at+jwt" })
      .sign(new TextEncoder().encode(JSON.stringify(publicKey)));
    await expectInvalidToken(await fetch(keysUrl(), bearer(confused)));
    const confusedWithX = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: "hub-oauth-ed25519", typ: "at+jwt" })
      .sign(base64url.decode(publicKey.x!));
    await expectInvalidToken(await fetch(keysUrl(), bearer(confusedWithX)));
  });

  it("refuses a token signed by another Ed25519 key under our key id", async () => {
    const claims = decodeJwt(await mintToken(server.url, project));
    const { privateKey } = generateKeyPairSync("ed25519");
    const foreign = await new SignJWT(claims).setProtectedHeader({ alg: "EdDSA", kid: "hub-oauth-ed25519", typ: "at+jwt" }).sign(privateKey);
    await expectInvalidToken(await fetch(keysUrl(), bearer(foreign)));
  });

  it("refuses a token from another issuer even when our key signed it", async () => {
    const claims = decodeJwt(await mintToken(server.url, project));
    const { signingKey } = await signingKeys();
    const token = await new SignJWT({ ...claims, iss: "https://elsewhere.example" })
      .setProtectedHeader({ alg: "EdDSA", kid: "hub-oauth-ed25519", typ: "at+jwt" })
      .sign(signingKey);
    await expectInvalidToken(await fetch(keysUrl(), bearer(token)));
  });

  it("refuses a token lacking the route's scope with 403 insufficient_scope naming it", async () => {
    const token = await mintToken(server.url, project, { scope: "applications:read" });
    const response = await fetch(keysUrl(), bearer(token));
    await expectApiError(response, 403, "insufficient_scope");
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="partner", error="insufficient_scope", scope="partner:manage"');
  });

  it("stops outstanding tokens when they are revoked, while new ones work", async () => {
    const clock = freezeClock("2026-04-01T09:00:00Z");
    const owner = await createTestProject();
    const sandboxToken = await mintToken(server.url, owner);
    const liveToken = await mintToken(server.url, owner, { environment: "live" });
    clock.advance(5_000);
    await revokeOutstandingTokens(db(), owner.project_id, ["sandbox"]);
    await expectInvalidToken(await fetch(keysUrl(), bearer(sandboxToken)), "token_revoked");
    expect((await fetch(keysUrl(), bearer(liveToken))).status).toBe(200);
    clock.advance(1_000);
    expect((await fetch(keysUrl(), bearer(await mintToken(server.url, owner)))).status).toBe(200);
  });
});

describe("introspection (RFC 7662)", () => {
  const introspect = (token: string, credentials: ProjectCredentials = project, path = "/partner/v1/oauth/introspect") =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { ...FORM, authorization: basicAuthorization(credentials.client_id, credentials.sandbox.secret_key) },
      body: form({ token }),
    });

  it("describes an active token", async () => {
    const token = await mintToken(server.url, project, { scope: "applications:read" });
    const response = await introspect(token, project, "/oauth/introspect");
    expect(response.status).toBe(200);
    const claims = decodeJwt(token);
    expect(await response.json()).toEqual({
      active: true,
      scope: "applications:read",
      client_id: project.client_id,
      token_type: "Bearer",
      exp: claims.exp,
      iat: claims.iat,
      sub: project.project_id,
      aud: "partner/v1",
      iss: server.url,
      jti: claims.jti,
      livemode: false,
    });
  });

  it("says inactive for expired, tampered, foreign and garbage tokens", async () => {
    const clock = freezeClock("2026-05-01T00:00:00Z");
    const expired = await mintToken(server.url, project);
    clock.advance(3601_000);
    const fresh = await mintToken(server.url, project);
    const tampered = `${fresh.slice(0, -4)}AAAA`;
    const other = await createTestProject();
    const foreign = await mintToken(server.url, other);
    for (const token of [expired, tampered, foreign, "garbage"]) {
      expect(await (await introspect(token)).json()).toEqual({ active: false });
    }
  });

  it("says inactive for the same project's token of the other environment", async () => {
    const live = await mintToken(server.url, project, { environment: "live" });
    expect(await (await introspect(live)).json()).toEqual({ active: false });
    const sandbox = await mintToken(server.url, project);
    const fromLive = await fetch(`${server.url}/partner/v1/oauth/introspect`, {
      method: "POST",
      headers: { ...FORM, authorization: basicAuthorization(project.client_id, project.live.secret_key) },
      body: form({ token: sandbox }),
    });
    expect(await fromLive.json()).toEqual({ active: false });
    expect(await (await introspect(sandbox)).json()).toMatchObject({ active: true, livemode: false });
  });

  it("requires client authentication", async () => {
    const response = await fetch(`${server.url}/partner/v1/oauth/introspect`, { method: "POST", headers: FORM, body: form({ token: "x" }) });
    await expectOAuthError(response, 401, "invalid_client");
  });

  it("requires the token parameter", async () => {
    const response = await fetch(`${server.url}/partner/v1/oauth/introspect`, {
      method: "POST",
      headers: { ...FORM, authorization: basicAuthorization(project.client_id, project.sandbox.secret_key) },
      body: form({}),
    });
    await expectOAuthError(response, 400, "invalid_request");
  });
});

describe("discovery documents and keys", () => {
  it.each(["/partner/v1/oauth/jwks", "/oauth/jwks"])("%s publishes only public EdDSA keys, cacheably", async (path) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    const { keys } = await response.json();
    expect(keys).toHaveLength(1);
    for (const key of keys) {
      expect(key).toEqual({ kty: "OKP", crv: "Ed25519", x: expect.any(String), kid: "hub-oauth-ed25519", alg: "EdDSA", use: "sig" });
    }
  });

  it("publishes RFC 8414 authorization-server metadata with every key of spec 4.7", async () => {
    const response = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(await response.json()).toMatchObject({
      issuer: server.url,
      token_endpoint: `${server.url}/partner/v1/oauth/token`,
      jwks_uri: `${server.url}/partner/v1/oauth/jwks`,
      introspection_endpoint: `${server.url}/partner/v1/oauth/introspect`,
      grant_types_supported: ["client_credentials"],
      response_types_supported: [],
      scopes_supported: [...GRANTABLE_SCOPES],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      id_token_signing_alg_values_supported: ["EdDSA"],
      service_documentation: expect.stringMatching(/^http/),
    });
  });

  it("publishes RFC 9728 protected-resource metadata", async () => {
    const response = await fetch(`${server.url}/.well-known/oauth-protected-resource`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      resource: expect.stringMatching(/\/partner\/v1$/),
      authorization_servers: [server.url],
      scopes_supported: [...GRANTABLE_SCOPES],
      bearer_methods_supported: ["header"],
    });
  });
});

describe("second client secret", () => {
  const createSecret = (credentials: ProjectCredentials, clientId = credentials.client_id, secret = credentials.live.secret_key) =>
    fetch(`${server.url}/oauth/clients/${clientId}/secrets`, { method: "POST", headers: { authorization: basicAuthorization(credentials.client_id, secret) } });

  it("adds a second live secret; revoking the first blocks new mints but not its tokens", async () => {
    const owner = await createTestProject();
    const oldToken = await mintToken(server.url, owner, { environment: "live" });
    const response = await createSecret(owner);
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created).toMatchObject({ object: "client_secret", client_id: owner.client_id, environment: "live", livemode: true });
    expect(created.secret).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
    expect((await requestToken(server.url, owner, { secret: created.secret })).status).toBe(200);
    expect((await requestToken(server.url, owner, { environment: "live" })).status).toBe(200);

    const manage = await mintToken(server.url, owner, { secret: created.secret });
    const keys = await (await fetch(`${server.url}/partner/v1/keys?type=secret`, bearer(manage))).json();
    const original = keys.data.find((key: { last4: string }) => key.last4 === owner.live.secret_key.slice(-4));
    expect((await fetch(`${server.url}/partner/v1/keys/${original.id}`, bearer(manage, { method: "DELETE" }))).status).toBe(200);

    await expectOAuthError(await requestToken(server.url, owner, { environment: "live" }), 401, "key_revoked");
    expect((await fetch(`${server.url}/partner/v1/keys`, bearer(oldToken))).status).toBe(200);
  });

  it("requires the client's own credentials", async () => {
    const owner = await createTestProject();
    const other = await createTestProject();
    await expectOAuthError(await createSecret(owner, other.client_id), 401, "invalid_client");
    await expectOAuthError(await fetch(`${server.url}/oauth/clients/${owner.client_id}/secrets`, { method: "POST" }), 401, "invalid_client");
    await expectOAuthError(await createSecret(owner, owner.client_id, owner.live.publishable_key), 401, "invalid_client");
  });
});

describe("the CLI-created project", () => {
  it("mints a token that calls a protected route, and a sandbox token meets a live object with environment_mismatch", async () => {
    const { code, stdout } = await runCli({}, "project", "create", "--name", "CLI Partner", "--json");
    expect(code).toBe(0);
    const created: ProjectCredentials = JSON.parse(stdout);
    const sandboxToken = await mintToken(server.url, created);
    const listed = await fetch(`${server.url}/partner/v1/keys`, bearer(sandboxToken));
    expect(listed.status).toBe(200);
    expect((await listed.json()).data).toHaveLength(2);

    const liveToken = await mintToken(server.url, created, { environment: "live" });
    const liveKeys = await (await fetch(`${server.url}/partner/v1/keys`, bearer(liveToken))).json();
    const liveKeyId = liveKeys.data[0].id;
    const response = await fetch(`${server.url}/partner/v1/keys/${liveKeyId}`, bearer(sandboxToken));
    await expectApiError(response, 401, "environment_mismatch");
  });
});
