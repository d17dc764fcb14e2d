// One behaviour suite for every rate-limit store available here: the in-process store always, and the Redis
// store (the @upstash/ratelimit scripts through the ioredis adapter) when a Redis answers at REDIS_URL or, by
// default, 127.0.0.1:6379. Real time with small numbers: waits are about a second.
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { ioredisScriptClient } from "@/lib/ratelimit/ioredis-adapter";
import { connectRedis, FailOpenRateLimiter } from "@/lib/ratelimit/limiter";
import { MemoryRateLimitStore } from "@/lib/ratelimit/memory-store";
import type { FixedWindowPolicy, TokenBucketPolicy } from "@/lib/ratelimit/policies";
import { RedisRateLimitStore } from "@/lib/ratelimit/redis-store";
import type { RateLimitStore } from "@/lib/ratelimit/store";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

async function redisAnswers(url: string): Promise<Redis | null> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    return client;
  } catch {
    client.disconnect();
    return null;
  }
}

const redis = await redisAnswers(REDIS_URL);
afterAll(() => redis?.disconnect());

const backends: Array<[string, () => RateLimitStore]> = [
  ["in process", () => new MemoryRateLimitStore()],
  ...(redis ? [["redis", () => new RedisRateLimitStore("redis", ioredisScriptClient(redis), `test:${randomUUID()}`)] as [string, () => RateLimitStore]] : []),
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const bucket: TokenBucketPolicy = { kind: "tokenBucket", name: "behaviour", ratePerSecond: 2, burst: 3 };
const window: FixedWindowPolicy = { kind: "fixedWindow", name: "behaviour-window", limit: 3, windowSeconds: 1 };

describe.each(backends)("the %s store", (_name, makeStore) => {
  it("allows a burst, refuses the next request, then refills at the rate", async () => {
    const store = makeStore();
    const id = randomUUID();
    const first = await store.limit(bucket, id);
    expect(first).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    expect((await store.limit(bucket, id)).remaining).toBe(1);
    expect((await store.limit(bucket, id)).remaining).toBe(0);
    const refused = await store.limit(bucket, id);
    expect(refused).toMatchObject({ allowed: false, limit: 3, remaining: 0 });
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(1000);
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);

    await sleep(1_100);
    expect((await store.limit(bucket, id)).allowed).toBe(true);
    expect((await store.limit(bucket, id)).allowed).toBe(true);
    expect((await store.limit(bucket, id)).allowed).toBe(false);
  });

  it("keeps identifiers apart", async () => {
    const store = makeStore();
    const [one, two] = [randomUUID(), randomUUID()];
    for (let index = 0; index < 3; index += 1) await store.limit(bucket, one);
    expect((await store.limit(bucket, one)).allowed).toBe(false);
    expect((await store.limit(bucket, two))).toMatchObject({ allowed: true, remaining: 2 });
  });

  it("counts a fixed window and opens again in the next one", async () => {
    const store = makeStore();
    const id = randomUUID();
    // Start just after a window boundary so all four requests fall in one window.
    await sleep(1000 - (Date.now() % 1000) + 20);
    const results = [];
    for (let index = 0; index < 4; index += 1) results.push(await store.limit(window, id));
    expect(results.map((result) => result.allowed)).toEqual([true, true, true, false]);
    expect(results.map((result) => result.remaining)).toEqual([2, 1, 0, 0]);
    expect(results[3]!.retryAfterMs).toBeLessThanOrEqual(1000);
    await sleep(1000 - (Date.now() % 1000) + 20);
    expect((await store.limit(window, id)).allowed).toBe(true);
  });

  it("caps concurrent slots and frees them on release", async () => {
    const store = makeStore();
    const key = randomUUID();
    expect(await store.acquire(key, 2, 60_000)).toBe(true);
    expect(await store.acquire(key, 2, 60_000)).toBe(true);
    expect(await store.acquire(key, 2, 60_000)).toBe(false);
    await store.release(key);
    expect(await store.acquire(key, 2, 60_000)).toBe(true);
    expect(await store.acquire(key, 2, 60_000)).toBe(false);
  });
});

describe("failing open", () => {
  it("serves, counts and reports when the store is unreachable", async () => {
    const dead = new FailOpenRateLimiter(new RedisRateLimitStore("redis", ioredisScriptClient(connectRedis("redis://127.0.0.1:1")), "dead"));
    const decision = await dead.limit(bucket, "anyone");
    expect(decision).toEqual({ allowed: true, limit: 3, remaining: 3, resetSeconds: 0, retryAfterMs: 0 });
    expect(await dead.acquire("anyone", 1, 1000)).toBe(true);
    expect(dead.status()).toEqual({ backend: "redis", reachable: false, failOpenCount: 2 });
  });

  it("reports reachable again once the store answers", async () => {
    const limiter = new FailOpenRateLimiter(new MemoryRateLimitStore());
    await limiter.limit(bucket, randomUUID());
    expect(limiter.status()).toEqual({ backend: "memory", reachable: true, failOpenCount: 0 });
  });
});

it("requires an explicitly configured REDIS_URL to answer rather than quietly testing less", () => {
  expect(process.env.REDIS_URL === undefined || redis !== null).toBe(true);
});
