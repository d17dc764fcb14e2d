// The company registry: who may borrow. Only UK incorporated bodies corporate (limited companies and LLPs) can,
// so every lookup answers either with an active company or with the reason it cannot borrow.
import { config } from "../env";
import { CompaniesHouseRegistry } from "./companies-house-registry";
import { QuotaKeepingRegistry } from "./quota";
import { SandboxRegistry } from "./sandbox-registry";

export interface RegisteredCompany {
  companyNumber: string;
  name: string;
  kind: "private_limited_company" | "llp";
  status: "active";
  /** YYYY-MM-DD */
  incorporatedOn: string;
}

export type CompanyLookupFailure = "invalid_format" | "company_not_found" | "not_incorporated" | "company_dissolved";

export type CompanyLookup = { found: true; company: RegisteredCompany } | { found: false; reason: CompanyLookupFailure };

/** Who a lookup is for: an authenticated partner create, or an apply.js widget start (lib/registry/quota.ts). */
export type RegistryCaller = "partner" | "widget";

export interface LookupOptions {
  caller: RegistryCaller;
}

export interface CompanyRegistry {
  /** Throws `RegistryUnavailableError` when the registry cannot give an answer; never for a bad number. */
  lookup(companyNumber: string, options?: LookupOptions): Promise<CompanyLookup>;
}

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
export function companyRegistry(environment: "sandbox" | "live"): CompanyRegistry {
  if (environment === "sandbox") return sandboxRegistry;
  if (!liveRegistry) {
    const registry = createRegistry({ companiesHouseApiKey: config().COMPANIES_HOUSE_API_KEY, companiesHouseApiUrl: config().COMPANIES_HOUSE_API_URL });
    liveRegistry = registry instanceof SandboxRegistry ? registry : new QuotaKeepingRegistry(registry);
  }
  return liveRegistry;
}
