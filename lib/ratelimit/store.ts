// The limiter interface every backend implements, so the same policies run everywhere.

import type { RatePolicy } from "./policies";

export interface LimitDecision {
  allowed: boolean;
  /** Bucket size (token bucket) or window allowance (fixed window). */
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again (token bucket) or the window resets (fixed window). */
  resetSeconds: number;
  /** When refused: how long until a request may succeed. */
  retryAfterMs: number;
}

export interface RateLimitStore {
  readonly backend: "upstash" | "redis" | "memory";
  /** Spends one unit of `policy` for `identifier`. */
  limit(policy: RatePolicy, identifier: string): Promise<LimitDecision>;
  /**
   * Takes one of `max` concurrent slots for `key`: the slot's id, or null when all are taken. Each slot frees
   * itself `ttlMs` after it was taken if it is never given back (a crashed process, a lost release).
   */
  acquire(key: string, max: number, ttlMs: number): Promise<string | null>;
  release(key: string, slot: string): Promise<void>;
}

/**
 * Derives the header values from a token bucket's state. `remaining` may be fractional (a rate below one a
 * second, or one scaled by RATE_LIMIT_SCALE): a request needs a whole token, so a refused one waits for as
 * many refills as make one, and the header counts whole tokens.
 */
export function tokenBucketDecision(options: {
  allowed: boolean;
  burst: number;
  ratePerSecond: number;
  remaining: number;
  msUntilNextRefill: number;
}): LimitDecision {
  const { allowed, burst, ratePerSecond, remaining } = options;
  const nextRefill = Math.max(0, options.msUntilNextRefill);
  /** The time the bucket takes to hold `tokens`: refills come once a second, the first after `nextRefill`. */
  const msUntilHolding = (tokens: number) => {
    const refills = Math.ceil((tokens - remaining) / ratePerSecond);
    return refills <= 0 ? 0 : nextRefill + (refills - 1) * 1000;
  };
  return {
    allowed,
    limit: burst,
    remaining: Math.floor(remaining),
    resetSeconds: Math.ceil(msUntilHolding(burst) / 1000),
    retryAfterMs: allowed ? 0 : msUntilHolding(1),
  };
}
