// The partner credentials flow behind the production server (`npm start`): a project made by the admin CLI gets a token from
// the token endpoint and calls a protected route; discovery documents are served from /.well-known.
import { expect, test } from "@playwright/test";
import { basicAuthorization, createProjectWithCli } from "./cli-project";

test("a CLI-created project mints a token and lists its keys", async ({ request }) => {
  const project = await createProjectWithCli("E2E Partner");
  const tokenResponse = await request.post("/partner/v1/oauth/token", {
    headers: { authorization: basicAuthorization(project) },
    form: { grant_type: "client_credentials", scope: "partner:manage" },
  });
  expect(tokenResponse.status()).toBe(200);
  const token = await tokenResponse.json();
  expect(token).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "partner:manage" });

  const keys = await request.get("/partner/v1/keys", { headers: { authorization: `Bearer ${token.access_token}` } });
  expect(keys.status()).toBe(200);
  const body = await keys.json();
  expect(body.object).toBe("list");
  expect(body.data.map((key: { prefix: string }) => key.prefix).sort()).toEqual(["pk_sandbox_", "sk_sandbox_"]);
});

test("the token endpoint answers RFC 6749 errors", async ({ request }) => {
  const response = await request.post("/oauth/token", { form: { grant_type: "client_credentials" } });
  expect(response.status()).toBe(401);
  expect(await response.json()).toMatchObject({ error: "invalid_client" });
  expect(response.headers()["www-authenticate"]).toMatch(/^Basic/);
});

test("a partner route without a token is 401 with WWW-Authenticate: Bearer", async ({ request }) => {
  const response = await request.get("/partner/v1/keys");
  expect(response.status()).toBe(401);
  expect((await response.json()).error.code).toBe("unauthenticated");
  expect(response.headers()["www-authenticate"]).toContain('error="invalid_token"');
});

test("discovery documents and the JWKS are public", async ({ request }) => {
  for (const url of ["/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource", "/oauth/jwks", "/partner/v1/oauth/jwks"]) {
    const response = await request.get(url);
    expect(response.status(), url).toBe(200);
    expect(response.headers()["cache-control"], url).toBe("public, max-age=300");
  }
});
