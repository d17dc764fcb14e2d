// The registry's call budget (lib/registry/quota.ts) is one for the whole platform when the rate limiter keeps
// it in Redis: two limiters over the same Redis stand for two app processes. Without Redis each process keeps
// its own (docs/applications.md, "Company lookups"), shown here for one.
import { randomUUID } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { ioredisScriptClient } from "@/lib/ratelimit/ioredis-adapter";
import { RateLimiter } from "@/lib/ratelimit/limiter";
import { MemoryRateLimitStore } from "@/lib/ratelimit/memory-store";
import { REGISTRY_BUDGET } from "@/lib/ratelimit/policies";
import { RedisRateLimitStore } from "@/lib/ratelimit/redis-store";
import { RegistryBudgetSpentError } from "@/lib/registry/errors";
import { spendRegistryCall } from "@/lib/registry/quota";
import { REDIS_URL, redisAnswers } from "../../helpers/redis";

const redis = await redisAnswers(REDIS_URL);
afterAll(() => redis?.disconnect());

/** Whether a spend went through, or the budget refused it and how long to wait. */
async function attempt(caller: "partner" | "widget", limiter: RateLimiter): Promise<"spent" | number> {
  try {
    await spendRegistryCall(caller, limiter);
    return "spent";
  } catch (error) {
    if (error instanceof RegistryBudgetSpentError) return error.retryAfterMs;
    throw error;
  }
}

const widgetShare = REGISTRY_BUDGET.widgetStarts.burst;
const platform = REGISTRY_BUDGET.platform.burst;

it("is at most 500 calls in any five minutes, 200 of them for widget starts", () => {
  const inFiveMinutes = (policy: { burst: number; ratePerSecond: number }) => Math.round(policy.burst + policy.ratePerSecond * 300);
  expect(inFiveMinutes(REGISTRY_BUDGET.platform)).toBe(500);
  expect(inFiveMinutes(REGISTRY_BUDGET.widgetStarts)).toBe(200);
});

it("in one process: widget starts spend their share and the platform's; partner creates only the platform's", async () => {
  freezeClock("2031-04-01T10:00:00.000Z");
  const limiter = new RateLimiter(new MemoryRateLimitStore());
  for (let index = 0; index < widgetShare; index += 1) expect(await attempt("widget", limiter)).toBe("spent");
  expect(await attempt("widget", limiter)).toBe(2_000);
  for (let index = widgetShare; index < platform; index += 1) expect(await attempt("partner", limiter)).toBe("spent");
  expect(await attempt("partner", limiter)).toBe(1_000);
});

// Where no Redis answers, there is no shared store to show; the in-process case above still runs.
for (const client of redis ? [redis] : []) {
  it("with Redis, is shared by every process: what one spends, the others cannot", async () => {
    const prefix = `test:${randomUUID()}`;
    const [first, second] = [0, 1].map(() => new RateLimiter(new RedisRateLimitStore("redis", ioredisScriptClient(client), prefix))) as [RateLimiter, RateLimiter];
    for (let index = 0; index < widgetShare; index += 1) expect(await attempt("widget", first)).toBe("spent");
    // Redis keeps real time: the wait is the two refills a whole call needs at 8/15 a second, the first under a second away.
    const widgetWait = await attempt("widget", second);
    expect(widgetWait).toBeGreaterThan(1_000);
    expect(widgetWait).toBeLessThanOrEqual(2_000);
    for (let index = widgetShare; index < platform; index += 1) expect(await attempt("partner", second)).toBe("spent");
    const partnerWait = await attempt("partner", first);
    expect(partnerWait).toBeGreaterThan(0);
    expect(partnerWait).toBeLessThanOrEqual(1_000);
  });
}
