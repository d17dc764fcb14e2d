// What guards each route is declared on its endpoint config (lib/http/route.ts), and the tables other code
// needs are generated from the configs: here, the scope and sub-limit of every partner route, held equal to
// the table in docs/authentication.md.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import type { RegisteredEndpoint } from "@/lib/http/route-registry";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";
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
    const scope = config.auth.kind === "bearer" ? `\`${config.auth.scope}\`` : "none (client authentication or public)";
    return `| \`${method} /partner/v1${path}\` | ${scope} | ${limit} |`;
  });
  return ["| Route | Scope | Own limit |", "|---|---|---|", ...rows].join("\n");
}

describe("endpoint configs", () => {
  it("load for every route file, on every ring", () => {
    const rings = new Set(endpoints.map((declared) => declared.ring));
    expect([...rings].sort()).toEqual(["partner", "public", "site"]);
    expect(partner().length).toBeGreaterThanOrEqual(29);
  });

  it("give every partner endpoint a bearer scope, but for the OAuth endpoints", () => {
    for (const { method, path, config } of partner()) {
      if (config.auth.kind !== "bearer") expect(path, `${method} ${path} takes no bearer token`).toMatch(/^\/oauth\//);
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

  it("gate the white-label endpoints on the white_label capability (spec 1) and the beta constructs on beta (spec 9), and only those", () => {
    const gated = endpoints.flatMap(({ method, path, config: { auth } }) => (auth.kind === "bearer" && auth.capability ? [[`${method} ${path}`, auth.capability]] : []));
    expect(gated.sort()).toEqual([
      ["GET /identity/checks/{id}", "white_label"],
      ["GET /introductions", "beta"],
      ["GET /payouts", "beta"],
      ["GET /payouts/{id}", "beta"],
      ["GET /sub-accounts", "beta"],
      ["GET /sub-accounts/{id}", "beta"],
      ["POST /applications/{id}/accept", "white_label"],
      ["POST /applications/{id}/affordability", "white_label"],
      ["POST /applications/{id}/consents", "white_label"],
      ["POST /applications/{id}/submit", "white_label"],
      ["POST /identity/checks", "white_label"],
      ["POST /sub-accounts", "beta"],
      ["POST /test_helpers/payouts/run", "beta"],
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
  it("refuses a partner endpoint that declares no auth", () => {
    expect(() => defineRoute("partner", "/unguarded", { GET: endpoint({ handler: () => ok({}) } as never) })).toThrow('Endpoint "GET /unguarded" declares no auth');
  });

  it("refuses secret fields on an endpoint that is not idempotent: there is no record to keep them from", () => {
    expect(() => defineRoute("partner", "/secretive", { POST: endpoint({ auth: { kind: "bearer", scope: "partner:manage" }, secretFields: ["secret"], handler: () => ok({}) }) })).toThrow(
      'Endpoint "POST /secretive" declares secretFields but is not idempotent',
    );
  });

  it("refuses a publishable key on the partner ring", () => {
    expect(() => defineRoute("partner", "/widget", { POST: endpoint({ auth: { kind: "publishable_key" }, handler: () => ok({}) }) })).toThrow(
      'Endpoint "POST /widget" is on the partner ring, which takes no publishable_key caller (only site)',
    );
  });

  it("refuses a credential on the public ring, which takes none", () => {
    expect(() => defineRoute("public", "/scoped", { GET: endpoint({ auth: { kind: "bearer", scope: "events:read" }, handler: () => ok({}) }) })).toThrow("on the public ring, which takes no bearer caller");
    expect(() => defineRoute("public", "/client", { POST: endpoint({ auth: { kind: "client" }, handler: () => ok({}) }) })).toThrow("on the public ring, which takes no client caller");
  });

  it("refuses a sub-limit spent per a key the endpoint's caller does not have", () => {
    const perClient = { policy: SUB_LIMITS.oauthToken.policy, per: "client" } as const;
    expect(() => defineRoute("partner", "/per-client", { POST: endpoint({ auth: { kind: "bearer", scope: "apply:write" }, rateLimit: perClient, handler: () => ok({}) }) })).toThrow(
      'Endpoint "POST /per-client" spends a sub-limit per client, which its bearer caller does not have',
    );
    expect(() => defineRoute("site", "/per-project", { POST: endpoint({ auth: { kind: "none" }, rateLimit: SUB_LIMITS.applicationsCreate, handler: () => ok({}) }) })).toThrow("per project");
  });
});
