// The sandbox registry: deterministic answers integrators test against, with no I/O. The rules, in order:
//   1. Not 8 digits or 2 capital letters + 6 digits           → invalid_format
//   2. 00000000                                                → company_not_found
//   3. Prefix ST (sole trader) or PT (partnership)             → not_incorporated
//   4. Ending 9991                                             → company_dissolved
//   5. Prefix OC, SO or NC                                     → active LLP, "Sandbox Partners <number> LLP"
//   6. Anything else                                           → active private limited company, "Sandbox Trading <number> Ltd"
// Found companies were incorporated on the date `sandboxIncorporationDate` gives.
import { isWellFormedCompanyNumber } from "./company-number";
import type { CompanyLookup, CompanyRegistry, RegisteredCompany } from "./types";

const NOT_INCORPORATED_PREFIXES = ["ST", "PT"];
const LLP_PREFIXES = ["OC", "SO", "NC"];
const DISSOLVED_SUFFIX = "9991";

// Fixed, not the clock: a sandbox company's trading history must not drift as time passes.
const REFERENCE_YEAR = 2026;
const REFERENCE_MONTH_INDEX = 0;

/**
 * The sandbox incorporation date: the number's last three digits, read as a count of months, before 2026-01-01
 * (so at most 83 years back). Integrators choose a trading history by choosing those digits: `12340001` →
 * 2025-12-01, `00120050` → 2021-11-01, `12340000` → 2026-01-01.
 */
export function sandboxIncorporationDate(companyNumber: string): string {
  if (!isWellFormedCompanyNumber(companyNumber)) throw new RangeError("not a well-formed company number");
  const monthsBefore = Number(companyNumber.slice(-3));
  const monthsSinceYearZero = REFERENCE_YEAR * 12 + REFERENCE_MONTH_INDEX - monthsBefore;
  const year = Math.floor(monthsSinceYearZero / 12);
  const month = (monthsSinceYearZero % 12) + 1;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-01`;
}

export class SandboxRegistry implements CompanyRegistry {
  async lookup(companyNumber: string): Promise<CompanyLookup> {
    if (!isWellFormedCompanyNumber(companyNumber)) return { found: false, reason: "invalid_format" };
    if (companyNumber === "00000000") return { found: false, reason: "company_not_found" };
    const prefix = companyNumber.slice(0, 2);
    if (NOT_INCORPORATED_PREFIXES.includes(prefix)) return { found: false, reason: "not_incorporated" };
    if (companyNumber.endsWith(DISSOLVED_SUFFIX)) return { found: false, reason: "company_dissolved" };
    return { found: true, company: sandboxCompany(companyNumber, LLP_PREFIXES.includes(prefix) ? "llp" : "private_limited_company") };
  }
}

function sandboxCompany(companyNumber: string, kind: RegisteredCompany["kind"]): RegisteredCompany {
  return {
    companyNumber,
    name: kind === "llp" ? `Sandbox Partners ${companyNumber} LLP` : `Sandbox Trading ${companyNumber} Ltd`,
    kind,
    status: "active",
    incorporatedOn: sandboxIncorporationDate(companyNumber),
  };
}
