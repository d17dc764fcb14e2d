// What proxy.ts does for the sign-in page (/sso/interaction/{uid}): its form-action lets the forms' redirects end
// at the client (Chromium applies it to them), and a ticket over 120 seconds old is answered 401 sso_ticket_expired
// before the page renders. The pages themselves in a browser: tests/e2e/sign-in.spec.ts.
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { interactionView } from "@/lib/oidc/interaction-view";
import { isSignInProviderRequest } from "@/lib/oidc/mount-path";
import { proxy } from "@/proxy";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { CLIENT_ADDRESS_HEADER, createTestClient, followRedirects, interactionUid, newBrowser, REDIRECT_URI } from "../../helpers/sign-in";
import * as client from "openid-client";

let server: AppServer;
let sso: string;
beforeAll(async () => {
  server = await startAppServer();
  sso = `${server.url}/sso`;
  process.env.SSO_URL = sso;
  process.env.TRUSTED_PROXY_HEADER = CLIENT_ADDRESS_HEADER;
  // This file's provider seals its keys, as production's must.
  process.env.OAUTH_KEY_ENCRYPTION_KEY = Buffer.alloc(32, 9).toString("base64");
});
afterAll(() => server?.close());
afterEach(() => {
  vi.useRealTimers();
});

async function newInteraction(): Promise<{ uid: string; clientId: string }> {
  const rp = await createTestClient({ name: "Example Accounting", redirectUris: [REDIRECT_URI, "https://second.example.test/cb"] });
  const url = new URL(`${sso}/authorize`);
  const verifier = client.randomPKCECodeVerifier();
  const params = { response_type: "code", client_id: rp.client_id, redirect_uri: REDIRECT_URI, scope: "openid email business", state: "s", code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const login = await followRedirects(newBrowser(), url.href, sso);
  return { uid: interactionUid(login.url), clientId: rp.client_id };
}

const view = (uid: string) => proxy(new NextRequest(`http://localhost:3000/sso/interaction/${uid}`));

describe("the sign-in page", () => {
  it("is the one GET under /sso that Next serves; its form posts and everything else go to the provider", () => {
    expect(isSignInProviderRequest("GET", "/sso/interaction/abc")).toBe(false);
    expect(isSignInProviderRequest("HEAD", "/sso/interaction/abc?error=credentials")).toBe(false);
    expect(isSignInProviderRequest("POST", "/sso/interaction/abc/login")).toBe(true);
    expect(isSignInProviderRequest("GET", "/sso/authorize?client_id=x")).toBe(true);
    expect(isSignInProviderRequest("GET", "/sso")).toBe(true);
    expect(isSignInProviderRequest("GET", "/ssothing")).toBe(false);
    expect(isSignInProviderRequest("GET", "/partner/v1/applications")).toBe(false);
  });

  it("reads the interaction without oidc-provider: the client's name, the scopes in plain English and where the form posts", async () => {
    const { uid } = await newInteraction();
    expect(await interactionView(uid)).toEqual({
      state: "login",
      clientName: "Example Accounting",
      scopeDescriptions: ["Know who you are when you sign in", "See your email address", "See your company's name and number, and your role in it"],
      action: `${sso}/interaction/${uid}/login`,
      formTargets: ["https://rp.example.test", "https://second.example.test"],
    });
    expect(await interactionView("no-such-interaction")).toBeNull();
  });

  it("lets its forms' redirects end at the client's redirect origins, and nowhere else", async () => {
    const { uid } = await newInteraction();
    const response = await view(uid);
    const policy = response.headers.get("content-security-policy")!;
    expect(policy).toContain("form-action 'self' https://rp.example.test https://second.example.test;");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await view("unknown-uid")).headers.get("content-security-policy")).toContain("form-action 'self';");
  });

  it("answers a ticket over 120 seconds old with 401 and a page saying to start again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { uid } = await newInteraction();
    vi.setSystemTime(Date.now() + 119_000);
    expect((await view(uid)).status).toBe(200);
    vi.setSystemTime(Date.now() + 2_000);
    const expired = await view(uid);
    expect(expired.status).toBe(401);
    expect(expired.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await expired.text();
    expect(html).toContain("Sign in took too long");
    expect(html).toContain("sso_ticket_expired");
  });
});

describe("the hourly maintenance", () => {
  it("prunes the provider's rows a day after they expired, keeping a ticket that only just did", async () => {
    const { runMaintenance } = await import("@/lib/background/catalogue");
    const { db } = await import("@/lib/db");
    vi.useFakeTimers({ toFake: ["Date"] });
    const { uid } = await newInteraction();
    const expiresAt = (await db().oidcArtifact.findUniqueOrThrow({ where: { kind_id: { kind: "Interaction", id: uid } } })).expiresAt!;
    vi.setSystemTime(expiresAt.getTime() + 24 * 60 * 60_000 - 1_000);
    await runMaintenance();
    expect(await db().oidcArtifact.count({ where: { kind: "Interaction", id: uid } })).toBe(1);
    vi.setSystemTime(expiresAt.getTime() + 24 * 60 * 60_000 + 1_000);
    expect((await runMaintenance()).signInArtifactsPruned).toBeGreaterThanOrEqual(1);
    expect(await db().oidcArtifact.count({ where: { kind: "Interaction", id: uid } })).toBe(0);
  });
});

describe("the provider's keys", () => {
  it("are kept sealed under OAUTH_KEY_ENCRYPTION_KEY, never in the clear, and the JWKS serves their public parts", async () => {
    const { db } = await import("@/lib/db");
    const { keys } = (await (await fetch(`${sso}/.well-known/jwks.json`)).json()) as { keys: { kid: string; d?: string }[] };
    const rows = await db().oidcKey.findMany({ orderBy: { purpose: "asc" } });
    expect(rows.map((row) => [row.purpose, row.privateJwk, row.sealedPrivateJwk?.startsWith("v1.")])).toEqual([
      ["cookies", null, true],
      ["id-token-es256", null, true],
      ["id-token-rs256", null, true],
    ]);
    expect(keys.map((key) => key.kid)).toEqual([rows[1]!.kid, rows[2]!.kid]);
    expect(keys.every((key) => key.d === undefined)).toBe(true);
  });
});
