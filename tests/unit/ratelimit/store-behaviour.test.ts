// One behaviour suite for every rate-limit store available here: the in-process store always, and the Redis
// store (the @upstash/ratelimit scripts through the ioredis adapter) when a Redis answers at REDIS_URL or, by
// default, 127.0.0.1:6379. Time is set, not waited for: the stores read it from Date (the Redis store's
// windows are keyed on it, the in-process store's real clock is made from it), which the suite fakes and moves on.
// Then the in-process store's bounds, and the limiter's fallback to it when a remote store fails.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ioredisScriptClient } from "@/lib/ratelimit/ioredis-adapter";
import { connectRedis, RateLimiter } from "@/lib/ratelimit/limiter";
import { freezeClock } from "@/lib/clock";
import { MemoryRateLimitStore } from "@/lib/ratelimit/memory-store";
import type { FixedWindowPolicy, TokenBucketPolicy } from "@/lib/ratelimit/policies";
import { RedisRateLimitStore } from "@/lib/ratelimit/redis-store";
import type { RateLimitStore } from "@/lib/ratelimit/store";
import { captureLogs } from "../../helpers/logs";
import { REDIS_URL, redisAnswers } from "../../helpers/redis";

const redis = await redisAnswers(REDIS_URL);
afterAll(() => redis?.disconnect());

const backends: Array<[string, () => RateLimitStore]> = [
  ["in process", () => new MemoryRateLimitStore()],
  ...(redis ? [["redis", () => new RedisRateLimitStore("redis", ioredisScriptClient(redis), `test:${randomUUID()}`)] as [string, () => RateLimitStore]] : []),
];

/** Moves the faked Date on by `ms`, as that much time passing would. */
const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
const bucket: TokenBucketPolicy = { kind: "tokenBucket", name: "behaviour", ratePerSecond: 2, burst: 3 };
const window: FixedWindowPolicy = { kind: "fixedWindow", name: "behaviour-window", limit: 3, windowSeconds: 1 };

describe.each(backends)("the %s store", (_name, makeStore) => {
  // Just after a one-second window's start, so a test's requests fall in one window.
  beforeEach(() => vi.useFakeTimers({ toFake: ["Date"], now: new Date("2027-01-01T00:00:00.020Z") }));
  afterEach(() => vi.useRealTimers());

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

    advance(1_100);
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
    const results = [];
    for (let index = 0; index < 4; index += 1) results.push(await store.limit(window, id));
    expect(results.map((result) => result.allowed)).toEqual([true, true, true, false]);
    expect(results.map((result) => result.remaining)).toEqual([2, 1, 0, 0]);
    expect(results[3]!.retryAfterMs).toBeLessThanOrEqual(1000);
    advance(1_000);
    expect((await store.limit(window, id)).allowed).toBe(true);
  });

  it("caps concurrent slots and frees the one given back", async () => {
    const store = makeStore();
    const key = randomUUID();
    const first = await store.acquire(key, 2, 60_000);
    const second = await store.acquire(key, 2, 60_000);
    expect([typeof first, typeof second]).toEqual(["string", "string"]);
    expect(first).not.toBe(second);
    expect(await store.acquire(key, 2, 60_000)).toBeNull();
    await store.release(key, first!);
    await store.release(key, first!); // a second release of the same slot frees nothing more
    expect(await store.acquire(key, 2, 60_000)).not.toBeNull();
    expect(await store.acquire(key, 2, 60_000)).toBeNull();
  });

  it("frees a slot that is never given back once its time is up, however often others ask", async () => {
    const store = makeStore();
    const key = randomUUID();
    expect(await store.acquire(key, 2, 400)).not.toBeNull();
    expect(await store.acquire(key, 2, 60_000)).not.toBeNull();
    const answers: boolean[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1) {
      advance(100);
      answers.push((await store.acquire(key, 2, 60_000)) !== null);
    }
    // Refused while both are held, then the lost slot (400 ms) frees itself; the long one stays held.
    expect(answers.slice(0, 2)).toEqual([false, false]);
    expect(answers.filter(Boolean)).toHaveLength(1);
  });
});

describe("a rate below one a second, in the in-process store", () => {
  const halfASecond: TokenBucketPolicy = { kind: "tokenBucket", name: "half", ratePerSecond: 0.5, burst: 2 };

  it("says to retry when a whole token is back, and counts whole tokens", async () => {
    const clock = freezeClock("2027-01-01T00:00:00.000Z");
    const store = new MemoryRateLimitStore();
    expect(await store.limit(halfASecond, "caller")).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 2 });
    expect(await store.limit(halfASecond, "caller")).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 4 });
    // Two refills of half a token make the next one.
    expect(await store.limit(halfASecond, "caller")).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 2_000 });
    clock.advance(1_000);
    expect(await store.limit(halfASecond, "caller")).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 1_000, resetSeconds: 3 });
    clock.advance(1_000);
    expect(await store.limit(halfASecond, "caller")).toMatchObject({ allowed: true, remaining: 0 });
    clock.advance(1_000);
    // Half a token is no token.
    expect(await store.limit(halfASecond, "caller")).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 1_000 });
  });
});

describe("the in-process store's size", () => {
  it("drops entries that say nothing a fresh one would not", async () => {
    const clock = freezeClock("2027-01-01T00:00:00.000Z");
    const store = new MemoryRateLimitStore();
    for (let index = 0; index < 500; index += 1) await store.limit(bucket, `caller-${index}`);
    await store.acquire("slots", 5, 2_000);
    expect(store.size).toBe(501);
    clock.advance(10_000); // every bucket full again, the slot expired, a sweep due
    await store.limit(bucket, "one more");
    expect(store.size).toBe(1);
  });

  it("never holds more than its cap, letting the least recently used go", async () => {
    freezeClock("2027-01-02T00:00:00.000Z");
    const store = new MemoryRateLimitStore(10);
    for (let index = 0; index < 3; index += 1) await store.limit(bucket, "busy");
    for (let index = 0; index < 50; index += 1) {
      await store.limit(bucket, `passer-by-${index}`);
      if (index % 5 === 0) expect((await store.limit(bucket, "busy")).allowed).toBe(false); // used: kept, still empty
    }
    expect(store.size).toBe(10);
  });
});

describe("when the remote store fails", () => {
  const deadRedis = () => new RateLimiter(new RedisRateLimitStore("redis", ioredisScriptClient(connectRedis("redis://127.0.0.1:1")), "dead"));

  it("limits in process, counts it and reports the store unreachable", async () => {
    const limiter = deadRedis();
    const id = randomUUID();
    const decisions = [];
    for (let index = 0; index < 4; index += 1) decisions.push((await limiter.limit(bucket, id)).allowed);
    expect(decisions).toEqual([true, true, true, false]);
    const release = await limiter.acquire(id, 1, 60_000);
    expect(release).not.toBeNull();
    expect(await limiter.acquire(id, 1, 60_000)).toBeNull();
    await release!();
    expect(await limiter.acquire(id, 1, 60_000)).not.toBeNull();
    expect(limiter.status()).toEqual({ backend: "redis", reachable: false, fallbackCount: 7 });
  });

  it("does not wait on a store that never answers", async () => {
    const hanging: RateLimitStore = { backend: "upstash", limit: () => new Promise(() => undefined), acquire: () => new Promise(() => undefined), release: () => new Promise(() => undefined) };
    const limiter = new RateLimiter(hanging);
    const started = performance.now();
    expect((await limiter.limit(bucket, randomUUID())).allowed).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(limiter.status()).toMatchObject({ reachable: false, fallbackCount: 1 });
  });

  it("leaves a failed store alone for 5 s of real time, then asks it again, logging the outage at most once in 10 s", async () => {
    let elapsedMs = 0;
    let failing = true;
    const asked: number[] = [];
    const working = new MemoryRateLimitStore();
    const flaky: RateLimitStore = {
      backend: "redis",
      limit: async (policy, identifier) => {
        asked.push(elapsedMs);
        if (failing) throw new Error("connection lost");
        return working.limit(policy, identifier);
      },
      acquire: (key, max, ttlMs) => working.acquire(key, max, ttlMs),
      release: (key, slot) => working.release(key, slot),
    };
    const limiter = new RateLimiter(flaky, () => elapsedMs);
    const decideAt = async (at: number) => {
      elapsedMs = at;
      return limiter.limit(bucket, randomUUID());
    };

    const { entries } = await captureLogs(async () => {
      for (const at of [0, 4_999, 5_000, 9_999, 10_001]) await decideAt(at);
    });
    expect(asked).toEqual([0, 5_000, 10_001]);
    expect(entries.filter((entry) => entry.level === "error").map((entry) => entry.msg)).toEqual([
      "rate limiter unreachable: limiting in process",
      "rate limiter unreachable: limiting in process",
    ]);
    expect(limiter.status()).toEqual({ backend: "redis", reachable: false, fallbackCount: 5 });

    failing = false;
    await decideAt(15_000);
    expect(await decideAt(15_001)).toMatchObject({ allowed: true });
    expect(asked).toEqual([0, 5_000, 10_001, 15_001]);
    expect(limiter.status()).toEqual({ backend: "redis", reachable: true, fallbackCount: 6 });
  });

  it("reports the in-process store as reachable, with nothing to fall back from", async () => {
    const limiter = new RateLimiter(new MemoryRateLimitStore());
    await limiter.limit(bucket, randomUUID());
    expect(limiter.status()).toEqual({ backend: "memory", reachable: true, fallbackCount: 0 });
  });
});

it("requires an explicitly configured REDIS_URL to answer rather than quietly testing less", () => {
  expect(process.env.REDIS_URL === undefined || redis !== null).toBe(true);
});
