// Repayment schedules (docs/accounts.md, "Schedule"). A business term loan's is fixed when the account opens:
// the annuity of lib/decisions/offer-terms.ts (the same arithmetic the offer showed), the final instalment
// absorbing the roundings so the principal parts sum exactly to the principal. A Flex facility's minimum
// repayment is set as each instalment falls due, from what is drawn then.
import { computeOfferTerms } from "../decisions/offer-terms";
import { periodEnd } from "./interest";

export interface PlannedInstalment {
  number: number;
  dueDate: string;
  principalPence: number;
  interestPence: number;
  amountPence: number;
}

/** Instalment `number` falls due `number` calendar months after the account opened (end-of-month clamped). */
export function dueDate(openedOn: string, number: number): string {
  return periodEnd(openedOn, number);
}

export function termLoanSchedule(options: { principalPence: number; aprBps: number; termMonths: number; openedOn: string }): PlannedInstalment[] {
  const terms = computeOfferTerms({ ...options, firstRepaymentDate: dueDate(options.openedOn, 1) });
  return terms.schedule.map((row) => ({
    number: row.number,
    dueDate: dueDate(options.openedOn, row.number),
    principalPence: row.principal_pence,
    interestPence: row.interest_pence,
    amountPence: row.payment_pence,
  }));
}

/**
 * A Flex facility's minimum repayment at the end of `period`: the period's interest, plus the drawn principal
 * not already in arrears shared evenly over the instalments left in the facility's term (rounded up to the
 * penny), so a facility drawn and then left alone is repaid by its last month. From the last instalment on,
 * the whole of it.
 */
export function flexMinimumRepayment(options: { period: number; termMonths: number; principalPence: number; interestPence: number }): { principalPence: number; interestPence: number; amountPence: number } {
  const remaining = Math.max(1, options.termMonths - options.period + 1);
  const principalPence = Math.ceil(options.principalPence / remaining);
  return { principalPence, interestPence: options.interestPence, amountPence: principalPence + options.interestPence };
}
