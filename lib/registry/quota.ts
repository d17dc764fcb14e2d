// Companies House's quota (600 calls per five minutes) is the platform's, not a partner's: keep within it.
// Answers are shared across processes (lookup-cache.ts) and each real call spends the platform's budget
// (REGISTRY_BUDGET), of which apply.js widget starts, open to anyone holding a public publishable key, may take
// only their share, so they can never leave authenticated partner creates without lookups. The budget lives in the
// rate limiter's store: shared by every process with Redis, per process in the in-process fallback.
import { rateLimiter, type RateLimiter } from "../ratelimit/limiter";
import { REGISTRY_BUDGET, type TokenBucketPolicy } from "../ratelimit/policies";
import { isWellFormedCompanyNumber } from "./company-number";
import { RegistryBudgetSpentError } from "./errors";
import { cacheLookup, readCachedLookup } from "./lookup-cache";
import type { CompanyLookup, CompanyRegistry, LookupOptions, RegistryCaller } from "./types";

async function spend(limiter: RateLimiter, policy: TokenBucketPolicy): Promise<void> {
  const decision = await limiter.limit(policy, "platform");
  if (!decision.allowed) throw new RegistryBudgetSpentError(decision.retryAfterMs);
}

/** Spends one registry call from the caller's share and the platform's budget; throws when either is spent. */
export async function spendRegistryCall(caller: RegistryCaller, limiter: RateLimiter = rateLimiter()): Promise<void> {
  if (caller === "widget") await spend(limiter, REGISTRY_BUDGET.widgetStarts);
  await spend(limiter, REGISTRY_BUDGET.platform);
}

/** A registry with a quota: answered from the shared cache when it can be, else a call that spends the budget. */
export class QuotaKeepingRegistry implements CompanyRegistry {
  constructor(private readonly registry: CompanyRegistry) {}

  async lookup(companyNumber: string, { caller }: LookupOptions = { caller: "partner" }): Promise<CompanyLookup> {
    // A malformed number is refused without a call, and is no company to remember.
    if (!isWellFormedCompanyNumber(companyNumber)) return { found: false, reason: "invalid_format" };
    const cached = await readCachedLookup(companyNumber);
    if (cached) return cached;
    await spendRegistryCall(caller);
    // A registry that fails throws here: failures are not kept, and the next lookup asks again.
    const lookup = await this.registry.lookup(companyNumber);
    await cacheLookup(companyNumber, lookup);
    return lookup;
  }
}
