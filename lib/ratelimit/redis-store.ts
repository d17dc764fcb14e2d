// The Redis-backed store: @upstash/ratelimit's token bucket and fixed window, over Upstash (REST) or a plain
// Redis (through the ioredis adapter), plus concurrency slots from a small script of our own.
import { Ratelimit } from "@upstash/ratelimit";
import type { Redis as UpstashRedis } from "@upstash/redis";
import type { ScriptClient } from "./ioredis-adapter";
import type { RatePolicy } from "./policies";
import { tokenBucketDecision, type LimitDecision, type RateLimitStore } from "./store";

const ACQUIRE_SLOT = `
local count = redis.call("INCR", KEYS[1])
redis.call("PEXPIRE", KEYS[1], ARGV[2])
if count > tonumber(ARGV[1]) then
  redis.call("DECR", KEYS[1])
  return 0
end
return 1`;

const RELEASE_SLOT = `
local count = redis.call("DECR", KEYS[1])
if count < 0 then redis.call("SET", KEYS[1], 0, "PX", 60000) end
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

  async acquire(key: string, max: number, ttlMs: number): Promise<boolean> {
    return Number(await this.client.eval(ACQUIRE_SLOT, [`${this.prefix}:cc:${key}`], [max, ttlMs])) === 1;
  }

  async release(key: string): Promise<void> {
    await this.client.eval(RELEASE_SLOT, [`${this.prefix}:cc:${key}`], []);
  }
}
