// Live lookups against the Companies House public data API: GET /company/{company_number}, HTTP Basic auth with
// the API key as the user name and an empty password.
import { z } from "zod";
import { isWellFormedCompanyNumber } from "./company-number";
import { RegistryUnavailableError } from "./errors";
import type { CompanyLookup, CompanyRegistry, RegisteredCompany } from "./types";

export const COMPANIES_HOUSE_API_URL = "https://api.company-information.service.gov.uk";

/** The part of `fetch` the registry uses, so tests can hand it recorded responses. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export interface CompaniesHouseRegistryOptions {
  apiKey: string;
  fetch?: Fetch;
  baseUrl?: string;
  /** A registry that hangs must not hold an application open. */
  timeoutMs?: number;
}

/** Companies House `type` values of bodies that may borrow; every other type is not an incorporated borrower. */
const KIND_BY_COMPANY_TYPE: Record<string, RegisteredCompany["kind"]> = {
  ltd: "private_limited_company",
  "private-limited-guarant-nsc": "private_limited_company",
  "private-limited-guarant-nsc-limited-exemption": "private_limited_company",
  plc: "private_limited_company",
  llp: "llp",
};

// Only the fields we read; the profile carries many more (accounts, links, registered_office_address...).
const companyProfileSchema = z.object({
  company_name: z.string().min(1),
  company_status: z.string().min(1),
  type: z.string().min(1),
  date_of_creation: z.iso.date(),
});

export class CompaniesHouseRegistry implements CompanyRegistry {
  private readonly authorization: string;
  private readonly fetch: Fetch;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor({ apiKey, fetch = globalThis.fetch, baseUrl = COMPANIES_HOUSE_API_URL, timeoutMs = 10_000 }: CompaniesHouseRegistryOptions) {
    this.authorization = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
    this.fetch = fetch;
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.timeoutMs = timeoutMs;
  }

  async lookup(companyNumber: string): Promise<CompanyLookup> {
    if (!isWellFormedCompanyNumber(companyNumber)) return { found: false, reason: "invalid_format" };
    const response = await this.requestProfile(companyNumber);
    if (response.status === 404) return { found: false, reason: "company_not_found" };
    if (!response.ok) throw new RegistryUnavailableError(`Companies House answered ${response.status}`, { status: response.status });
    const profile = await readProfile(response);

    const kind = KIND_BY_COMPANY_TYPE[profile.type];
    // Type before status, as in the sandbox: a dissolved partnership was never a possible borrower.
    if (!kind) return { found: false, reason: "not_incorporated" };
    if (profile.company_status !== "active") return { found: false, reason: "company_dissolved" };
    return {
      found: true,
      company: { companyNumber, name: profile.company_name, kind, status: "active", incorporatedOn: profile.date_of_creation },
    };
  }

  private async requestProfile(companyNumber: string): Promise<Response> {
    try {
      return await this.fetch(`${this.baseUrl}/company/${encodeURIComponent(companyNumber)}`, {
        headers: { Authorization: this.authorization, Accept: "application/json" },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new RegistryUnavailableError("Companies House could not be reached", { cause: error });
    }
  }
}

async function readProfile(response: Response): Promise<z.infer<typeof companyProfileSchema>> {
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new RegistryUnavailableError("Companies House answered with a body that is not JSON", { status: response.status, cause: error });
  }
  const parsed = companyProfileSchema.safeParse(body);
  if (!parsed.success) {
    throw new RegistryUnavailableError("Companies House answered with an unexpected company profile", { status: response.status, cause: parsed.error });
  }
  return parsed.data;
}
