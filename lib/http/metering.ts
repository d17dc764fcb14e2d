// The rate-limit steps (spec 8). Partner requests spend a token from their project's bucket (per environment,
// not per key) and take a concurrency slot before their body is parsed; a route's sub-limit is spent just
// before its handler; requests without a valid token and the public ring are limited per client address.
import { config } from "../env";
import { ANONYMOUS_PARTNER_LIMIT, describePolicy, projectBucketPolicy, PUBLIC_LIMIT, ROUTE_LIMITS, scalePolicy, tierLimitsFor, type RatePolicy } from "../ratelimit/policies";
import { rateLimiter } from "../ratelimit/limiter";
import type { LimitDecision } from "../ratelimit/store";
import type { Principal } from "./auth";
import { clientAddress } from "./client-address";
import { ApiError } from "./errors";
import type { RequestContext } from "./request-context";

export interface RateLimitState {
  policy: RatePolicy;
  decision: LimitDecision;
}

/** A slot is given back when its request ends; one a crashed process never returns expires after this. */
const CONCURRENCY_SLOT_TTL_MS = 60_000;

/** Spends one unit of `policy`; the first decision (or a refusal) is the one the response headers describe. */
export async function enforceLimit(context: RequestContext, unscaled: RatePolicy, identifier: string): Promise<void> {
  const policy = scalePolicy(unscaled, config().RATE_LIMIT_SCALE);
  const decision = await rateLimiter().limit(policy, identifier);
  if (!context.rateLimit || !decision.allowed) context.rateLimit = { policy, decision };
  if (!decision.allowed) {
    throw new ApiError("rate_limited", {
      message: `Rate limit exceeded (${describePolicy(policy)}); retry after the Retry-After delay.`,
      retryAfterMs: decision.retryAfterMs,
    });
  }
}

/** Meters an authenticated partner request; returns the function that gives its concurrency slot back. */
export async function meterPartnerRequest(principal: Principal, context: RequestContext): Promise<() => Promise<void>> {
  const limits = tierLimitsFor(principal.limitSettings, principal.environment);
  const bucket = `${principal.projectId}:${principal.environment}`;
  await enforceLimit(context, projectBucketPolicy(limits), bucket);
  if (!(await rateLimiter().acquire(bucket, limits.concurrent * config().RATE_LIMIT_SCALE, CONCURRENCY_SLOT_TTL_MS))) {
    throw new ApiError("rate_limited", {
      message: `Too many concurrent requests (at most ${limits.concurrent} for this project and environment).`,
      retryAfterMs: 1_000,
    });
  }
  return () => rateLimiter().release(bucket);
}

/**
 * A route's sub-limit (spec 8), spent just before its handler runs. Sub-limits meter the operation, so a request
 * that never reaches it (invalid input, an Idempotency-Key replay or in-progress answer) does not spend one;
 * the project bucket, spent at admission, counts every request.
 */
export async function meterRouteOperation(principal: Principal, routeKey: string, context: RequestContext): Promise<void> {
  const routeLimit = ROUTE_LIMITS[routeKey];
  if (routeLimit) await enforceLimit(context, routeLimit, `${principal.projectId}:${principal.environment}`);
}

export function meterAnonymousPartnerRequest(request: Request, context: RequestContext): Promise<void> {
  return enforceLimit(context, ANONYMOUS_PARTNER_LIMIT, clientAddress(request));
}

export function meterPublicRequest(request: Request, context: RequestContext): Promise<void> {
  return enforceLimit(context, PUBLIC_LIMIT, clientAddress(request));
}

export function rateLimitHeaders({ policy, decision }: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
    "RateLimit-Reset": String(decision.resetSeconds),
    "RateLimit-Policy": describePolicy(policy),
  };
}
