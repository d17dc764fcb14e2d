// The process's rate limiter: the store chosen from configuration once (Upstash with UPSTASH_REDIS_REST_URL and
// _TOKEN, a plain Redis with REDIS_URL, or in process) and, in front of a remote store, an in-process fallback.
// A remote store that errors or does not answer within REMOTE_TIMEOUT_MS is left alone for a few seconds while
// this process limits on its own (per process, so a fleet of N allows up to N times a limit, never unlimited);
// then the remote store is tried again. Every fallback decision is counted and the outage logged.
import { Redis as UpstashRedis } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import { realElapsedTime, type ElapsedTime } from "../clock";
import { config } from "../env";
import { describeError, log } from "../log";
import { withTimeout } from "../with-timeout";
import { ioredisScriptClient, type ScriptClient } from "./ioredis-adapter";
import { MemoryRateLimitStore } from "./memory-store";
import type { RatePolicy } from "./policies";
import { RedisRateLimitStore } from "./redis-store";
import type { LimitDecision, RateLimitStore } from "./store";

export interface RateLimiterStatus {
  backend: RateLimitStore["backend"];
  reachable: boolean;
  /** Decisions made by the in-process fallback since the process started. */
  fallbackCount: number;
}

/** A remote decision takes a millisecond or two; one that takes longer than this is treated as an outage. */
const REMOTE_TIMEOUT_MS = 250;
const FAILURE_LOG_INTERVAL_MS = 10_000;
/** After a failure the remote store is left alone this long, so requests are not slowed by a dead Redis. */
const RETRY_STORE_AFTER_MS = 5_000;

/** Gives a concurrency slot back. */
export type ReleaseSlot = () => Promise<void>;

export class RateLimiter {
  private readonly fallback: MemoryRateLimitStore;
  private fallbacks = 0;
  private reachable = true;
  private lastLoggedAt = Number.NEGATIVE_INFINITY;
  private skipStoreUntil = Number.NEGATIVE_INFINITY;

  /**
   * `elapsedTime` times the back-off and the log interval: real time, not the platform clock, since they measure a
   * store's outage as it happens, whatever instant tests have frozen the platform's clock at.
   */
  constructor(
    readonly store: RateLimitStore,
    private readonly elapsedTime: ElapsedTime = realElapsedTime,
  ) {
    this.fallback = store instanceof MemoryRateLimitStore ? store : new MemoryRateLimitStore();
  }

  get backend() {
    return this.store.backend;
  }

  status(): RateLimiterStatus {
    return { backend: this.store.backend, reachable: this.reachable, fallbackCount: this.fallbacks };
  }

  private async decide<T>(work: (store: RateLimitStore) => Promise<T>): Promise<T> {
    if (this.store === this.fallback) return work(this.store);
    if (this.elapsedTime() >= this.skipStoreUntil) {
      try {
        const result = await withTimeout(work(this.store), REMOTE_TIMEOUT_MS);
        this.reachable = true;
        return result;
      } catch (error) {
        this.reachable = false;
        const failedAt = this.elapsedTime();
        this.skipStoreUntil = failedAt + RETRY_STORE_AFTER_MS;
        if (failedAt - this.lastLoggedAt > FAILURE_LOG_INTERVAL_MS) {
          this.lastLoggedAt = failedAt;
          log.error("rate limiter unreachable: limiting in process", { backend: this.store.backend, fallback_count: this.fallbacks, ...describeError(error) });
        }
      }
    }
    this.fallbacks += 1;
    return work(this.fallback);
  }

  limit(policy: RatePolicy, identifier: string): Promise<LimitDecision> {
    return this.decide((store) => store.limit(policy, identifier));
  }

  /** Takes one of `max` slots for `key`: the function that gives it back, or null when all are taken. */
  async acquire(key: string, max: number, ttlMs: number): Promise<ReleaseSlot | null> {
    let granting = this.store;
    const slot = await this.decide((store) => {
      granting = store;
      return store.acquire(key, max, ttlMs);
    });
    if (slot === null) return null;
    // Back to the store that granted it; a slot that cannot be given back expires on its own.
    const store = granting;
    if (store === this.fallback) return () => store.release(key, slot);
    return () => withTimeout(store.release(key, slot), REMOTE_TIMEOUT_MS).catch(() => undefined);
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
  client.on("error", () => undefined); // reported through the limiter's fallback instead
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

const holder = globalThis as unknown as { __lendingRateLimiter?: RateLimiter };

export function rateLimiter(): RateLimiter {
  if (!holder.__lendingRateLimiter) {
    holder.__lendingRateLimiter = new RateLimiter(createStoreFromConfig());
    log.info("rate limiter ready", { backend: holder.__lendingRateLimiter.backend });
  }
  return holder.__lendingRateLimiter;
}
