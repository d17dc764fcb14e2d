// CORS for the public ring (spec 5.3: no credentials, fixed shapes): GET endpoints are readable from any
// origin; POST endpoints (consent, enquiries, support chat) accept only the platform's own site origins
// (BASE_URL and CORS_ALLOWED_ORIGINS), so another site cannot post forms in a visitor's browser.
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

/** Headers for a public-ring response to `method` from `origin` (none on other rings). */
export function corsHeaders(ring: Ring, method: string, origin: string | null): Record<string, string> {
  if (ring !== "public") return {};
  const allowed = allowedOrigin(method, origin);
  if (!allowed) return {};
  return { "Access-Control-Allow-Origin": allowed, "Access-Control-Expose-Headers": EXPOSED_HEADERS, ...(allowed === "*" ? {} : { Vary: "Origin" }) };
}

/** The answer to a preflight (OPTIONS with Access-Control-Request-Method) on the public ring. */
export function preflightHeaders(ring: Ring, request: Request, allowedMethods: string): Record<string, string> {
  const requested = request.headers.get("access-control-request-method");
  if (ring !== "public" || !requested) return {};
  const allowed = allowedOrigin(requested.toUpperCase(), request.headers.get("origin"));
  if (!allowed) return {};
  return {
    "Access-Control-Allow-Origin": allowed,
    "Access-Control-Allow-Methods": allowedMethods,
    "Access-Control-Allow-Headers": ALLOWED_HEADERS,
    "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
    ...(allowed === "*" ? {} : { Vary: "Origin" }),
  };
}
