// The app as a client of its own sign-in provider (lib/oidc/app-client.ts): registered at start, again and again
// without a second row, its redirect URI BASE_URL's next-auth callback, its secret derived from the app's auth
// secret (AUTH_SECRET, or one kept in the database) and stored only as a hash.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { APP_SIGN_IN_CLIENT_ID, appSignInClientSecret, appSignOutUrl, registerAppSignInClient } from "@/lib/oidc/app-client";
import { signInClientMetadata, signInClientSecretMatches } from "@/lib/oidc/clients";

describe("registerAppSignInClient", () => {
  it("upserts one confidential client whose secret is derived, never stored, and matches after a restart", async () => {
    await registerAppSignInClient();
    await registerAppSignInClient();
    expect(await db().oidcClient.count({ where: { id: APP_SIGN_IN_CLIENT_ID } })).toBe(1);
    const secret = await appSignInClientSecret();
    expect(secret).toMatch(/^sso_secret_[A-Za-z0-9_-]{43}$/);
    expect(await appSignInClientSecret()).toBe(secret);
    const row = await db().oidcClient.findUniqueOrThrow({ where: { id: APP_SIGN_IN_CLIENT_ID } });
    expect(row.secretHash).not.toContain(secret.slice(11));
    expect(await signInClientSecretMatches(APP_SIGN_IN_CLIENT_ID, secret)).toBe(true);
    expect(await signInClientMetadata(APP_SIGN_IN_CLIENT_ID)).toMatchObject({
      redirect_uris: [`${config().BASE_URL}/api/auth/callback/sso`],
      post_logout_redirect_uris: [`${config().BASE_URL}/account/signed-out`],
      token_endpoint_auth_method: "client_secret_basic",
    });
  });

  it("derives a different secret from each auth secret, and the same from the same", async () => {
    const first = await appSignInClientSecret("a".repeat(32));
    expect(await appSignInClientSecret("a".repeat(32))).toBe(first);
    expect(await appSignInClientSecret("b".repeat(32))).not.toBe(first);
    expect(first).not.toContain("a".repeat(8));
  });

  it("sends sign-out to the provider's end-session endpoint with the client and the signed-out page", () => {
    const url = new URL(appSignOutUrl());
    expect(`${url.origin}${url.pathname}`).toBe(`${config().SSO_URL}/session/end`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: APP_SIGN_IN_CLIENT_ID, post_logout_redirect_uri: `${config().BASE_URL}/account/signed-out` });
  });
});
