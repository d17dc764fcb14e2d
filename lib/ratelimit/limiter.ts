// The process's rate-limit store, chosen from configuration once: Upstash (UPSTASH_REDIS_REST_URL and _TOKEN),
// a plain Redis (REDIS_URL), or in process. When the store cannot be reached, requests are served (fail open),
// the failure is logged and counted, and /public/v1/healthz reports it.
import { Redis as UpstashRedis } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import { config } from "../env";
import { describeError, log } from "../log";
import { ioredisScriptClient, type ScriptClient } from "./ioredis-adapter";
import { MemoryRateLimitStore } from "./memory-store";
import type { RatePolicy } from "./policies";
import { RedisRateLimitStore } from "./redis-store";
import type { LimitDecision, RateLimitStore } from "./store";

export interface RateLimiterStatus {
  backend: RateLimitStore["backend"];
  reachable: boolean;
  /** Decisions served without the store since the process started. */
  failOpenCount: number;
}

const FAILURE_LOG_INTERVAL_MS = 10_000;
/** After a failure the store is left alone this long, so requests are not slowed by a dead Redis. */
const RETRY_STORE_AFTER_MS = 5_000;

export class FailOpenRateLimiter implements RateLimitStore {
  private failures = 0;
  private reachable = true;
  private lastLoggedAt = 0;
  private skipStoreUntil = 0;

  constructor(private readonly store: RateLimitStore) {}

  get backend() {
    return this.store.backend;
  }

  status(): RateLimiterStatus {
    return { backend: this.store.backend, reachable: this.reachable, failOpenCount: this.failures };
  }

  // Real time, not the platform clock: the back-off and the log interval measure a store's outage as it
  // happens, whatever instant tests have frozen the platform's clock at.
  private async guarded<T>(work: () => Promise<T>, fallback: T): Promise<T> {
    if (Date.now() < this.skipStoreUntil) {
      this.failures += 1;
      return fallback;
    }
    try {
      const result = await work();
      this.reachable = true;
      return result;
    } catch (error) {
      this.failures += 1;
      this.reachable = false;
      this.skipStoreUntil = Date.now() + RETRY_STORE_AFTER_MS;
      if (Date.now() - this.lastLoggedAt > FAILURE_LOG_INTERVAL_MS) {
        this.lastLoggedAt = Date.now();
        log.error("rate limiter unreachable: serving without limits", { backend: this.store.backend, fail_open_count: this.failures, ...describeError(error) });
      }
      return fallback;
    }
  }

  limit(policy: RatePolicy, identifier: string): Promise<LimitDecision> {
    const limit = policy.kind === "tokenBucket" ? policy.burst : policy.limit;
    return this.guarded(() => this.store.limit(policy, identifier), { allowed: true, limit, remaining: limit, resetSeconds: 0, retryAfterMs: 0 });
  }

  acquire(key: string, max: number, ttlMs: number): Promise<boolean> {
    return this.guarded(() => this.store.acquire(key, max, ttlMs), true);
  }

  release(key: string): Promise<void> {
    return this.guarded(() => this.store.release(key), undefined);
  }
}

/** An ioredis client that fails fast when Redis is down, so a request never waits on it for long. */
export function connectRedis(url: string): IORedis {
  const client = new IORedis(url, {
    connectTimeout: 1_000,
    commandTimeout: 500,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  client.on("error", () => undefined); // reported through the limiter's fail-open path instead
  return client;
}

export function createStoreFromConfig(): RateLimitStore {
  const settings = config();
  if (settings.UPSTASH_REDIS_REST_URL && settings.UPSTASH_REDIS_REST_TOKEN) {
    const client = new UpstashRedis({ url: settings.UPSTASH_REDIS_REST_URL, token: settings.UPSTASH_REDIS_REST_TOKEN });
    return new RedisRateLimitStore("upstash", client as unknown as ScriptClient);
  }
  if (settings.REDIS_URL) return new RedisRateLimitStore("redis", ioredisScriptClient(connectRedis(settings.REDIS_URL)));
  return new MemoryRateLimitStore();
}

const holder = globalThis as unknown as { __lendingRateLimiter?: FailOpenRateLimiter };

export function rateLimiter(): FailOpenRateLimiter {
  if (!holder.__lendingRateLimiter) {
    holder.__lendingRateLimiter = new FailOpenRateLimiter(createStoreFromConfig());
    log.info("rate limiter ready", { backend: holder.__lendingRateLimiter.backend });
  }
  return holder.__lendingRateLimiter;
}
