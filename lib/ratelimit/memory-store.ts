// The embedded default: the same policies as @upstash/ratelimit (token bucket refilled once per interval,
// fixed window, concurrency slots) kept in this process's memory and timed by the platform clock.
import { clock } from "../clock";
import type { RatePolicy } from "./policies";
import { tokenBucketDecision, type LimitDecision, type RateLimitStore } from "./store";

const INTERVAL_MS = 1000;

interface Bucket {
  tokens: number;
  refilledAt: number;
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly backend = "memory" as const;
  private readonly buckets = new Map<string, Bucket>();
  private readonly windows = new Map<string, { window: number; count: number }>();
  private readonly slots = new Map<string, number[]>();

  async limit(policy: RatePolicy, identifier: string): Promise<LimitDecision> {
    const now = clock.now().getTime();
    const key = `${policy.name}:${identifier}`;
    if (policy.kind === "fixedWindow") {
      const windowMs = policy.windowSeconds * 1000;
      const window = Math.floor(now / windowMs);
      const current = this.windows.get(key);
      const count = (current && current.window === window ? current.count : 0) + 1;
      const allowed = count <= policy.limit;
      if (allowed) this.windows.set(key, { window, count });
      const msToReset = (window + 1) * windowMs - now;
      return {
        allowed,
        limit: policy.limit,
        remaining: Math.max(0, policy.limit - Math.min(count, policy.limit)),
        resetSeconds: Math.ceil(msToReset / 1000),
        retryAfterMs: allowed ? 0 : msToReset,
      };
    }
    const bucket = this.buckets.get(key) ?? { tokens: policy.burst, refilledAt: now };
    if (now >= bucket.refilledAt + INTERVAL_MS) {
      const refills = Math.floor((now - bucket.refilledAt) / INTERVAL_MS);
      bucket.tokens = Math.min(policy.burst, bucket.tokens + refills * policy.ratePerSecond);
      bucket.refilledAt += refills * INTERVAL_MS;
    }
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    return tokenBucketDecision({
      allowed,
      burst: policy.burst,
      ratePerSecond: policy.ratePerSecond,
      remaining: bucket.tokens,
      msUntilNextRefill: bucket.refilledAt + INTERVAL_MS - now,
    });
  }

  async acquire(key: string, max: number, ttlMs: number): Promise<boolean> {
    const now = clock.now().getTime();
    const live = (this.slots.get(key) ?? []).filter((expiresAt) => expiresAt > now);
    if (live.length >= max) {
      this.slots.set(key, live);
      return false;
    }
    live.push(now + ttlMs);
    this.slots.set(key, live);
    return true;
  }

  async release(key: string): Promise<void> {
    const live = this.slots.get(key);
    if (!live || live.length === 0) return;
    live.sort((a, b) => a - b).shift();
  }
}
