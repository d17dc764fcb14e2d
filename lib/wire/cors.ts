// CORS for the public ring (spec 5.3: no credentials, fixed shapes): GET endpoints are readable from any
// origin; POST endpoints (consent, enquiries, support chat) accept only the platform's own site origins
// (BASE_URL and CORS_ALLOWED_ORIGINS), so another site cannot post forms in a visitor's browser.
// An endpoint a publishable key opens (the apply widget's start, which a partner's page calls with a
// publishable key in the body and no credential of the browser's) allows whichever origin calls it, on any ring.
import { config } from "../env";
import type { Ring } from "../errors";

const ALLOWED_HEADERS = "Content-Type, Idempotency-Key";
const EXPOSED_HEADERS = "X-Request-Id, X-Service-Correlation-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After";
const PREFLIGHT_MAX_AGE_SECONDS = 600;

export function siteOrigins(): string[] {
  const { BASE_URL, CORS_ALLOWED_ORIGINS } = config();
  return [new URL(BASE_URL).origin, ...CORS_ALLOWED_ORIGINS];
}

function allowedOrigin(method: string, origin: string | null): string | null {
  if (method === "GET" || method === "HEAD") return "*";
  return origin && siteOrigins().includes(origin) ? origin : null;
}

/** Headers for a response to `method` from `origin`: a public-ring one's, or one a publishable key opens (`anyOrigin`). */
export function corsHeaders(ring: Ring, method: string, origin: string | null, anyOrigin = false): Record<string, string> {
  if (anyOrigin) return origin ? { "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": EXPOSED_HEADERS, Vary: "Origin" } : {};
  if (ring !== "public") return {};
  const allowed = allowedOrigin(method, origin);
  if (!allowed) return {};
  return { "Access-Control-Allow-Origin": allowed, "Access-Control-Expose-Headers": EXPOSED_HEADERS, ...(allowed === "*" ? {} : { Vary: "Origin" }) };
}

/**
 * The answer to a preflight (OPTIONS with Access-Control-Request-Method): on the public ring, or for a method
 * among `anyOriginMethods` (those whose endpoints a publishable key opens).
 */
export function preflightHeaders(ring: Ring, request: Request, allowedMethods: string, anyOriginMethods: ReadonlySet<string> = new Set()): Record<string, string> {
  const requested = request.headers.get("access-control-request-method")?.toUpperCase();
  if (!requested) return {};
  const origin = request.headers.get("origin");
  if (anyOriginMethods.has(requested)) {
    if (!origin) return {};
    return {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": [...anyOriginMethods].join(", "),
      "Access-Control-Allow-Headers": "Content-Type",
      "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
      Vary: "Origin",
    };
  }
  if (ring !== "public") return {};
  const allowed = allowedOrigin(requested, origin);
  if (!allowed) return {};
  return {
    "Access-Control-Allow-Origin": allowed,
    "Access-Control-Allow-Methods": allowedMethods,
    "Access-Control-Allow-Headers": ALLOWED_HEADERS,
    "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
    ...(allowed === "*" ? {} : { Vary: "Origin" }),
  };
}
