// The sandbox's simulated bank (docs/sandbox.md, "Sandbox Bank"): no network, the same figures for the same
// company every time. The company number's third and fourth characters, always digits, read as a number N
// from 00 to 99, make a month's turnover of N × £1,000; the twelve months alternate 5% below and 5% above it,
// oldest first, so the year adds up to exactly 12 × N × £1,000. `…00…` (12005678) has no turnover at all.
import { TURNOVER_MONTHS, type MonthlyTurnoverRequest, type OpenBankingProvider } from "./provider";

const POUND = 100;
const MONTHLY_PENCE_PER_UNIT = 1_000 * POUND;
const SWING_PERCENT = 5;

/** The sandbox bank's twelve months for a company number, in pence, oldest first. */
export function sandboxMonthlyTurnover(companyNumber: string): number[] {
  const base = Number(companyNumber.slice(2, 4)) * MONTHLY_PENCE_PER_UNIT;
  const swing = (base * SWING_PERCENT) / 100;
  return Array.from({ length: TURNOVER_MONTHS }, (_, month) => (month % 2 === 0 ? base - swing : base + swing));
}

export class SandboxBank implements OpenBankingProvider {
  readonly name = "sandbox_bank" as const;

  async monthlyTurnover({ companyNumber }: MonthlyTurnoverRequest): Promise<number[]> {
    return sandboxMonthlyTurnover(companyNumber);
  }
}
