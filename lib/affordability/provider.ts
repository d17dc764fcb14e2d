// The open-banking provider interface: where twelve months of a company's turnover come from when the platform
// reads them itself (the hosted journey's bank step, or a white-label partner's `source`). The sandbox's
// simulated bank implements it (sandbox-bank.ts); a real open-banking provider takes its place in live
// (choose-provider.ts). A white-label partner with its own provider sends the figures instead.

/** Months of turnover an affordability record holds, oldest first. */
export const TURNOVER_MONTHS = 12;

export interface MonthlyTurnoverRequest {
  companyNumber: string;
}

export interface OpenBankingProvider {
  /** Stored with each record as its `source`. */
  readonly name: "sandbox_bank";
  /** The company's turnover in each of the last twelve months, in pence, oldest first. */
  monthlyTurnover(request: MonthlyTurnoverRequest): Promise<number[]>;
}
