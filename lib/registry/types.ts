// What a company registry answers and how it is asked: shared by the factory (registry.ts) and each registry it
// builds, so the implementations never import the factory.
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
