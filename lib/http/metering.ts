// The rate limits (spec 8) the steps spend. Partner requests spend a token from their project's bucket (per environment,
// not per key) and take a concurrency slot before their body is parsed; a route's sub-limit is spent just
// before its handler; requests without a valid token and the public ring are limited per client address.
import { config } from "../env";
import { ANONYMOUS_PARTNER_LIMIT, PERSON_ADDRESS_LIMIT, PERSON_LIMIT, describePolicy, projectBucketPolicy, scalePolicy, tierLimitsFor, type RatePolicy, type SubLimit } from "../ratelimit/policies";
import { rateLimiter } from "../ratelimit/limiter";
import type { Principal, SignedInPerson } from "./auth";
import { subLimitKeyOf, type Caller } from "./auth-kinds";
import { clientAddress } from "../wire/client-address";
import { ApiError } from "../errors";
import type { RequestContext } from "../wire/request-context";

/** A slot is given back when its request ends; one a crashed process never returns expires after this. */
const CONCURRENCY_SLOT_TTL_MS = 60_000;

/**
 * Spends one unit of `policy`. The response headers describe the first decision, or a refusal, or a decision
 * that `replaces` the earlier ones: an authenticated client's own bucket rather than its address's.
 */
async function enforceLimit(context: RequestContext, unscaled: RatePolicy, identifier: string, replaces = false): Promise<void> {
  const policy = scalePolicy(unscaled, config().RATE_LIMIT_SCALE);
  const decision = await rateLimiter().limit(policy, identifier);
  if (!context.rateLimit || !decision.allowed || replaces) context.rateLimit = { policy, decision };
  if (!decision.allowed) {
    throw new ApiError("rate_limited", {
      message: `Rate limit exceeded (${describePolicy(policy)}); retry after the Retry-After delay.`,
      retryAfterMs: decision.retryAfterMs,
    });
  }
}

/**
 * Meters an authenticated partner request; returns the function that gives its concurrency slot back. A
 * streaming response's slot lasts as long as the longest stream may.
 */
export async function meterPartnerRequest(principal: Principal, context: RequestContext, { streams = false } = {}): Promise<() => Promise<void>> {
  const limits = tierLimitsFor(principal.limitSettings, principal.environment);
  const bucket = `${principal.projectId}:${principal.environment}`;
  await enforceLimit(context, projectBucketPolicy(limits), bucket);
  const slotTtlMs = streams ? config().STREAM_MAX_SECONDS * 1000 + CONCURRENCY_SLOT_TTL_MS : CONCURRENCY_SLOT_TTL_MS;
  const release = await rateLimiter().acquire(bucket, limits.concurrent * config().RATE_LIMIT_SCALE, slotTtlMs);
  if (!release) {
    throw new ApiError("rate_limited", {
      message: `Too many concurrent requests (at most ${limits.concurrent} for this project and environment).`,
      retryAfterMs: 1_000,
    });
  }
  return release;
}

/** Meters a person's request (docs/sign-in.md): their own bucket, then their client address's. */
export async function meterPersonRequest(person: SignedInPerson, request: Request, context: RequestContext): Promise<void> {
  await enforceLimit(context, PERSON_LIMIT, person.userId);
  await enforceLimit(context, PERSON_ADDRESS_LIMIT, clientAddress(request));
}

/** Who a sub-limit is spent by: the authenticated caller, or the request's address. */
export interface Metered {
  caller: Caller | null;
  request: Request;
}

/**
 * A route's sub-limit (spec 8), spent just before its handler runs. Sub-limits meter the operation, so a request
 * that never reaches it (invalid input, an Idempotency-Key replay or in-progress answer) does not spend one;
 * the project bucket, spent at admission, counts every request.
 */
export async function meterSubLimit(limit: SubLimit | undefined, metered: Metered, context: RequestContext): Promise<void> {
  if (limit) await enforceLimit(context, limit.policy, subLimitKeyOf(limit.per, metered.caller, metered.request), limit.per === "client");
}

export function meterAnonymousPartnerRequest(request: Request, context: RequestContext): Promise<void> {
  return enforceLimit(context, ANONYMOUS_PARTNER_LIMIT, clientAddress(request));
}

/** A request metered per client address by `policy`: an endpoint's own bucket (`addressLimit`). */
export function meterAddressRequest(policy: RatePolicy, request: Request, context: RequestContext): Promise<void> {
  return enforceLimit(context, policy, clientAddress(request));
}
