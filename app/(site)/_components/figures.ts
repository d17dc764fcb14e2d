// How the site writes the pricing configuration's figures: money through lib/money (integer pence), rates as
// percentages, and each product's range in one phrase, so every page names the same scale the same way.
import { formatPounds, formatWholePounds } from "@/lib/money";
import type { SiteFigures } from "@/lib/site/content";

const poundsToPence = (pounds: number): number => Math.round(pounds * 100);

export const wholePounds = (pounds: number): string => formatWholePounds(poundsToPence(pounds));

/** Pounds and pence only when there are pence: £10, £4.99. */
export function pounds(pounds: number): string {
  const pence = poundsToPence(pounds);
  return pence % 100 === 0 ? formatWholePounds(pence) : formatPounds(pence);
}

/** A decimal rate as a percentage: 0.0025 → 0.25%. */
export function percent(rate: number): string {
  return `${Number((rate * 100).toFixed(4))}%`;
}

export const basisPointsAsPercent = (bps: number): string => `${Number((bps / 100).toFixed(2))}%`;

export function businessLoanScale({ pricing }: SiteFigures): string {
  const loan = pricing.business_loan;
  return `${wholePounds(loan.amount_min_pounds)} to ${wholePounds(loan.amount_max_pounds)} over ${loan.term_min_days} to ${loan.term_max_days} days`;
}

export function termLoanScale({ termLoan }: SiteFigures): string {
  return `${formatWholePounds(termLoan.amountMinPence)} to ${formatWholePounds(termLoan.amountMaxPence)} over ${termLoan.termMinMonths} to ${termLoan.termMaxMonths} months`;
}

export function termLoanAprRange({ termLoan }: SiteFigures): string {
  return `${basisPointsAsPercent(termLoan.aprMinBps)} to ${basisPointsAsPercent(termLoan.aprMaxBps)} APR`;
}
