// The Redis-backed store: @upstash/ratelimit's token bucket and fixed window, over Upstash (REST) or a plain
// Redis (through the ioredis adapter), plus concurrency slots from a small script of our own.
import { randomUUID } from "node:crypto";
import { Ratelimit } from "@upstash/ratelimit";
import type { Redis as UpstashRedis } from "@upstash/redis";
import type { ScriptClient } from "./ioredis-adapter";
import type { RatePolicy } from "./policies";
import { tokenBucketDecision, type LimitDecision, type RateLimitStore } from "./store";

// A key's slots are a sorted set of slot ids scored by the time each frees itself, so a slot that is never
// given back expires on its own, whatever happens to the others. ARGV: max, ttl ms, slot id, now (ms).
const ACQUIRE_SLOT = `
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", ARGV[4])
if redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call("ZADD", KEYS[1], tonumber(ARGV[4]) + tonumber(ARGV[2]), ARGV[3])
redis.call("PEXPIRE", KEYS[1], ARGV[2])
return 1`;

const RELEASE_SLOT = `redis.call("ZREM", KEYS[1], ARGV[1])
return 1`;

export class RedisRateLimitStore implements RateLimitStore {
  private readonly limiters = new Map<string, Ratelimit>();

  constructor(
    readonly backend: "upstash" | "redis",
    private readonly client: ScriptClient,
    private readonly prefix = "lending:rl",
  ) {}

  private limiterFor(policy: RatePolicy): Ratelimit {
    const id = policy.kind === "tokenBucket" ? `${policy.name}:tb:${policy.ratePerSecond}:${policy.burst}` : `${policy.name}:fw:${policy.limit}:${policy.windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis: this.client as unknown as UpstashRedis,
        limiter:
          policy.kind === "tokenBucket"
            ? Ratelimit.tokenBucket(policy.ratePerSecond, "1 s", policy.burst)
            : Ratelimit.fixedWindow(policy.limit, `${policy.windowSeconds} s`),
        prefix: `${this.prefix}:${id}`,
        // Every decision goes to the store: no in-process cache, and no silent allow-on-timeout (we fail
        // open ourselves, and count it).
        ephemeralCache: false,
        analytics: false,
        timeout: 0,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  async limit(policy: RatePolicy, identifier: string): Promise<LimitDecision> {
    const result = await this.limiterFor(policy).limit(identifier);
    // Real time, not the platform clock: @upstash/ratelimit keys its windows and computes `reset` on this
    // machine's real time, so only real time measures the wait until it.
    const msToReset = result.reset - Date.now();
    if (policy.kind === "fixedWindow") {
      return {
        allowed: result.success,
        limit: result.limit,
        remaining: result.remaining,
        resetSeconds: Math.max(0, Math.ceil(msToReset / 1000)),
        retryAfterMs: result.success ? 0 : Math.max(0, msToReset),
      };
    }
    return tokenBucketDecision({
      allowed: result.success,
      burst: policy.burst,
      ratePerSecond: policy.ratePerSecond,
      remaining: Math.max(0, result.remaining),
      msUntilNextRefill: msToReset,
    });
  }

  // Real time, like the limits above: every process's slots are scored on the same clock.
  async acquire(key: string, max: number, ttlMs: number): Promise<string | null> {
    const slot = randomUUID();
    const taken = Number(await this.client.eval(ACQUIRE_SLOT, [this.slotsKey(key)], [max, ttlMs, slot, Date.now()])) === 1;
    return taken ? slot : null;
  }

  async release(key: string, slot: string): Promise<void> {
    await this.client.eval(RELEASE_SLOT, [this.slotsKey(key)], [slot]);
  }

  private slotsKey(key: string): string {
    return `${this.prefix}:slots:${key}`;
  }
}
