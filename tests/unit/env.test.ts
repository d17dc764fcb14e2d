import { describe, expect, it } from "vitest";
import { assertProductionConfig, config, ConfigError, demoSeedWanted, parseCliConfig, parseConfig, productionConfigWarnings, setDatabaseUrl } from "@/lib/env";
import type { IncomingMessage } from "node:http";
import { relayedByUntrustedProxy } from "@/lib/wire/client-address";
import { isOperatorRequest } from "@/lib/http/operator-access";

describe("configuration", () => {
  it("defaults every host of the spec to the one origin the app listens on", () => {
    const settings = parseConfig({ PORT: "4100" });
    for (const host of ["BASE_URL", "HUB_URL", "PARTNER_API_URL", "APPLY_URL", "JS_URL"] as const) {
      expect(settings[host]).toBe("http://localhost:4100");
    }
    // The sign-in provider's issuer: a path of the one origin, so it differs from HUB_URL's OAuth issuer.
    expect(settings.SSO_URL).toBe("http://localhost:4100/sso");
    expect(settings.BODY_LIMIT_BYTES).toBe(1024 * 1024);
  });

  it("lets hosts follow BASE_URL unless set themselves, without trailing slashes", () => {
    const settings = parseConfig({ BASE_URL: "https://lend.example/", APPLY_URL: "https://apply.lend.example" });
    expect(settings.HUB_URL).toBe("https://lend.example");
    expect(settings.APPLY_URL).toBe("https://apply.lend.example");
  });

  it("follows BASE_URL for SSO_URL's host, and refuses an SSO_URL on any path but /sso", () => {
    expect(parseConfig({ BASE_URL: "https://lend.example" }).SSO_URL).toBe("https://lend.example/sso");
    expect(parseConfig({ SSO_URL: "https://id.lend.example/sso/" }).SSO_URL).toBe("https://id.lend.example/sso");
    expect(() => parseConfig({ SSO_URL: "https://id.lend.example" })).toThrow(/SSO_URL: must end in the path \/sso/);
  });

  it("treats blank variables as unset", () => {
    expect(parseConfig({ HUB_URL: "", PORT: "" }).HUB_URL).toBe("http://localhost:3000");
  });

  it.each([
    [{ HUB_URL: "not a url" }, "HUB_URL"],
    [{ PORT: "seventy" }, "PORT"],
    [{ DATABASE_URL: "mysql://db/x" }, "DATABASE_URL"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ BASE_URL: "ftp://files.example" }, "BASE_URL"],
  ])("fails with a message naming the bad variable (%o)", (environment, variable) => {
    expect(() => parseConfig(environment)).toThrow(ConfigError);
    expect(() => parseConfig(environment)).toThrow(new RegExp(`^Invalid configuration:\\n  ${variable}:`));
  });

  it("reads WEBHOOK_DNS_SERVERS as a list of name servers, each an IP address with an optional port, none by default", () => {
    expect(parseConfig({}).WEBHOOK_DNS_SERVERS).toEqual([]);
    expect(parseConfig({ WEBHOOK_DNS_SERVERS: "127.0.0.1:5353, [::1]:53,10.0.0.2,2001:4860:4860::8888" }).WEBHOOK_DNS_SERVERS).toEqual([
      "127.0.0.1:5353",
      "[::1]:53",
      "10.0.0.2",
      "2001:4860:4860::8888",
    ]);
  });

  it("waits 1 s a try for a webhook host's name server by default, and takes WEBHOOK_DNS_TIMEOUT_MS up to 3 s", () => {
    expect(parseConfig({}).WEBHOOK_DNS_TIMEOUT_MS).toBe(1_000);
    expect(parseConfig({ WEBHOOK_DNS_TIMEOUT_MS: "250" }).WEBHOOK_DNS_TIMEOUT_MS).toBe(250);
    for (const value of ["0", "3001", "0.5"]) expect(() => parseConfig({ WEBHOOK_DNS_TIMEOUT_MS: value })).toThrow(/^Invalid configuration:\n {2}WEBHOOK_DNS_TIMEOUT_MS:/);
  });

  it.each([["dns.example.com"], ["127.0.0.1:99999"], ["[127.0.0.1]:53"], ["::1:53:x"]])("refuses %j in WEBHOOK_DNS_SERVERS, naming the variable", (value) => {
    expect(() => parseConfig({ WEBHOOK_DNS_SERVERS: `1.1.1.1,${value}` })).toThrow(
      "Invalid configuration:\n  WEBHOOK_DNS_SERVERS.1: must be an IP address, with an optional :port ([ipv6]:port)",
    );
  });
});

describe("the identity provider", () => {
  it("is none by default, so live identity checks answer 503", () => {
    expect(parseConfig({}).IDENTITY_PROVIDER).toBeUndefined();
  });

  it("is http with a URL and an optional key", () => {
    expect(parseConfig({ IDENTITY_PROVIDER: "http", IDENTITY_PROVIDER_URL: "https://idv.example/checks", IDENTITY_PROVIDER_API_KEY: "k" })).toMatchObject({
      IDENTITY_PROVIDER: "http",
      IDENTITY_PROVIDER_URL: "https://idv.example/checks",
      IDENTITY_PROVIDER_API_KEY: "k",
    });
  });

  it.each([
    [{ IDENTITY_PROVIDER: "http" }, "Invalid configuration:\n  IDENTITY_PROVIDER_URL: is required when IDENTITY_PROVIDER is http"],
    [{ IDENTITY_PROVIDER: "onfido" }, /^Invalid configuration:\n  IDENTITY_PROVIDER:/],
    [{ IDENTITY_PROVIDER: "http", IDENTITY_PROVIDER_URL: "ftp://idv.example" }, /^Invalid configuration:\n  IDENTITY_PROVIDER_URL:/],
  ])("refuses %o, naming the variable", (environment, message) => {
    expect(() => parseConfig(environment)).toThrow(message);
  });

  it("needs no AUTH_SECRET in development, but npm start refuses to run without one, and takes none shorter than 32 characters", () => {
    const settings = parseConfig({ OAUTH_KEY_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64") });
    expect(settings.AUTH_SECRET).toBeUndefined();
    expect(() => assertProductionConfig(settings)).toThrow(/AUTH_SECRET must be set/);
    expect(() => assertProductionConfig({ ...settings, AUTH_SECRET: "s".repeat(32) })).not.toThrow();
    expect(() => parseConfig({ AUTH_SECRET: "s".repeat(31) })).toThrow("Invalid configuration:\n  AUTH_SECRET: must be at least 32 characters (openssl rand -base64 32)");
  });

  it("may follow the sandbox rules in development, but npm start refuses that", () => {
    const settings = parseConfig({ IDENTITY_PROVIDER: "sandbox", OAUTH_KEY_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"), AUTH_SECRET: "a".repeat(32) });
    expect(settings.IDENTITY_PROVIDER).toBe("sandbox");
    expect(() => assertProductionConfig(settings)).toThrow(ConfigError);
    expect(() => assertProductionConfig(settings)).toThrow(/IDENTITY_PROVIDER=sandbox would verify live applicants by the sandbox rules/);
    expect(() => assertProductionConfig({ ...settings, IDENTITY_PROVIDER: undefined })).not.toThrow();
  });
});

describe("the operators' internal surface and a reverse proxy", () => {
  const token = "0123456789abcdef0123456789abcdef";

  it("takes HEALTHZ_INTERNAL_TOKEN as a bearer token of at least 32 characters, and refuses a shorter or malformed one", () => {
    expect(parseConfig({}).HEALTHZ_INTERNAL_TOKEN).toBeUndefined();
    expect(parseConfig({ HEALTHZ_INTERNAL_TOKEN: token }).HEALTHZ_INTERNAL_TOKEN).toBe(token);
    for (const value of [token.slice(1), `${token} with spaces`, `${token}"`]) {
      expect(() => parseConfig({ HEALTHZ_INTERNAL_TOKEN: value })).toThrow(
        "Invalid configuration:\n  HEALTHZ_INTERNAL_TOKEN: must be at least 32 characters of a bearer token (openssl rand -hex 32)",
      );
    }
  });

  it("warns npm start of a missing TRUSTED_PROXY_HEADER and HEALTHZ_INTERNAL_TOKEN, without refusing to start", () => {
    const bare = parseConfig({ OAUTH_KEY_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"), AUTH_SECRET: "a".repeat(32) });
    expect(() => assertProductionConfig(bare)).not.toThrow();
    expect(productionConfigWarnings(bare)).toEqual([
      "TRUSTED_PROXY_HEADER is not set: per-address limits key on the socket's peer, so behind a reverse proxy every caller shares the proxy's address (one rate-limit bucket for everyone). Set it to the header your proxy writes the client's address to (e.g. x-forwarded-for).",
      "HEALTHZ_INTERNAL_TOKEN is not set: GET /healthz/internal answers 404 to everyone (openssl rand -hex 32 makes a token).",
    ]);
    expect(productionConfigWarnings({ ...bare, TRUSTED_PROXY_HEADER: "x-forwarded-for", HEALTHZ_INTERNAL_TOKEN: token })).toEqual([]);
  });

  it("warns npm start that the sign-in provider needs OAUTH_KEY_ENCRYPTION_KEY even when OAUTH_SIGNING_KEY is set", () => {
    const settings = parseConfig({ OAUTH_SIGNING_KEY: JSON.stringify({ kty: "OKP", crv: "Ed25519", x: "x", d: "d" }), TRUSTED_PROXY_HEADER: "x-forwarded-for", HEALTHZ_INTERNAL_TOKEN: token, AUTH_SECRET: "a".repeat(32) });
    expect(() => assertProductionConfig(settings)).not.toThrow();
    expect(productionConfigWarnings(settings)).toEqual([expect.stringMatching(/^OAUTH_KEY_ENCRYPTION_KEY is not set: the sign-in provider/)]);
  });

  it("tells a request a proxy on this machine relayed while TRUSTED_PROXY_HEADER is unset, for npm start's warning", () => {
    const request = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;
    const unset = { TRUSTED_PROXY_HEADER: undefined };
    expect(relayedByUntrustedProxy(request("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }), unset)).toBe(true);
    expect(relayedByUntrustedProxy(request("::1", { forwarded: "for=203.0.113.9" }), unset)).toBe(true);
    expect(relayedByUntrustedProxy(request("::ffff:127.0.0.1", { "x-real-ip": "203.0.113.9" }), unset)).toBe(true);
    expect(relayedByUntrustedProxy(request("127.0.0.1"), unset)).toBe(false);
    expect(relayedByUntrustedProxy(request("203.0.113.9", { "x-forwarded-for": "198.51.100.1" }), unset)).toBe(false);
    expect(relayedByUntrustedProxy(request("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }), { TRUSTED_PROXY_HEADER: "x-forwarded-for" })).toBe(false);
  });

  it("opens the internals in production to the token's bearer alone, and to nobody when no token is configured", () => {
    const bearer = (value: string) => new Request("http://localhost/healthz/internal", { headers: { authorization: `Bearer ${value}` } });
    expect(isOperatorRequest(bearer(token), { NODE_ENV: "production", HEALTHZ_INTERNAL_TOKEN: token })).toBe(true);
    expect(isOperatorRequest(bearer(`${token}0`), { NODE_ENV: "production", HEALTHZ_INTERNAL_TOKEN: token })).toBe(false);
    expect(isOperatorRequest(bearer(token), { NODE_ENV: "production", HEALTHZ_INTERNAL_TOKEN: undefined })).toBe(false);
    expect(isOperatorRequest(new Request("http://localhost/healthz/internal"), { NODE_ENV: "production", HEALTHZ_INTERNAL_TOKEN: undefined })).toBe(false);
  });
});

describe("the demo project", () => {
  it("is seeded, and its secret printed, on npm run dev but not on npm start unless asked", () => {
    expect(demoSeedWanted("dev", parseConfig({}))).toBe(true);
    expect(demoSeedWanted("start", parseConfig({}))).toBe(false);
    expect(demoSeedWanted("start", parseConfig({ SEED_DEMO: "true" }))).toBe(true);
    expect(demoSeedWanted("dev", parseConfig({ SEED_DEMO: "false" }))).toBe(false);
  });
});

describe("the admin CLI's configuration", () => {
  it("points cli listen at the app on this machine unless LENDING_API_URL is set", () => {
    expect(parseCliConfig({}).LENDING_API_URL).toBe("http://localhost:3000");
    expect(parseCliConfig({ PORT: "4100" }).LENDING_API_URL).toBe("http://localhost:4100");
    expect(parseCliConfig({ PORT: "4100", LENDING_API_URL: "https://api.lend.example" }).LENDING_API_URL).toBe("https://api.lend.example");
  });

  it("reads the credentials, blank as unset, whatever the app's own variables hold", () => {
    expect(parseCliConfig({ LENDING_CLIENT_ID: "svc_client_1", LENDING_API_KEY: "", HUB_URL: "not a url" })).toEqual({
      PORT: 3000,
      LENDING_API_URL: "http://localhost:3000",
      LENDING_CLIENT_ID: "svc_client_1",
      LISTEN_SECRETS_FILE: ".data/listen-secrets.json",
    });
  });

  it("lets the CLI point the configuration at the database it started", () => {
    setDatabaseUrl("postgresql://postgres@127.0.0.1:54329/lending");
    expect(config().DATABASE_URL).toBe("postgresql://postgres@127.0.0.1:54329/lending");
  });
});
