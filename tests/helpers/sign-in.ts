// A relying party of the sign-in provider for tests: openid-client 6 (strict) for discovery, the authorization
// URL and the token calls, and a cookie jar that follows the provider's redirects and posts the interaction forms
// as a browser would (no browser: the GET of the interaction page is a Next page the tests' server does not serve).
import * as client from "openid-client";
import { db } from "@/lib/db";
import { createSignInClient } from "@/lib/oidc/clients";
import type { CreateSignInClientInput, CreateSignInUserInput } from "@/lib/oidc/schemas";
import { createSignInUser } from "@/lib/oidc/users";

export const REDIRECT_URI = "https://rp.example.test/callback";

export class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";");
      const [name, ...rest] = pair!.split("=");
      const path = attributes.map((attribute) => attribute.trim()).find((attribute) => attribute.toLowerCase().startsWith("path="))?.slice(5) ?? "/";
      const value = rest.join("=");
      const key = `${name!.trim()}|${path}`;
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(header)) this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  header(url: string): string {
    const { pathname } = new URL(url);
    return [...this.cookies.entries()]
      .filter(([, cookie]) => pathname === cookie.path || pathname.startsWith(cookie.path.endsWith("/") ? cookie.path : `${cookie.path}/`) || cookie.path === "/")
      .map(([key, cookie]) => `${key.split("|")[0]}=${cookie.value}`)
      .join("; ");
  }

  names(): string[] {
    return [...this.cookies.keys()].map((key) => key.split("|")[0]!);
  }
}

export interface Browser {
  jar: CookieJar;
  get(url: string): Promise<Response>;
  post(url: string, form: Record<string, string>): Promise<Response>;
}

/** The header tests name as TRUSTED_PROXY_HEADER, so each browser has an address (and rate-limit bucket) of its own. */
export const CLIENT_ADDRESS_HEADER = "x-test-client-address";

export function newBrowser(address = `10.${randomOctet()}.${randomOctet()}.${randomOctet()}`): Browser {
  const jar = new CookieJar();
  const send = async (url: string, init: RequestInit) => {
    const headers = { ...(init.headers as Record<string, string>), cookie: jar.header(url), accept: "text/html", [CLIENT_ADDRESS_HEADER]: address };
    const response = await fetch(url, { ...init, redirect: "manual", headers });
    jar.store(response);
    return response;
  };
  return {
    jar,
    get: (url) => send(url, { method: "GET" }),
    post: (url, form) => send(url, { method: "POST", body: new URLSearchParams(form), headers: { "content-type": "application/x-www-form-urlencoded" } }),
  };
}

function randomOctet(): number {
  return Math.floor(Math.random() * 254) + 1;
}

export function locationOf(response: Response, base: string): string {
  const location = response.headers.get("location");
  if (!location) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location, base).href;
}

/** Follows the provider's redirects from `url` until one leaves it (the client's redirect) or a page answers. */
export async function followRedirects(browser: Browser, url: string, ssoUrl: string): Promise<{ url: string; response: Response }> {
  let current = url;
  for (let hop = 0; hop < 10; hop += 1) {
    if (!current.startsWith(ssoUrl) || /\/interaction\/[^/?]+(\?.*)?$/.test(current)) return { url: current, response: new Response(null) };
    const response = await browser.get(current);
    if (response.status < 300 || response.status >= 400) return { url: current, response };
    current = locationOf(response, current);
  }
  throw new Error("too many redirects");
}

export const TEST_PASSWORD = "correct horse battery staple";

export async function createTestUser(overrides: Partial<CreateSignInUserInput> = {}): Promise<{ id: string; email: string }> {
  const email = overrides.email ?? `person.${Math.random().toString(36).slice(2)}@example.test`;
  const { id } = await createSignInUser(db(), {
    email,
    password: TEST_PASSWORD,
    givenName: "Ada",
    familyName: "Lovelace",
    companyNumber: "01234567",
    companyName: "Analytical Engines Ltd",
    companyRole: "director",
    ...overrides,
  });
  return { id, email: email.toLowerCase() };
}

export async function createTestClient(overrides: Partial<CreateSignInClientInput> = {}) {
  return createSignInClient(db(), {
    name: "Example Accounting",
    redirectUris: [REDIRECT_URI],
    postLogoutRedirectUris: ["https://rp.example.test/signed-out"],
    ...overrides,
  });
}

export async function discover(ssoUrl: string, clientId: string, secret?: string, options: client.DiscoveryRequestOptions = {}): Promise<client.Configuration> {
  const authentication = secret ? client.ClientSecretBasic(secret) : client.None();
  return client.discovery(new URL(ssoUrl), clientId, undefined, authentication, { execute: [client.allowInsecureRequests], ...options });
}

export interface AuthorizationStart {
  url: URL;
  verifier: string;
  state: string;
  nonce: string;
}

export async function authorizationStart(configuration: client.Configuration, scope = "openid profile email business accounts.read", extra: Record<string, string> = {}): Promise<AuthorizationStart> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: REDIRECT_URI,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
    ...extra,
  });
  return { url, verifier, state, nonce };
}

/** The interaction's uid from its page's address. */
export const interactionUid = (url: string) => /\/interaction\/([^/?]+)/.exec(url)![1]!;

/** Signs `email` in and allows the consent, returning the client's redirect (with its code) once it leaves the provider. */
export async function signInAndAllow(browser: Browser, start: AuthorizationStart, ssoUrl: string, email: string): Promise<URL> {
  const login = await followRedirects(browser, start.url.href, ssoUrl);
  const posted = await browser.post(`${ssoUrl}/interaction/${interactionUid(login.url)}/login`, { email, password: TEST_PASSWORD });
  if (posted.status !== 303) throw new Error(`sign-in answered ${posted.status}: ${await posted.text()}`);
  const consent = await followRedirects(browser, locationOf(posted, ssoUrl), ssoUrl);
  if (!consent.url.startsWith(ssoUrl)) return new URL(consent.url);
  const allowed = await browser.post(`${ssoUrl}/interaction/${interactionUid(consent.url)}/consent`, { decision: "allow" });
  if (allowed.status !== 303) throw new Error(`consent answered ${allowed.status}: ${await allowed.text()}`);
  return new URL((await followRedirects(browser, locationOf(allowed, ssoUrl), ssoUrl)).url);
}
