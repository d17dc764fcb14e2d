// The company registry: who may borrow. Only UK incorporated bodies corporate (limited companies and LLPs) can,
// so every lookup answers either with an active company or with the reason it cannot borrow.
import { config } from "../env";
import { CompaniesHouseRegistry } from "./companies-house-registry";
import { QuotaKeepingRegistry } from "./quota";
import { SandboxRegistry } from "./sandbox-registry";
import type { CompanyRegistry } from "./types";
import type { TenantEnvironment } from "../tenant";

export interface CreateRegistryOptions {
  companiesHouseApiKey?: string;
  companiesHouseApiUrl?: string;
}

/** Companies House when a key is configured, else the deterministic sandbox. */
export function createRegistry({ companiesHouseApiKey, companiesHouseApiUrl }: CreateRegistryOptions): CompanyRegistry {
  // A blank key counts as unset, as blank variables do in lib/env.ts.
  if (companiesHouseApiKey) return new CompaniesHouseRegistry({ apiKey: companiesHouseApiKey, baseUrl: companiesHouseApiUrl });
  return new SandboxRegistry();
}

const sandboxRegistry = new SandboxRegistry();
let liveRegistry: CompanyRegistry | undefined;

/**
 * The registry for an environment: the sandbox always follows the sandbox rules; live uses Companies House
 * when COMPANIES_HOUSE_API_KEY is set (and the sandbox rules otherwise, for development without a key),
 * through the shared cache and the platform's call budget. The sandbox rules cost nothing and have no quota.
 */
export function companyRegistry(environment: TenantEnvironment): CompanyRegistry {
  if (environment === "sandbox") return sandboxRegistry;
  if (!liveRegistry) {
    const registry = createRegistry({ companiesHouseApiKey: config().COMPANIES_HOUSE_API_KEY, companiesHouseApiUrl: config().COMPANIES_HOUSE_API_URL });
    liveRegistry = registry instanceof SandboxRegistry ? registry : new QuotaKeepingRegistry(registry);
  }
  return liveRegistry;
}
