// What guards each route is declared on its endpoint config (lib/http/route.ts), and the tables other code
// needs are generated from the configs: here, the scope and sub-limit of every partner route, held equal to
// the table in docs/authentication.md.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import type { RegisteredEndpoint } from "@/lib/http/route-registry";
import { PUBLIC_MCP_LIMIT, SUB_LIMITS } from "@/lib/ratelimit/policies";
import { loadAllEndpoints } from "../../helpers/routes";

let endpoints: RegisteredEndpoint[];
beforeAll(async () => {
  endpoints = await loadAllEndpoints();
});

const partner = () => endpoints.filter((declared) => declared.ring === "partner");

/** The generated table: one row per partner endpoint with its scope and its own limit. */
function partnerRouteTable(): string {
  const rows = partner().map(({ method, path, config }) => {
    const policy = config.rateLimit?.policy;
    const rate = policy?.kind === "tokenBucket" ? `${policy.ratePerSecond}/s${policy.burst !== policy.ratePerSecond ? ` (bursts of ${policy.burst})` : ""}` : "";
    const limit = config.rateLimit ? `${rate} per ${config.rateLimit.per}` : "";
    return `| \`${method} /partner/v1${path}\` | ${config.scope ? `\`${config.scope}\`` : "none (client authentication or public)"} | ${limit} |`;
  });
  return ["| Route | Scope | Own limit |", "|---|---|---|", ...rows].join("\n");
}

describe("endpoint configs", () => {
  it("load for every route file, on every ring", () => {
    const rings = new Set(endpoints.map((declared) => declared.ring));
    expect([...rings].sort()).toEqual(["partner", "public", "site"]);
    expect(partner().length).toBeGreaterThanOrEqual(29);
  });

  it("give every partner endpoint a scope, or null for the OAuth endpoints only", () => {
    for (const { method, path, config } of partner()) {
      expect(config.scope, `${method} ${path}`).not.toBeUndefined();
      if (config.scope === null) expect(path, `${method} ${path} takes no bearer token`).toMatch(/^\/oauth\//);
    }
  });

  it("put the spec's sub-limits on their routes (spec 8)", () => {
    const limitOf = (method: string, path: string) => endpoints.find((declared) => declared.ring === "partner" && declared.method === method && declared.path === path)?.config.rateLimit;
    expect(limitOf("POST", "/applications")).toBe(SUB_LIMITS.applicationsCreate);
    expect(limitOf("POST", "/decisions/{id}/refresh")).toBe(SUB_LIMITS.decisionsRefresh);
    expect(limitOf("POST", "/identity/checks")).toBe(SUB_LIMITS.identityChecks);
    expect(SUB_LIMITS.identityChecks).toEqual({ policy: { kind: "tokenBucket", name: "identity-checks", ratePerSecond: 5, burst: 5 }, per: "project" });
    expect(limitOf("POST", "/oauth/token")).toBe(SUB_LIMITS.oauthToken);
    expect(limitOf("POST", "/oauth/introspect")).toBe(SUB_LIMITS.oauthIntrospect);
    expect(limitOf("GET", "/oauth/jwks")).toBe(SUB_LIMITS.oauthJwks);
  });

  it("leave no sub-limit unused: each named limit guards some route", () => {
    const used = new Set(endpoints.map((declared) => declared.config.rateLimit).filter(Boolean));
    for (const [name, limit] of Object.entries(SUB_LIMITS)) expect(used.has(limit), name).toBe(true);
  });

  it("gate the white-label endpoints, and only those, on the white_label capability (spec 1)", () => {
    const gated = endpoints.filter((declared) => declared.config.capability).map(({ method, path, config }) => [`${method} ${path}`, config.capability]);
    expect(gated.sort()).toEqual([
      ["GET /identity/checks/{id}", "white_label"],
      ["POST /applications/{id}/accept", "white_label"],
      ["POST /applications/{id}/affordability", "white_label"],
      ["POST /applications/{id}/consents", "white_label"],
      ["POST /applications/{id}/submit", "white_label"],
      ["POST /identity/checks", "white_label"],
    ]);
  });

  it("withhold the secret from the Idempotency-Key record of every idempotent endpoint that shows one (spec 5.1)", () => {
    const withSecrets = endpoints.filter((declared) => declared.config.secretFields?.length).map(({ method, path, config }) => [`${method} ${path}`, config.secretFields]);
    expect(withSecrets).toEqual([
      ["POST /keys", ["secret"]],
      ["POST /keys/{id}/roll", ["secret"]],
      ["POST /webhook_endpoints", ["secret"]],
    ]);
  });

  it("are the table docs/authentication.md shows", () => {
    const documented = readFileSync("docs/authentication.md", "utf8");
    expect(documented, `docs/authentication.md should contain:\n${partnerRouteTable()}`).toContain(partnerRouteTable());
  });
});

describe("defineRoute", () => {
  it("refuses a partner endpoint that declares no scope", () => {
    expect(() => defineRoute("partner", "/unscoped", { GET: endpoint({ handler: () => ok({}) }) })).toThrow('Partner endpoint "GET /unscoped" declares no scope');
  });

  it("refuses secret fields on an endpoint that is not idempotent: there is no record to keep them from", () => {
    expect(() => defineRoute("partner", "/secretive", { POST: endpoint({ scope: "partner:manage", secretFields: ["secret"], handler: () => ok({}) }) })).toThrow(
      'Endpoint "POST /secretive" declares secretFields but is not idempotent',
    );
  });

  it("refuses a capability on an endpoint without a bearer scope: there is no project to check", () => {
    expect(() => defineRoute("partner", "/gated", { POST: endpoint({ scope: null, capability: "white_label", handler: () => ok({}) }) })).toThrow(
      'Endpoint "POST /gated" requires a capability but no bearer scope',
    );
  });

  it("refuses a per-address bucket on an endpoint whose caller has credentials to meter", () => {
    expect(() => defineRoute("partner", "/bucketed", { GET: endpoint({ scope: "events:read", addressLimit: PUBLIC_MCP_LIMIT, handler: () => ok({}) }) })).toThrow(
      'Endpoint "GET /bucketed" has a caller to meter: it cannot take a per-address bucket instead',
    );
  });

  it("refuses a scope on a ring without bearer tokens", () => {
    expect(() => defineRoute("public", "/scoped", { GET: endpoint({ scope: "events:read", handler: () => ok({}) }) })).toThrow("cannot require a scope");
  });
});
